/**
 * The bzip2 compressor of the `.tar.bz2` archives (src/resources/repository/bzip2.ts), checked by
 * the reference decoder: the `bunzip2` tool gives back every input byte for byte (skipped, saying
 * so, where the tool is missing). Inputs cover the format's edges: empty, one byte, runs the
 * run-length step shortens, a periodic text (equal rotations), noise, and more than one block.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { bzip2 } from '../../src/resources/repository/bzip2.js'

function hasBunzip2(): boolean {
  try {
    execFileSync('bunzip2', ['--help'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Deterministic noise (a linear congruential generator), so the test has no randomness. */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = 12345
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

const encoder = new TextEncoder()
const CASES: [string, Uint8Array][] = [
  ['empty', new Uint8Array()],
  ['one byte', encoder.encode('a')],
  ['text', encoder.encode('Initial content\nhello hello hello world\n')],
  ['zeros (tar padding)', new Uint8Array(10_240)],
  ['runs of 3, 4, 5 and 300', encoder.encode(`aaa${'b'.repeat(4)}${'c'.repeat(5)}${'d'.repeat(300)}e`)],
  ['periodic', encoder.encode('ab'.repeat(5_000))],
  ['noise', noise(20_000)],
  ['two blocks', new Uint8Array([...noise(1_000), ...new Uint8Array(800_000), ...noise(1_000)])],
]

describe('bzip2', () => {
  it('writes the stream header and, for no input, only the end-of-stream marker', () => {
    expect([...bzip2(new Uint8Array())]).toEqual([0x42, 0x5a, 0x68, 0x39, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0])
  })

  describe.skipIf(!hasBunzip2())('round trip through bunzip2 (skipped without the tool)', () => {
    it.each(CASES)('%s', (_name, input) => {
      const back = execFileSync('bunzip2', ['-c'], { input: bzip2(input), maxBuffer: 1 << 24 })
      expect(Buffer.compare(back, Buffer.from(input))).toBe(0)
    })
  })
})
