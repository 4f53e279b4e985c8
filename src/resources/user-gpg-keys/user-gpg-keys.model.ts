/**
 * GPG keys as `GpgKey` validates them: the armour's format, then what the key itself says (its
 * fingerprint and primary key id, read by the openpgp library, loaded on first use), unique
 * across every user. gitlab: app/models/gpg_key.rb, lib/gitlab/gpg.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import { ValidationMessage } from '../../core/errors.js'

/** `GpgKey`'s format check of the armour. */
const ARMOUR = /^-----BEGIN PGP PUBLIC KEY BLOCK-----((?!-----BEGIN)[\s\S])+-----END PGP PUBLIC KEY BLOCK-----\s*$/
/** Its message. */
const ARMOUR_MESSAGE = "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'"

/** What the key says of itself, or null when it does not parse as an OpenPGP public key. */
export interface ParsedGpgKey {
  /** 40 upper-case hex digits. */
  fingerprint: string
  /** 16 upper-case hex digits. */
  primaryKeyid: string
}

/**
 * Reads the fingerprint and primary key id of an armoured public key with openpgp (imported here,
 * on first use). Never throws: a key that does not parse, or a private key, is null.
 * Source: gitlab: lib/gitlab/gpg.rb (`fingerprints_from_key`, `primary_keyids_from_key`).
 */
export async function parseGpgKey(armoured: string): Promise<ParsedGpgKey | null> {
  if (!ARMOUR.test(armoured.trim())) return null
  try {
    const openpgp = await import('openpgp')
    const key = await openpgp.readKey({ armoredKey: armoured.trim() })
    if (key.isPrivate()) return null
    return { fingerprint: key.getFingerprint().toUpperCase(), primaryKeyid: key.getKeyID().toHex().toUpperCase() }
  } catch {
    return null
  }
}

/**
 * `GpgKey`'s validations in declaration order: `key` (present, unique, the armour's format), then
 * `fingerprint` and `primary_keyid` (present, unique), only when `key` has no error. Empty when valid.
 */
export function validateGpgKey(db: Db, key: string, parsed: ParsedGpgKey | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (name: string, message: string) => (errors[name] ??= []).push(message)
  const text = key.trim()
  if (text === '') add('key', ValidationMessage.blank)
  else {
    if (db.tables.gpg_keys.all().some((k) => k.key === text)) add('key', ValidationMessage.taken)
    if (!ARMOUR.test(text)) add('key', ARMOUR_MESSAGE)
  }
  // gitlab: the fingerprint and key id are checked only `unless: -> { errors.has_key?(:key) }`.
  if (errors.key) return errors
  if (!parsed) {
    add('fingerprint', ValidationMessage.blank)
    add('primary_keyid', ValidationMessage.blank)
  } else {
    if (db.tables.gpg_keys.where('fingerprint', parsed.fingerprint).length > 0) add('fingerprint', ValidationMessage.taken)
    if (db.tables.gpg_keys.all().some((k) => k.primary_keyid === parsed.primaryKeyid)) add('primary_keyid', ValidationMessage.taken)
  }
  return errors
}
