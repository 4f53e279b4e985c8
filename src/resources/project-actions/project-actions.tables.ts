/**
 * The project-actions area's table: who starred which project, and since when (GitLab's
 * `users_star_projects`). gitlab: db/structure.sql `users_star_projects` (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A star: `user_id` starred `project_id` at `created_at`. */
export interface UserStarProjectRecord extends Row {
  project_id: number
  user_id: number
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    users_star_projects: UserStarProjectRecord
  }
}

/** The table, indexed by project and by user. */
export const projectActionTables = {
  users_star_projects: table<UserStarProjectRecord>(['project_id', 'user_id']),
}
