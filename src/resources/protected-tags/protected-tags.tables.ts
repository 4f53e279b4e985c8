/**
 * The protected tags table. gitlab: db/structure.sql (`protected_tags`,
 * `protected_tag_create_access_levels`, embedded here as one array per tag).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** One `ProtectedTag::CreateAccessLevel`: a role (CE has no user or group entries). */
export interface TagCreateAccessLevel {
  /** 0 No one, 30 Developers + Maintainers, 40 Maintainers (`ProtectedRefAccess::HUMAN_ACCESS_LEVELS`). */
  access_level: number
}

/** A protected tag of a project: an exact name or a pattern with `*` wildcards (`release-*`). gitlab: app/models/protected_tag.rb */
export interface ProtectedTagRecord extends Row {
  project_id: number
  name: string
  create_access_levels: TagCreateAccessLevel[]
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    protected_tags: ProtectedTagRecord
  }
}

/** The table and its index: protected tags by project. */
export const protectedTagTables = {
  protected_tags: table<ProtectedTagRecord>(['project_id']),
}
