/**
 * The badges table: project and group badges (`badges` rows of type `ProjectBadge` or
 * `GroupBadge`). gitlab: db/structure.sql (`badges`), app/models/badge.rb,
 * app/models/badges/project_badge.rb, app/models/badges/group_badge.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A badge of a project (`project_id` set) or of a group (`group_id` set). */
export interface BadgeRecord extends Row {
  /** GitLab's STI column: `ProjectBadge` or `GroupBadge`. */
  type: 'ProjectBadge' | 'GroupBadge'
  project_id: number | null
  group_id: number | null
  /** Optional name (`?name=` filters the list by it). */
  name: string | null
  /** Where the badge links to; may hold placeholders such as `%{project_path}`. */
  link_url: string
  /** The badge image's URL; may hold placeholders. */
  image_url: string
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    badges: BadgeRecord
  }
}

/** The table and its indexes: badges by project and by group. */
export const badgeTables = {
  badges: table<BadgeRecord>(['project_id', 'group_id']),
}
