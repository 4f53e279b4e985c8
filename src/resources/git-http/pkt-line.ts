/**
 * git's pkt-line framing (Documentation/technical/protocol-common.txt): each line is four hex
 * digits giving its length (the four included) then its payload; `0000` is a flush, `0001` a
 * delimiter and `0002` a response end (protocol v2). Side-band-64k multiplexes a response into
 * bands: 1 data, 2 progress, 3 fatal error, each packet at most 65520 bytes.
 * Written here rather than taken from npm: the packages that exist (git-read-pkt-line,
 * git-write-pkt-line) are Node stream transforms from 2013, where fakelab's handlers work on whole
 * byte arrays, synchronously, in a browser too; the format is twenty lines. Browser-safe.
 * @module
 */

const utf8 = new TextEncoder()
const text = new TextDecoder()

/** The largest pkt-line (`LARGE_PACKET_MAX`), its 4-byte header included. */
const MAX_PKT = 65520

/** A flush packet (`0000`). */
export const FLUSH = utf8.encode('0000')
/** A delimiter packet (`0001`, protocol v2). */
export const DELIM = utf8.encode('0001')

/** One pkt-line of a text (as UTF-8) or bytes. @throws RangeError for a payload over {@link MAX_PKT} − 4 bytes. */
export function pkt(payload: string | Uint8Array): Uint8Array {
  const data = typeof payload === 'string' ? utf8.encode(payload) : payload
  if (data.length + 4 > MAX_PKT) throw new RangeError('pkt-line too long')
  const out = new Uint8Array(data.length + 4)
  out.set(utf8.encode((data.length + 4).toString(16).padStart(4, '0')), 0)
  out.set(data, 4)
  return out
}

/** Band 1 (data), 2 (progress) or 3 (error) of side-band-64k, cut into packets of the largest size. */
export function sideband(band: 1 | 2 | 3, payload: string | Uint8Array): Uint8Array[] {
  const data = typeof payload === 'string' ? utf8.encode(payload) : payload
  const chunk = MAX_PKT - 5
  const out: Uint8Array[] = []
  for (let at = 0; at < data.length; at += chunk) {
    const part = data.subarray(at, Math.min(at + chunk, data.length))
    const line = new Uint8Array(part.length + 5)
    line.set(utf8.encode((part.length + 5).toString(16).padStart(4, '0')), 0)
    line[4] = band
    line.set(part, 5)
    out.push(line)
  }
  return out
}

/** A request that is not a pkt-line stream; its message is git's (`protocol error: bad line length character`). */
export class PktLineError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PktLineError'
  }
}

/** One packet read: its payload, or a flush, delimiter or response end. */
export type Packet = Uint8Array | 'flush' | 'delim' | 'end'

/** What {@link readPackets} read: the packets, and where the bytes after the last packet it read start. */
export interface Packets {
  readonly packets: Packet[]
  /** The offset just past the last packet read (where a pack that follows begins). */
  readonly end: number
}

/**
 * Reads pkt-lines from `bytes` at `offset` until `stopAfterFlushes` flushes have been read (0: until
 * the bytes run out or what follows is no pkt-line, such as a pack's `PACK`).
 * @throws PktLineError for a length that is not four hex digits or runs past the end.
 */
export function readPackets(bytes: Uint8Array, offset = 0, stopAfterFlushes = 0): Packets {
  const packets: Packet[] = []
  let at = offset
  let flushes = 0
  while (at + 4 <= bytes.length) {
    const head = text.decode(bytes.subarray(at, at + 4))
    if (head === 'PACK') break
    if (!/^[0-9a-f]{4}$/i.test(head)) throw new PktLineError(`protocol error: bad line length character: ${head}`)
    const length = parseInt(head, 16)
    if (length === 0) {
      packets.push('flush')
      at += 4
      if (stopAfterFlushes > 0 && ++flushes >= stopAfterFlushes) break
      continue
    }
    if (length === 1 || length === 2) {
      packets.push(length === 1 ? 'delim' : 'end')
      at += 4
      continue
    }
    if (length < 4 || at + length > bytes.length) throw new PktLineError('protocol error: bad line length')
    packets.push(bytes.subarray(at + 4, at + length))
    at += length
  }
  return { packets, end: at }
}

/** A packet's payload as text without its trailing newline (`want <id>\n` → `want <id>`). */
export function lineText(packet: Uint8Array): string {
  const s = text.decode(packet)
  return s.endsWith('\n') ? s.slice(0, -1) : s
}
