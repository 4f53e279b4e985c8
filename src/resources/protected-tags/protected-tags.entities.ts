/**
 * The protected tag entity. gitlab: lib/api/entities/protected_tag.rb,
 * lib/api/entities/protected_ref_access.rb (13.12 CE: a role and its words; EE adds `user_id`
 * and `group_id`).
 * @module
 */
import { humanAccessLevel } from '../../rules/protected-refs.js'
import type { ProtectedTagRecord, TagCreateAccessLevel } from './protected-tags.tables.js'

/** `ProtectedRefAccess` (CE): `{access_level, access_level_description}`. */
function ProtectedRefAccess(access: TagCreateAccessLevel) {
  return { access_level: access.access_level, access_level_description: humanAccessLevel(access.access_level) }
}

/** `ProtectedTag`: `{name, create_access_levels}`, every protected tag answer. */
export function ProtectedTag(tag: ProtectedTagRecord) {
  return { name: tag.name, create_access_levels: tag.create_access_levels.map(ProtectedRefAccess) }
}
