/**
 * git's packfile format (Documentation/technical/pack-format.txt, version 2): writing a pack of whole
 * objects for upload-pack, and reading a pushed pack with its deltas (OFS_DELTA by offset within the
 * pack, REF_DELTA by id, in the pack or in the repository already: a thin pack). Objects are
 * written as zlib's stored blocks (`native.ts`: at memory speed) and read with pako's zlib stream, the one zlib for JavaScript that tells where a compressed object ends (its
 * `next_in`), which a pack, with no lengths of its own, needs. Objects decode into the repository
 * area's shapes (`git-objects.ts`), whose encodings give the same ids.
 * Source: git Documentation/technical/pack-format.txt, packfile.c (`unpack_object_header`,
 * `get_delta_base`), patch-delta.c.
 * @module
 */
import { concatUint8Arrays } from 'uint8array-extras'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ZStream, zlibInflate, zlibInflateEnd, zlibInflateInit, Z_FINISH, Z_STREAM_END } from 'pako'
import type { ObjectId } from '../repository/repository.public.js'
import { sha1Hasher, storedZlib } from './native.js'

/** An object's type and its body (the bytes after git's `<type> <size>\0` header). */
export interface RawObject {
  readonly type: ObjectType
  readonly body: Uint8Array
}

/** The four object types a pack holds whole. */
export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag'

/** A pack is broken or holds what fakelab cannot read; its message is what git shows after `unpack `. */
export class PackError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PackError'
  }
}

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 }
const CODE_TYPE: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' }
const OFS_DELTA = 6
const REF_DELTA = 7
const utf8 = new TextEncoder()

/** The id git gives an object: the SHA-1 of `<type> <size>\0<body>`. */
function objectId(type: ObjectType, body: Uint8Array): ObjectId {
  return bytesToHex(sha1Hasher().update(utf8.encode(`${type} ${body.length}\0`)).update(body).digest())
}

/** A pack entry's header: type code and inflated size, 7 bits a byte after the first 4. */
function entryHeader(code: number, size: number): Uint8Array {
  const out: number[] = []
  let byte = (code << 4) | (size & 0x0f)
  let rest = Math.floor(size / 16)
  while (rest > 0) {
    out.push(byte | 0x80)
    byte = rest & 0x7f
    rest = Math.floor(rest / 128)
  }
  out.push(byte)
  return Uint8Array.from(out)
}

/**
 * A version-2 pack of these objects, whole (no deltas), each a zlib stream of stored blocks
 * (`storedZlib`: speed over size, the pack goes to a client on the same machine), and its SHA-1 trailer.
 */
export function writePack(objects: readonly RawObject[]): Uint8Array {
  const head = new Uint8Array(12)
  head.set(utf8.encode('PACK'), 0)
  const view = new DataView(head.buffer)
  view.setUint32(4, 2)
  view.setUint32(8, objects.length)
  const parts: Uint8Array[] = [head]
  for (const o of objects) {
    parts.push(entryHeader(TYPE_CODE[o.type], o.body.length))
    parts.push(storedZlib(o.body))
  }
  const hash = sha1Hasher()
  for (const p of parts) hash.update(p)
  parts.push(hash.digest())
  return concatUint8Arrays(parts)
}

/** Inflates the zlib stream at `at` whose output is `size` bytes; returns it and where the stream ended. */
function inflateAt(bytes: Uint8Array, at: number, size: number): { data: Uint8Array; next: number } {
  const strm = new ZStream()
  strm.input = bytes
  strm.next_in = at
  strm.avail_in = bytes.length - at
  // One byte more than told: a stream that inflates past `size` shows as one that did not end.
  strm.output = new Uint8Array(size + 1)
  strm.next_out = 0
  strm.avail_out = size + 1
  zlibInflateInit(strm)
  const status = zlibInflate(strm, Z_FINISH)
  zlibInflateEnd(strm)
  if (status !== Z_STREAM_END || strm.next_out !== size) throw new PackError('inflate returned an error (bad object)')
  return { data: strm.output.subarray(0, size), next: strm.next_in }
}

/** Applies a git delta (patch-delta.c) to its base. @throws PackError for a delta that does not fit its base. */
function applyDelta(base: Uint8Array, delta: Uint8Array): Uint8Array {
  let at = 0
  const varint = (): number => {
    let value = 0
    let shift = 0
    let byte: number
    do {
      byte = delta[at++]!
      value += (byte & 0x7f) * 2 ** shift
      shift += 7
    } while (byte & 0x80 && at < delta.length)
    return value
  }
  const sourceSize = varint()
  const targetSize = varint()
  if (sourceSize !== base.length) throw new PackError('delta base size does not match')
  const out = new Uint8Array(targetSize)
  let written = 0
  while (at < delta.length) {
    const op = delta[at++]!
    if (op & 0x80) {
      let offset = 0
      let size = 0
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset |= delta[at++]! << (8 * i)
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) size |= delta[at++]! << (8 * i)
      offset >>>= 0
      if (size === 0) size = 0x10000
      if (offset + size > base.length || written + size > targetSize) throw new PackError('delta copies past its base')
      out.set(base.subarray(offset, offset + size), written)
      written += size
    } else if (op !== 0) {
      if (written + op > targetSize || at + op > delta.length) throw new PackError('delta inserts past its end')
      out.set(delta.subarray(at, at + op), written)
      at += op
      written += op
    } else {
      throw new PackError('delta has the reserved opcode 0')
    }
  }
  if (written !== targetSize) throw new PackError('delta result has the wrong size')
  return out
}

