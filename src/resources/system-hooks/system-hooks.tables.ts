/**
 * The system hooks table: the instance's hooks (GitLab's `web_hooks` rows of type `SystemHook`).
 * The collaboration area delivers to them (it reads them through `system-hooks.public.ts`).
 * gitlab: db/structure.sql (`web_hooks`), app/models/hooks/system_hook.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A system hook: a URL, its secret token, the events it receives, whether TLS is verified. */
export interface SystemHookRecord extends Row {
  url: string
  /** Sent as `X-Gitlab-Token`; never presented. Null for none. */
  token: string | null
  push_events: boolean
  tag_push_events: boolean
  merge_requests_events: boolean
  repository_update_events: boolean
  enable_ssl_verification: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    system_hooks: SystemHookRecord
  }
}

/** The table. */
export const systemHookTables = {
  system_hooks: table<SystemHookRecord>(),
}
