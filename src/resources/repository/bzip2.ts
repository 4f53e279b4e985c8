/**
 * A bzip2 compressor for the `.tar.bz2` repository archives (GitLab pipes `git archive` through
 * `bzip2`). Written here because the registry has no bzip2 *compressor* that is kept, permissively
 * licensed, synchronous and browser-safe (fflate and pako have none; compressjs is GPL,
 * bzip-deflate CC-SA, libbzip2-wasm an unmaintained, asynchronous emscripten build; bz2 and
 * seek-bzip only decompress). It favours being simple and correct over ratio: each block is the
 * run-length step, a cyclic suffix sort (prefix doubling, O(n log n)) for the Burrows–Wheeler
 * transform, move-to-front with RUNA/RUNB zero runs, and one length-limited Huffman table.
 * Source: the bzip2 1.0.8 file format (compress.c, blocksort.c, huffman.c, bzlib_private.h).
 * @module
 */

/** Raw bytes per block: after the run-length step (at worst 5/4 as long) it stays under bzip2's 900k block limit. */
const BLOCK_INPUT = 700_000
/** bzip2's limit on code lengths when it makes them (decoders take up to 20). */
const MAX_CODE_LENGTH = 17
const GROUP_SIZE = 50

/** The CRC table, built on the first archive rather than at every start (issue 27). */
let crcTable: Uint32Array | undefined

function buildCrcTable(): Uint32Array {
  const table = new Uint32Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i << 24
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1
    table[i] = c >>> 0
  }
  return table
}

/** bzip2's CRC-32 (not reflected, the polynomial 0x04C11DB7) of a block's bytes. */
function blockCrc(data: Uint8Array): number {
  const table = (crcTable ??= buildCrcTable())
  let crc = 0xffffffff
  for (const b of data) crc = ((crc << 8) ^ table[((crc >>> 24) ^ b) & 0xff]!) >>> 0
  return ~crc >>> 0
}

/** Writes bits most significant first. */
class BitWriter {
  private bytes: number[] = []
  private acc = 0
  private count = 0

  write(bits: number, value: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >>> i) & 1)
      if (++this.count === 8) {
        this.bytes.push(this.acc)
        this.acc = 0
        this.count = 0
      }
    }
  }

  finish(): Uint8Array {
    if (this.count > 0) this.bytes.push(this.acc << (8 - this.count))
    return Uint8Array.from(this.bytes)
  }
}

/** The first run-length step: a run of 4 to 255 equal bytes becomes 4 of them and a count of the rest. */
function runLength(data: Uint8Array): Uint8Array {
  const out: number[] = []
  for (let i = 0; i < data.length; ) {
    const b = data[i]!
    let run = 1
    while (i + run < data.length && run < 255 && data[i + run] === b) run++
    if (run >= 4) out.push(b, b, b, b, run - 4)
    else for (let k = 0; k < run; k++) out.push(b)
    i += run
  }
  return Uint8Array.from(out)
}

/** The rotations of `s` in sorted order (their start offsets), by prefix doubling with counting sorts. */
function sortRotations(s: Uint8Array): Int32Array {
  const n = s.length
  const p = new Int32Array(n)
  const c = new Int32Array(n)
  const count = new Int32Array(Math.max(256, n))
  for (const b of s) count[b]!++
  for (let i = 1; i < 256; i++) count[i]! += count[i - 1]!
  for (let i = n - 1; i >= 0; i--) p[--count[s[i]!]!] = i
  let classes = 1
  for (let i = 1; i < n; i++) {
    if (s[p[i]!] !== s[p[i - 1]!]) classes++
    c[p[i]!] = classes - 1
  }
  const pn = new Int32Array(n)
  const cn = new Int32Array(n)
  for (let h = 1; h < n && classes < n; h <<= 1) {
    for (let i = 0; i < n; i++) pn[i] = (p[i]! - h + n) % n
    count.fill(0, 0, classes)
    for (let i = 0; i < n; i++) count[c[pn[i]!]!]!++
    for (let i = 1; i < classes; i++) count[i]! += count[i - 1]!
    for (let i = n - 1; i >= 0; i--) p[--count[c[pn[i]!]!]!] = pn[i]!
    cn[p[0]!] = 0
    classes = 1
    for (let i = 1; i < n; i++) {
      const a = p[i]!
      const b = p[i - 1]!
      if (c[a] !== c[b] || c[(a + h) % n] !== c[(b + h) % n]) classes++
      cn[a] = classes - 1
    }
    c.set(cn)
  }
  return p
}