/** One entry as read, before its delta (if any) is applied. */
interface Entry {
  readonly offset: number
  readonly code: number
  readonly data: Uint8Array
  readonly baseOffset?: number
  readonly baseId?: ObjectId
}

/**
 * Reads a pack: every object it holds, whole, with its id, deltas applied. `base` finds a REF_DELTA's
 * base outside the pack (a thin pack's, in the repository already).
 * @throws PackError for a pack that is cut short, has a bad trailer, or a delta whose base is
 *   nowhere (the message git shows as `unpack <message>`).
 */
export function readPack(bytes: Uint8Array, base: (id: ObjectId) => RawObject | undefined): Array<RawObject & { id: ObjectId }> {
  if (bytes.length < 32 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'PACK') throw new PackError('protocol error (pack signature mismatch detected)')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint32(4)
  if (version !== 2 && version !== 3) throw new PackError(`pack version ${version} unsupported`)
  const count = view.getUint32(8)
  const trailer = bytesToHex(bytes.subarray(bytes.length - 20))
  if (bytesToHex(sha1Hasher().update(bytes.subarray(0, bytes.length - 20)).digest()) !== trailer) throw new PackError('pack is corrupted (SHA1 mismatch)')
  const entries: Entry[] = []
  let at = 12
  for (let n = 0; n < count; n++) {
    const offset = at
    if (at >= bytes.length - 20) throw new PackError('pack has junk at the end')
    let byte = bytes[at++]!
    const code = (byte >> 4) & 7
    let size = byte & 0x0f
    let shift = 4
    while (byte & 0x80) {
      byte = bytes[at++]!
      size += (byte & 0x7f) * 2 ** shift
      shift += 7
    }
    let baseOffset: number | undefined
    let baseId: ObjectId | undefined
    if (code === OFS_DELTA) {
      byte = bytes[at++]!
      let back = byte & 0x7f
      while (byte & 0x80) {
        byte = bytes[at++]!
        back = (back + 1) * 128 + (byte & 0x7f)
      }
      baseOffset = offset - back
      if (back <= 0 || baseOffset < 12) throw new PackError('delta base offset is out of bound')
    } else if (code === REF_DELTA) {
      baseId = bytesToHex(bytes.subarray(at, at + 20))
      at += 20
    } else if (!CODE_TYPE[code]) {
      throw new PackError(`unknown object type ${code}`)
    }
    if (at >= bytes.length - 20 || size > bytes.length * 1032) throw new PackError('pack is truncated')
    const { data, next } = inflateAt(bytes, at, size)
    at = next
    entries.push({ offset, code, data, ...(baseOffset !== undefined ? { baseOffset } : {}), ...(baseId !== undefined ? { baseId } : {}) })
  }
  const byOffset = new Map<number, Entry>(entries.map((e) => [e.offset, e]))
  const resolved = new Map<number, RawObject & { id: ObjectId }>()
  const byId = new Map<ObjectId, RawObject & { id: ObjectId }>()
  const resolve = (entry: Entry): RawObject & { id: ObjectId } => {
    const done = resolved.get(entry.offset)
    if (done) return done
    // Delta chains resolved without recursion (git allows chains of any depth).
    const chain: Entry[] = [entry]
    let root: RawObject | undefined
    for (;;) {
      if (chain.length > entries.length) throw new PackError('delta chain loops')
      const top = chain[chain.length - 1]!
      const known = resolved.get(top.offset)
      if (known && top !== entry) {
        chain.pop()
        root = known
        break
      }
      if (CODE_TYPE[top.code]) {
        chain.pop()
        root = { type: CODE_TYPE[top.code]!, body: top.data }
        const whole = { ...root, id: objectId(root.type, root.body) }
        resolved.set(top.offset, whole)
        byId.set(whole.id, whole)
        break
      }
      if (top.baseOffset !== undefined) {
        const next = byOffset.get(top.baseOffset)
        if (!next) throw new PackError('delta base offset is out of bound')
        chain.push(next)
        continue
      }
      const inPack = byId.get(top.baseId!) ?? entries.map((e) => (CODE_TYPE[e.code] ? resolve(e) : undefined)).find((o) => o?.id === top.baseId)
      const outside = inPack ?? base(top.baseId!)
      if (!outside) throw new PackError(`did not receive expected object ${top.baseId}`)
      // The base found, the delta itself stays in the chain to be applied.
      root = outside
      break
    }
    let current = root
    for (let i = chain.length - 1; i >= 0; i--) {
      const e = chain[i]!
      const body = applyDelta(current.body, e.data)
      const whole = { type: current.type, body, id: objectId(current.type, body) }
      resolved.set(e.offset, whole)
      byId.set(whole.id, whole)
      current = whole
    }
    return resolved.get(entry.offset)!
  }
  return entries.map(resolve)
}
