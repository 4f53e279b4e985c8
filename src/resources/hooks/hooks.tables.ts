/**
 * The hooks area's tables: project webhooks (`web_hooks` rows of type `ProjectHook`) and the log of
 * every delivery made or held (`web_hook_logs`). gitlab: db/structure.sql (`web_hooks`,
 * `web_hook_logs`, 13.12), app/models/hooks/project_hook.rb, app/models/hooks/web_hook_log.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** The triggers a project hook subscribes to, as its boolean columns (`ProjectHook::TRIGGERS`, 13.12). */
export const PROJECT_HOOK_EVENT_FLAGS = [
  'push_events',
  'tag_push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'note_events',
  'confidential_note_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'releases_events',
] as const

/** One of {@link PROJECT_HOOK_EVENT_FLAGS}. */
export type ProjectHookFlag = (typeof PROJECT_HOOK_EVENT_FLAGS)[number]

/** A project webhook: its URL, secret token, the events it fires on, and the branch filter of push events. */
export interface ProjectHookRecord extends Row, Record<ProjectHookFlag, boolean> {
  project_id: number
  url: string
  /** The secret sent as `X-Gitlab-Token`; never shown by the API. Null for none. */
  token: string | null
  enable_ssl_verification: boolean
  repository_update_events: boolean
  /** Branch name or wildcard push events are limited to; null for every branch. */
  push_events_branch_filter: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/**
 * One delivery of a hook: what was (or would be) sent and what came back, as GitLab's
 * `WebHookLog`. `response_status` is the HTTP status as a string, `internal error` when the request
 * failed before an answer (GitLab's wording), `pending` while the request is in flight and `paused`
 * while delivery is paused (fakelab's).
 */
export interface WebHookLogRecord extends Row {
  /** The hook's id; `hook_kind` says which table. */
  web_hook_id: number
  /** `project` for a project hook, `system` for a system hook (delivered through the same module). */
  hook_kind: 'project' | 'system'
  /** GitLab's hook name: `push_hooks`, `tag_push_hooks`, `issue_hooks`, `merge_request_hooks`, `note_hooks`, `pipeline_hooks`... */
  trigger: string
  url: string
  request_headers: Record<string, string>
  request_data: unknown
  response_status: string
  response_headers: Record<string, string>
  response_body: string
  /** Seconds, as GitLab's `execution_duration`. */
  execution_duration: number
  internal_error_message: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** Whether the store's hook deliveries are held (`paused`) or sent: one row, id 1; no row is `live`. */
export interface WebHookDeliveryRecord extends Row {
  paused: boolean
}

declare module '../../db/schema.js' {
  interface Tables {
    project_hooks: ProjectHookRecord
    web_hook_logs: WebHookLogRecord
    web_hook_delivery: WebHookDeliveryRecord
  }
}

/** The tables and their indexes: project hooks by project, logs by hook. */
export const hookTables = {
  project_hooks: table<ProjectHookRecord>(['project_id']),
  web_hook_logs: table<WebHookLogRecord>(['web_hook_id']),
  web_hook_delivery: table<WebHookDeliveryRecord>(),
}
