/**
 * GitLab's `Hook` entity, shared by system hooks (their whole answer) and project hooks (the start
 * of `ProjectHook`): the hooks area and the system hooks area both present it, so it lives here,
 * below both. gitlab: lib/api/entities/hook.rb (13.12: id, url, created_at, push_events,
 * tag_push_events, merge_requests_events, repository_update_events, enable_ssl_verification).
 * @module
 */

/** The columns of a hook (project or system) that GitLab's `Hook` entity shows. */
export interface HookColumns {
  readonly id: number
  readonly url: string
  readonly created_at: string
  readonly push_events: boolean
  readonly tag_push_events: boolean
  readonly merge_requests_events: boolean
  readonly repository_update_events: boolean
  readonly enable_ssl_verification: boolean
}

/** GitLab's `Hook` entity, in its field order: a system hook's answer, and the start of a project hook's. */
export function Hook(hook: HookColumns) {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    push_events: hook.push_events,
    tag_push_events: hook.tag_push_events,
    merge_requests_events: hook.merge_requests_events,
    repository_update_events: hook.repository_update_events,
    enable_ssl_verification: hook.enable_ssl_verification,
  }
}