/** Code lengths (1..17) for every symbol, from frequencies, scaled down until no code is too long. */
function codeLengths(freq: readonly number[]): number[] {
  let weights = freq.map((f) => Math.max(f, 1))
  for (;;) {
    // A Huffman tree by repeatedly joining the two lightest nodes; depth of each leaf is its length.
    const nodes = weights.map((w, i) => ({ w, leaves: [i] }))
    const lengths = new Array<number>(weights.length).fill(0)
    while (nodes.length > 1) {
      nodes.sort((a, b) => a.w - b.w)
      const [x, y] = nodes.splice(0, 2) as [(typeof nodes)[0], (typeof nodes)[0]]
      for (const leaf of [...x.leaves, ...y.leaves]) lengths[leaf]!++
      nodes.push({ w: x.w + y.w, leaves: [...x.leaves, ...y.leaves] })
    }
    if (Math.max(...lengths) <= MAX_CODE_LENGTH) return lengths
    weights = weights.map((w) => 1 + Math.floor(w / 2))
  }
}

/** One block: its stored bits appended to `out`. */
function writeBlock(out: BitWriter, raw: Uint8Array): void {
  const block = runLength(raw)
  const n = block.length
  const order = sortRotations(block)
  const inUse = new Array<boolean>(256).fill(false)
  for (const b of block) inUse[b] = true
  const used = [...inUse.keys()].filter((b) => inUse[b])
  const alphaSize = used.length + 2
  const eob = used.length + 1

  // Move-to-front of the transform's last column, zero runs as RUNA (0) / RUNB (1), then EOB.
  const mtf = Uint8Array.from(used)
  const symbols: number[] = []
  let zeros = 0
  const flushZeros = () => {
    if (zeros === 0) return
    let z = zeros - 1
    for (;;) {
      symbols.push(z & 1)
      if (z < 2) break
      z = (z - 2) >> 1
    }
    zeros = 0
  }
  let origPtr = 0
  for (let i = 0; i < n; i++) {
    if (order[i] === 0) origPtr = i
    const b = block[order[i] === 0 ? n - 1 : order[i]! - 1]!
    if (mtf[0] === b) {
      zeros++
      continue
    }
    flushZeros()
    let j = 1
    for (let prev = mtf[0]!; ; j++) {
      const here = mtf[j]!
      mtf[j] = prev
      if (here === b) break
      prev = here
    }
    mtf[0] = b
    symbols.push(j + 1)
  }
  flushZeros()
  symbols.push(eob)

  const freq = new Array<number>(alphaSize).fill(0)
  for (const s of symbols) freq[s]!++
  const lengths = codeLengths(freq)
  const codes = new Array<number>(alphaSize).fill(0)
  let next = 0
  for (let len = 1; len <= MAX_CODE_LENGTH; len++) {
    for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) codes[s] = next++
    next <<= 1
  }

  out.write(24, 0x314159)
  out.write(24, 0x265359)
  out.write(32, blockCrc(raw))
  out.write(1, 0)
  out.write(24, origPtr)
  // The bytes used: 16 bits for the ranges of 16, then 16 bits for each range used.
  let ranges = 0
  for (let r = 0; r < 16; r++) if (inUse.slice(r * 16, r * 16 + 16).some(Boolean)) ranges |= 0x8000 >>> r
  out.write(16, ranges)
  for (let r = 0; r < 16; r++) {
    if (!(ranges & (0x8000 >>> r))) continue
    let bits = 0
    for (let k = 0; k < 16; k++) if (inUse[r * 16 + k]) bits |= 0x8000 >>> k
    out.write(16, bits)
  }
  // Two tables (the least the format takes), the same; every group of 50 symbols selects the first.
  const selectors = Math.ceil(symbols.length / GROUP_SIZE)
  out.write(3, 2)
  out.write(15, selectors)
  for (let i = 0; i < selectors; i++) out.write(1, 0)
  for (let t = 0; t < 2; t++) {
    let current = lengths[0]!
    out.write(5, current)
    for (let s = 0; s < alphaSize; s++) {
      for (; current < lengths[s]!; current++) out.write(2, 2)
      for (; current > lengths[s]!; current--) out.write(2, 3)
      out.write(1, 0)
    }
  }
  for (const s of symbols) out.write(lengths[s]!, codes[s]!)
}

/**
 * `data` compressed as the `bzip2` tool writes a stream (block size 9): the `BZh9` header, blocks
 * of at most 700,000 input bytes, and the end-of-stream marker with the combined CRC.
 */
export function bzip2(data: Uint8Array): Uint8Array {
  const out = new BitWriter()
  out.write(32, 0x425a6839) // "BZh9"
  let combined = 0
  for (let at = 0; at < data.length; at += BLOCK_INPUT) {
    const raw = data.subarray(at, at + BLOCK_INPUT)
    combined = (((combined << 1) | (combined >>> 31)) ^ blockCrc(raw)) >>> 0
    writeBlock(out, raw)
  }
  out.write(24, 0x177245)
  out.write(24, 0x385090)
  out.write(32, combined)
  return out.finish()
}
