/**
 * Custom attributes of users, groups and projects: administrators' key/value notes on them.
 * gitlab: db/structure.sql (`user_custom_attributes`, `group_custom_attributes`,
 * `project_custom_attributes`), app/models/*_custom_attribute.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** What a custom attribute belongs to. */
export type CustomAttributeOwner = 'user' | 'group' | 'project'

/** One custom attribute: a key unique per owner, and its value. */
export interface CustomAttributeRecord extends Row {
  owner_type: CustomAttributeOwner
  /** The user's, group's or project's id. */
  owner_id: number
  key: string
  value: string
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    custom_attributes: CustomAttributeRecord
  }
}

/** The table, by owner id. */
export const customAttributeTables = {
  custom_attributes: table<CustomAttributeRecord>(['owner_id']),
}
