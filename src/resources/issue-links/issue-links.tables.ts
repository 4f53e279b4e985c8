/**
 * The issue links area's table: "issue `source_id` relates to / blocks issue `target_id`". One
 * row per pair, whichever way round (`validates :source, uniqueness: { scope: :target_id }` and
 * `check_opposite_relation`). `is_blocked_by` is never stored: it is a `blocks` link with source
 * and target swapped (EE `IssueLinks::CreateService#set_link_type`). Both keys cascade when an
 * issue is deleted (declared in the area's `cascade`, as they are not named `issue_id`).
 * gitlab: db/migrate/*_create_issue_links_table.rb, app/models/issue_link.rb, ee/app/models/ee/issue_link.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** The link types a stored link has (`IssueLink.link_types`). */
export type StoredLinkType = 'relates_to' | 'blocks'

/** A link between two issues, which may be in different projects. */
export interface IssueLinkRecord extends Row {
  /** The issue the link was made from (for `blocks`, the blocking one). */
  source_id: number
  /** The issue it was made to (for `blocks`, the blocked one). */
  target_id: number
  link_type: StoredLinkType
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    issue_links: IssueLinkRecord
  }
}

/** The table and its indexes: by either end. */
export const issueLinkTables = {
  issue_links: table<IssueLinkRecord>(['source_id', 'target_id']),
}
