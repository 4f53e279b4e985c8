/**
 * The `deploy_keys_projects` table: which projects a deploy key (a `keys` row of type `DeployKey`)
 * is enabled in, and whether it may push there. gitlab: db/structure.sql (`deploy_keys_projects`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A deploy key enabled in a project. */
export interface DeployKeysProjectRecord extends Row {
  deploy_key_id: number
  project_id: number
  can_push: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    deploy_keys_projects: DeployKeysProjectRecord
  }
}

/** The table and its indexes: by project and by key. */
export const deployKeyTables = {
  deploy_keys_projects: table<DeployKeysProjectRecord>(['project_id', 'deploy_key_id']),
}
