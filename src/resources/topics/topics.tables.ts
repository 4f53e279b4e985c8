/**
 * The topics table: the instance's project topics (GitLab 14.5 and later: see `index.ts`).
 * gitlab: db/structure.sql (`topics`), app/models/projects/topic.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'

/** A project topic: its slug (`name`), title and description. */
export interface TopicRecord extends Row {
  name: string
  title: string
  description: string | null
}

declare module '../../db/schema.js' {
  interface Tables {
    topics: TopicRecord
  }
}

/** The table; no index (an instance has few topics). */
export const topicTables = {
  topics: table<TopicRecord>([]),
}
