import { describe, expect, it } from 'vitest'
import { bufferedLog } from '../../src/cli/log-sink.js'

const later = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('bufferedLog: the request log written in batches, off the request path', () => {
  it('writes the lines that came within 10 ms with one write, in order, afterwards', async () => {
    const writes: string[] = []
    const log = bufferedLog((n: number) => `line ${n}\n`, { write: (chunk: string) => writes.push(chunk) })
    log(1)
    log(2)
    await Promise.resolve()
    log(3)
    expect(writes).toEqual([])
    await later()
    expect(writes).toEqual(['line 1\nline 2\nline 3\n'])
    log(4)
    await later()
    expect(writes).toEqual(['line 1\nline 2\nline 3\n', 'line 4\n'])
  })

  it('writes at once when 64 KiB are waiting', () => {
    const writes: string[] = []
    const log = bufferedLog((text: string) => text, { write: (chunk: string) => writes.push(chunk) })
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 64; i += 1) log(line)
    expect(writes).toEqual([line.repeat(64)])
  })
})

describe('bufferedLog on exit', () => {
  it('writes what waits, synchronously, in the process\'s exit event', () => {
    const writes: string[] = []
    const before = new Set(process.listeners('exit'))
    const log = bufferedLog((n: number) => `line ${n}\n`, { write: (chunk: string) => writes.push(chunk) })
    const onExit = process.listeners('exit').filter((listener) => !before.has(listener))
    expect(onExit).toHaveLength(1)
    log(1)
    log(2)
    onExit[0]!.call(process, 0)
    expect(writes).toEqual(['line 1\nline 2\n'])
    process.off('exit', onExit[0]!)
  })
})
