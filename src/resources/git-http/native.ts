/**
 * Node's native SHA-1 and deflate where the runtime has them (`process.getBuiltinModule`, Node
 * 20.16+), else the JavaScript ones (@noble/hashes, fflate) a browser gets: a clone's pack is
 * megabytes, whose trailer hash and compression cost seconds in JavaScript and milliseconds
 * natively. Read through `getBuiltinModule` rather than imported, so the area stays browser-safe
 * and a start loads nothing. Same bytes either way (SHA-1 is SHA-1; any valid zlib stream will do).
 * @module
 */
import { sha1 } from '@noble/hashes/legacy.js'
import { zlibSync } from 'fflate'

/** An incremental SHA-1. */
export interface Sha1 {
  update(data: Uint8Array): Sha1
  digest(): Uint8Array
}

interface NodeCrypto {
  createHash(algorithm: 'sha1'): { update(data: Uint8Array): unknown; digest(): Uint8Array }
}
interface NodeZlib {
  deflateSync(data: Uint8Array, options: { level: number }): Uint8Array
}

/** A Node built-in module by name, or undefined outside Node. */
function builtin<T>(name: string): T | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule
  try {
    return get ? (get(name) as T | undefined) : undefined
  } catch {
    return undefined
  }
}

let crypto: NodeCrypto | null | undefined
let zlib: NodeZlib | null | undefined

/** A new SHA-1: node:crypto's in Node, @noble/hashes' elsewhere. */
export function sha1Hasher(): Sha1 {
  crypto ??= builtin<NodeCrypto>('node:crypto') ?? null
  if (crypto) {
    const hash = crypto.createHash('sha1')
    const wrapped: Sha1 = {
      update(data) {
        hash.update(data)
        return wrapped
      },
      digest: () => new Uint8Array(hash.digest()),
    }
    return wrapped
  }
  const hash = sha1.create()
  const wrapped: Sha1 = {
    update(data) {
      hash.update(data)
      return wrapped
    },
    digest: () => hash.digest(),
  }
  return wrapped
}

/** `data` as a zlib stream at `level` (1-9): node:zlib's in Node, fflate's elsewhere. */
function deflate(data: Uint8Array, level: 1 | 6 | 9): Uint8Array {
  zlib ??= builtin<NodeZlib>('node:zlib') ?? null
  return zlib ? zlib.deflateSync(data, { level }) : zlibSync(data, { level })
}

/**
 * `data` as a zlib stream of stored (uncompressed) deflate blocks: zlib's level 0, what git writes
 * with `core.compression 0` (RFC 1950 header and Adler-32, RFC 1951 stored blocks of at most
 * 65,535 bytes). No window, no tables: a pack of thousands of small objects is written at memory
 * speed, where a compressor's set-up per object costs more than the object.
 */
export function storedZlib(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65535))
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4)
  out[0] = 0x78
  out[1] = 0x01
  let at = 2
  for (let b = 0; b < blocks; b++) {
    const start = b * 65535
    const length = Math.min(65535, data.length - start)
    out[at] = b === blocks - 1 ? 1 : 0
    out[at + 1] = length & 0xff
    out[at + 2] = length >>> 8
    out[at + 3] = ~length & 0xff
    out[at + 4] = (~length >>> 8) & 0xff
    out.set(data.subarray(start, start + length), at + 5)
    at += 5 + length
  }
  // Adler-32, summed in runs short enough that the sums stay exact before the modulo.
  let a = 1
  let s = 0
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 3800, data.length)
    for (; i < end; i++) {
      a += data[i]!
      s += a
    }
    a %= 65521
    s %= 65521
  }
  out[at] = s >>> 8
  out[at + 1] = s & 0xff
  out[at + 2] = a >>> 8
  out[at + 3] = a & 0xff
  return out
}
