/**
 * The project hook entity. gitlab: lib/api/entities.rb `Hook`, `ProjectHook` (13.12: `Hook` exposes
 * id, url, created_at, push_events, tag_push_events, merge_requests_events, repository_update_events,
 * enable_ssl_verification; `ProjectHook` adds project_id, issues_events, confidential_issues_events,
 * note_events, confidential_note_events, pipeline_events, wiki_page_events, deployment_events,
 * job_events, releases_events, push_events_branch_filter). The token is never shown.
 * @module
 */
import { Hook } from '../../entities/hook.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { ProjectHookRecord } from './hooks.tables.js'

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
