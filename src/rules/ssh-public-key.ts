/**
 * OpenSSH public keys as GitLab 13.12 reads them (`Gitlab::SSHPublicKey`, net-ssh underneath):
 * the `<algorithm> <base64 blob> [comment]` line, the blob decoded in SSH's wire format (RFC 4253
 * §6.6, RFC 5656 §3.1, RFC 8709) and checked against its algorithm, its size in bits, and the MD5
 * and SHA256 fingerprints of the blob. Hand-written over `@noble/hashes`: the SSH libraries for
 * JavaScript (sshpk) need Node's crypto and streams, and this module must stay browser-safe
 * (tsconfig.browser.json; test/browser/bundle.test.ts). gitlab: lib/gitlab/ssh_public_key.rb,
 * app/models/key.rb.
 * @module
 */
import { md5 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64ToUint8Array, uint8ArrayToBase64 } from 'uint8array-extras'

/** The key technologies 13.12 accepts and their algorithm names (`Gitlab::SSHPublicKey::TECHNOLOGIES`). */
const SSH_KEY_ALGORITHMS = {
  rsa: ['ssh-rsa'],
  dsa: ['ssh-dss'],
  ecdsa: ['ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521'],
  ed25519: ['ssh-ed25519'],
} as const

/** One of the technologies of {@link SSH_KEY_ALGORITHMS}. */
export type SshKeyType = keyof typeof SSH_KEY_ALGORITHMS

/** A parsed public key. */
export interface SshPublicKey {
  type: SshKeyType
  /** The algorithm name of the line (`ssh-rsa`). */
  algorithm: string
  /** Its size in bits (an RSA or DSA modulus's, the curve's). */
  bits: number
  /** `Key#fingerprint`: MD5 of the blob, lower-case hex pairs joined by colons. */
  fingerprint: string
  /** `Key#fingerprint_sha256`: SHA256 of the blob in unpadded base64, without the `SHA256:` prefix. */
  fingerprintSha256: string
}

/** Every algorithm name 13.12 supports (`supported_algorithms`), for the key format check. */
export const SUPPORTED_SSH_ALGORITHMS: readonly string[] = Object.values(SSH_KEY_ALGORITHMS).flat()

/** Reads SSH wire-format fields from a blob; each read throws on a short blob. */
class WireReader {
  private offset = 0
  private readonly bytes: Uint8Array
  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }
  /** A `string`: a uint32 length and that many bytes. */
  string(): Uint8Array {
    if (this.offset + 4 > this.bytes.length) throw new RangeError('short')
    const b = this.bytes
    const length = ((b[this.offset]! << 24) >>> 0) + (b[this.offset + 1]! << 16) + (b[this.offset + 2]! << 8) + b[this.offset + 3]!
    this.offset += 4
    if (this.offset + length > b.length) throw new RangeError('short')
    const value = b.subarray(this.offset, this.offset + length)
    this.offset += length
    return value
  }
  /** Whether every byte has been read. */
  get done(): boolean {
    return this.offset === this.bytes.length
  }
}

/** The bit length of an `mpint` (a positive big-endian integer, maybe with a leading zero byte). */
function mpintBits(value: Uint8Array): number {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  if (i === value.length) return 0
  return (value.length - i - 1) * 8 + (32 - Math.clz32(value[i]!))
}

const ASCII = new TextDecoder('latin1')
const CURVE_BITS: Record<string, number> = { nistp256: 256, nistp384: 384, nistp521: 521 }

/** The key's type and size from its blob, or undefined when the blob is not a key of `algorithm`. */
function decodeBlob(algorithm: string, blob: Uint8Array): { type: SshKeyType; bits: number } | undefined {
  const reader = new WireReader(blob)
  try {
    if (ASCII.decode(reader.string()) !== algorithm) return undefined
    let result: { type: SshKeyType; bits: number } | undefined
    if (algorithm === 'ssh-rsa') {
      const e = reader.string()
      const n = reader.string()
      result = mpintBits(e) > 0 && mpintBits(n) > 0 ? { type: 'rsa', bits: mpintBits(n) } : undefined
    } else if (algorithm === 'ssh-dss') {
      const [p, q, g, y] = [reader.string(), reader.string(), reader.string(), reader.string()]
      result = [q, g, y].every((v) => mpintBits(v) > 0) && mpintBits(p) > 0 ? { type: 'dsa', bits: mpintBits(p) } : undefined
    } else if (algorithm.startsWith('ecdsa-sha2-')) {
      const curve = ASCII.decode(reader.string())
      const point = reader.string()
      const bits = CURVE_BITS[curve]
      const coordinate = bits === undefined ? 0 : Math.ceil(bits / 8)
      const ok = bits !== undefined && algorithm === `ecdsa-sha2-${curve}` && point[0] === 4 && point.length === 1 + 2 * coordinate
      result = ok ? { type: 'ecdsa', bits } : undefined
    } else if (algorithm === 'ssh-ed25519') {
      result = reader.string().length === 32 ? { type: 'ed25519', bits: 256 } : undefined
    }
    return result && reader.done ? result : undefined
  } catch {
    return undefined
  }
}

/**
 * Parses an OpenSSH public key line (`ssh-ed25519 AAAA… comment`), surrounding white space
 * ignored. Undefined when it is no valid key of a supported algorithm (GitLab's `valid?` false).
 */
export function parseSshPublicKey(text: string): SshPublicKey | undefined {
  const [algorithm, data] = text.trim().split(/\s+/)
  if (!algorithm || !data || !SUPPORTED_SSH_ALGORITHMS.includes(algorithm)) return undefined
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) return undefined
  let blob: Uint8Array
  try {
    blob = base64ToUint8Array(data)
  } catch {
    return undefined
  }
  const decoded = decodeBlob(algorithm, blob)
  if (!decoded) return undefined
  const fingerprint = Array.from(md5(blob), (b) => b.toString(16).padStart(2, '0')).join(':')
  const fingerprintSha256 = uint8ArrayToBase64(sha256(blob)).replace(/=+$/, '')
  return { ...decoded, algorithm, fingerprint, fingerprintSha256 }
}
