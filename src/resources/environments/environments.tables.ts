/**
 * The environments table. gitlab: db/structure.sql (`environments`), app/models/environment.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** An environment's state (13.12's state machine: `available`, `stopped`). */
export type EnvironmentState = 'available' | 'stopped'

/** A deployment environment of a project. */
export interface EnvironmentRecord extends Row {
  project_id: number
  name: string
  /** `Environment#generate_slug`: set once at creation, never changed. */
  slug: string
  external_url: string | null
  state: EnvironmentState
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    environments: EnvironmentRecord
  }
}

/** The table and its index: environments by project. */
export const environmentTables = {
  environments: table<EnvironmentRecord>(['project_id']),
}
