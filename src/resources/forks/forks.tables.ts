/**
 * The forks area's table: one row per fork, naming the project it was forked from (GitLab's
 * `fork_network_members`, without the network: fakelab keeps only the direct link, which is what
 * `forked_from_project`, `forks_count` and `GET /projects/:id/forks` read). gitlab: db/structure.sql
 * `fork_network_members` (13.12), app/models/fork_network_member.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A fork link: `project_id` was forked from `forked_from_project_id`. */
export interface ForkLinkRecord extends Row {
  project_id: number
  forked_from_project_id: number
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    fork_network_members: ForkLinkRecord
  }
}

/** The table, indexed both ways. */
export const forkTables = {
  fork_network_members: table<ForkLinkRecord>(['project_id', 'forked_from_project_id']),
}
