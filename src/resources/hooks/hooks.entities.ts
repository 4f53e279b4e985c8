/**
 * The project hook entity. gitlab: lib/api/entities.rb `Hook`, `ProjectHook` (13.12: `Hook` exposes
 * id, url, created_at, push_events, tag_push_events, merge_requests_events, repository_update_events,
 * enable_ssl_verification; `ProjectHook` adds project_id, issues_events, confidential_issues_events,
 * note_events, confidential_note_events, pipeline_events, wiki_page_events, deployment_events,
 * job_events, releases_events, push_events_branch_filter). The token is never shown.
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { ProjectHookRecord } from './hooks.tables.js'

/** The columns of a hook (project or system) that GitLab's `Hook` entity shows. */
export type HookColumns = Pick<ProjectHookRecord, 'id' | 'url' | 'created_at' | 'push_events' | 'tag_push_events' | 'merge_requests_events' | 'repository_update_events' | 'enable_ssl_verification'>

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

/** GitLab's `ProjectHook` entity (`Hook`, then the project hook's own fields): every project hook response. */
export function ProjectHook(hook: ProjectHookRecord, _ctx?: PresentCtx) {
  return {
    ...Hook(hook),
    project_id: hook.project_id,
    issues_events: hook.issues_events,
    confidential_issues_events: hook.confidential_issues_events,
    note_events: hook.note_events,
    confidential_note_events: hook.confidential_note_events,
    pipeline_events: hook.pipeline_events,
    wiki_page_events: hook.wiki_page_events,
    deployment_events: hook.deployment_events,
    job_events: hook.job_events,
    releases_events: hook.releases_events,
    push_events_branch_filter: hook.push_events_branch_filter,
  }
}
