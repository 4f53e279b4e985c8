/**
 * The `Key` model's rules shared by user SSH keys and deploy keys: sanitising the key line and the
 * validations (`title`, `key`, `fingerprint`) with Rails' messages, keyed by attribute.
 * gitlab: app/models/key.rb, lib/gitlab/ssh_public_key.rb (13.12).
 * @module
 */
import { apiMessage } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { KeyRecord } from './user-keys.tables.js'
import { parseSshPublicKey, SUPPORTED_SSH_ALGORITHMS, type SshPublicKey } from '../../rules/ssh-public-key.js'

/**
 * `Gitlab::SSHPublicKey.sanitize`: a valid key as `<algorithm> <blob>[ <first comment word>]`,
 * anything else stripped of surrounding white space.
 */
function sanitizeKey(text: string): string {
  const stripped = text.trim()
  const parts = stripped.split(/\s+/)
  if (!parseSshPublicKey(stripped) || parts.length < 2) return stripped
  return parts.slice(0, 3).join(' ')
}

/** A key's attributes once validated: the sanitised line and the parsed key. */
export interface ValidKey {
  key: string
  parsed: SshPublicKey
}

/**
 * `Key` validations in declaration order: `title` present and ≤ 255, `key` present, ≤ 5000 and
 * starting with a supported algorithm, `fingerprint` generated and unique among all keys.
 * @returns the errors by attribute (Rails' messages; empty when valid) and the valid key, if any.
 */
export function validateKey(db: Db, title: string, text: string): { errors: Record<string, string[]>; valid?: ValidKey } {
  const errors: Record<string, string[]> = {}
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message)
  if (title.trim() === '') add('title', "can't be blank")
  if (title.length > 255) add('title', 'is too long (maximum is 255 characters)')
  const key = sanitizeKey(text)
  if (key === '') add('key', "can't be blank")
  if (key.length > 5000) add('key', 'is too long (maximum is 5000 characters)')
  if (key !== '' && !SUPPORTED_SSH_ALGORITHMS.some((a) => key.startsWith(a))) add('key', 'is invalid')
  const parsed = parseSshPublicKey(key)
  if (!parsed) add('fingerprint', 'cannot be generated')
  else if (db.tables.keys.where('fingerprint', parsed.fingerprint).length > 0) add('fingerprint', 'has already been taken')
  return Object.keys(errors).length === 0 && parsed ? { errors, valid: { key, parsed } } : { errors }
}

/** A key of any kind (a user's SSH key or a deploy key) by id, if it exists. */
export function keyById(db: Db, id: number): KeyRecord | undefined {
  return db.tables.keys.get(id)
}

/**
 * `KeysFinder` by fingerprint: `SHA256:<base64>` by the SHA256 fingerprint, else an MD5 one
 * (`MD5:` prefix optional, 16 colon-separated hex pairs).
 * @throws ApiError 400 `{"message":"Failed to return the key"}` for anything else (`InvalidFingerprint`).
 */
export function keyByFingerprint(db: Db, fingerprint: string): KeyRecord | undefined {
  if (fingerprint.startsWith('SHA256:')) return db.tables.keys.where('fingerprint_sha256', fingerprint.slice(7))[0]
  const md5 = fingerprint.replace(/^MD5:/, '')
  if (!/^([0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2}$/.test(md5)) throw apiMessage(400, 'Failed to return the key')
  return db.tables.keys.where('fingerprint', md5.toLowerCase())[0]
}
