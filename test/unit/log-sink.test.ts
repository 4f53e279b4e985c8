import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bufferedLog, FdLogWriter } from '../../src/cli/log-sink.js'

const later = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('bufferedLog: the request log written in batches, off the request path', () => {
  it('writes the lines that came within 10 ms with one write, in order, afterwards', async () => {
    const writes: string[] = []
    const log = bufferedLog((n: number) => `line ${n}\n`, { write: (chunk: Buffer) => writes.push(chunk.toString()) })
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

  it('hands a batch over at once when the next line would not fit in its 16 KiB, and a longer line alone', () => {
    const writes: string[] = []
    const log = bufferedLog((text: string) => text, { write: (chunk: Buffer) => writes.push(chunk.toString()) })
    const line = `${'x'.repeat(1023)}\n` // 1 KiB, counted as up to 3 KiB of UTF-8 until encoded
    for (let i = 0; i < 15; i += 1) log(line)
    expect(writes).toEqual([line.repeat(14)])
    const long = `${'é'.repeat(6000)}\n`
    log(long)
    expect(writes).toEqual([line.repeat(14), line, long])
  })

  it('encodes the lines as UTF-8', async () => {
    const writes: Buffer[] = []
    const log = bufferedLog((text: string) => text, { write: (chunk: Buffer) => writes.push(chunk) })
    log('GET /api/v4/projects/acme%2Fwébsite 🚀\n')
    await later()
    expect(Buffer.concat(writes).toString('utf8')).toBe('GET /api/v4/projects/acme%2Fwébsite 🚀\n')
  })
})

describe('bufferedLog on exit', () => {
  it('writes what waits, synchronously, in the process\'s exit event', () => {
    const writes: string[] = []
    const before = new Set(process.listeners('exit'))
    const log = bufferedLog((n: number) => `line ${n}\n`, { write: (chunk: Buffer) => writes.push(chunk.toString()) })
    const onExit = process.listeners('exit').filter((listener) => !before.has(listener))
    expect(onExit).toHaveLength(1)
    log(1)
    log(2)
    onExit[0]!.call(process, 0)
    expect(writes).toEqual(['line 1\nline 2\n'])
    process.off('exit', onExit[0]!)
  })
})

describe('FdLogWriter: asynchronous, ordered writes to a file descriptor (issue 39 item 3)', () => {
  const settle = async (check: () => boolean) => {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  let dir = ''
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fakelab-log-writer-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  /** Both ends of a named pipe (64 KiB), non-blocking, as a full pipe answers a writer with EAGAIN. */
  const pipe = () => {
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    return { reader, fd: openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK) }
  }

  it('writes to a file in the order handed in, what comes during a write going out after it', async () => {
    const file = join(dir, 'log')
    const fd = openSync(file, 'w')
    try {
      const writer = new FdLogWriter(fd)
      const expected = Array.from({ length: 200 }, (_, i) => `line ${i}\n`)
      for (const line of expected) writer.write(Buffer.from(line))
      await settle(() => readFileSync(file, 'utf8').length === expected.join('').length)
      expect(readFileSync(file, 'utf8')).toBe(expected.join(''))
    } finally {
      closeSync(fd)
    }
  })

  it('writes what waits behind a write in progress synchronously on flushSync (the exit event)', async () => {
    const file = join(dir, 'log')
    const fd = openSync(file, 'w')
    try {
      const writer = new FdLogWriter(fd)
      writer.write(Buffer.from('first\n'))
      writer.write(Buffer.from('second\n'))
      writer.flushSync()
      expect(readFileSync(file, 'utf8')).toContain('second\n')
      await settle(() => readFileSync(file, 'utf8').length === 13)
      expect(readFileSync(file, 'utf8').split('\n').sort()).toEqual(['', 'first', 'second'])
    } finally {
      closeSync(fd)
    }
  })

  it.skipIf(process.platform === 'win32')('keeps at most 4 MiB behind a reader that does not read, counts what it drops, and says so once', async () => {
    const { reader, fd } = pipe()
    const notices: string[] = []
    try {
      const writer = new FdLogWriter(fd, (text) => notices.push(text))
      const line = Buffer.from(`${'x'.repeat(1023)}\n`) // 1 KiB
      const total = 6 * 1024
      for (let i = 0; i < total; i += 1) writer.write(line)
      // The pipe holds 64 KiB; the writer retries the rest (EAGAIN) while nobody reads.
      await new Promise((resolve) => setTimeout(resolve, 50))
      await settle(() => notices.length > 0)
      const dropped = Number(/dropped (\d+) lines/.exec(notices[0] ?? '')?.[1])
      expect(dropped).toBeGreaterThan(1000)
      let read = 0
      const buffer = Buffer.alloc(1 << 16)
      await settle(() => {
        for (;;) {
          try {
            const n = readSync(reader, buffer)
            if (n === 0) break
            read += n
          } catch {
            break
          }
        }
        return read === (total - dropped) * 1024
      })
      // Everything not dropped arrived: more than the 4 MiB kept behind the write in progress.
      expect(read).toBe((total - dropped) * 1024)
      expect(read).toBeGreaterThan(4 * 1024 * 1024)
      expect(notices).toEqual([`[fakelab] the request log dropped ${dropped} lines: stdout is not keeping up (GET /-/fakelab/journal keeps the requests)\n`])
    } finally {
      closeSync(fd)
      closeSync(reader)
    }
  })

  it.skipIf(process.platform === 'win32')('stops, says why once, and keeps quiet when the reader goes away (EPIPE)', async () => {
    const { reader, fd } = pipe()
    closeSync(reader)
    const notices: string[] = []
    try {
      const writer = new FdLogWriter(fd, (text) => notices.push(text))
      writer.write(Buffer.from('lost\n'))
      await settle(() => notices.length > 0)
      writer.write(Buffer.from('also lost\n'))
      writer.flushSync()
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(notices).toEqual([`[fakelab] the request log stopped: EPIPE writing to file descriptor ${fd}\n`])
    } finally {
      closeSync(fd)
    }
  })
})
