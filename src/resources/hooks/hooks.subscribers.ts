/**
 * The hooks area's subscriptions to the domain-event channel (`rules/events.ts`): each fact a
 * project's hooks listen for becomes one logged delivery per hook whose trigger is on, POSTed after
 * the request's commit (`hooks.delivery.ts`). The selection is GitLab's `project.execute_hooks(data,
 * hooks_scope)` (`ProjectHook.hooks_for(scope)`), with the scope the service passes:
 * `issue_hooks`/`confidential_issue_hooks`, `merge_request_hooks`, `note_hooks`/`confidential_note_hooks`,
 * `push_hooks` (with the hook's branch filter), `tag_push_hooks`, `pipeline_hooks` (on every status
 * change, `Ci::Pipeline` `after_transition any => any`); system hooks get the push, tag push and
 * merge request payloads too (`Project#execute_hooks` → `SystemHooksService`), a `repository_update`
 * per push (`PostReceive`), and a hook's test (`system_hook_test`); `wiki_page_hooks`; every system
 * hook gets the membership and project changes (`member`, `project` facts: `user_add_to_team`…,
 * `project_create`…, hooks.system-payloads.ts). Imported by the area's `index.ts` so the
 * subscriptions hold from the start. gitlab: app/models/project.rb `execute_hooks`,
 * app/services/issuable_base_service.rb `execute_hooks`, app/services/notes/post_process_service.rb,
 * app/services/git/base_hooks_service.rb, app/models/ci/pipeline.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { eventCtx, subscribe, type DomainEventHeader } from '../../rules/events.js'
import { repositoryOf } from '../repository/repository.public.js'
import { environmentById } from '../environments/environments.public.js'
import { pipelinesOfProject } from '../runners/runners.public.js'
import { systemHooks, type SystemHookRecord } from '../system-hooks/system-hooks.public.js'
import { queueDelivery } from './hooks.delivery.js'
import { groupSystemPayload, keySystemPayload, memberSystemPayload, projectSystemPayload, userSystemPayload } from './hooks.system-payloads.js'
import { deploymentPayload, issuablePayload, jobPayload, notePayload, pipelinePayload, pushPayload, releasePayload, repositoryUpdatePayload, wikiPagePayload } from './hooks.payloads.js'
import type { ProjectHookFlag, ProjectHookRecord } from './hooks.tables.js'

/**
 * Whether a branch filter lets `branch` through: none or blank lets all; otherwise the exact name,
 * or a wildcard where `*` matches any run of characters (`RefMatcher`, 13.12).
 */
function branchFilterMatches(filter: string | null, branch: string): boolean {
  if (filter === null || filter.trim() === '') return true
  if (!filter.includes('*')) return filter === branch
  const pattern = filter.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')
  return new RegExp(`^${pattern}$`).test(branch)
}

/** The system hook scopes (`SystemHook::TRIGGERS`, 13.12): the only project hook scopes system hooks also receive. */
type SystemFlag = 'push_events' | 'tag_push_events' | 'merge_requests_events' | 'repository_update_events'

/** Queues `body` for each system hook with `flag` on: trigger `system_hooks`, `X-Gitlab-Event: System Hook` (WebHookService's header from the hook name). */
function fireSystem(db: Db, hooks: readonly SystemHookRecord[], at: string, body: unknown): void {
  for (const hook of hooks) queueDelivery(db, { id: hook.id, kind: 'system', url: hook.url, token: hook.token }, 'system_hooks', 'System Hook', body, at)
}

/**
 * `project.execute_hooks(data, scope)`: logs and queues `payload` for each hook of `project` whose
 * `flag` is on (and `also` accepts), then, as `Project#execute_hooks` calls
 * `SystemHooksService#execute_hooks(data, scope)`, for each system hook with `systemFlag` on.
 */
function fire(db: Db, project: ProjectRecord, flag: ProjectHookFlag, trigger: string, event: string, header: DomainEventHeader, payload: () => unknown, also: (hook: ProjectHookRecord) => boolean = () => true, systemFlag?: SystemFlag): void {
  const hooks = db.tables.project_hooks.where('project_id', project.id).filter((hook) => hook[flag] && also(hook)).sort((a, b) => a.id - b.id)
  const system = systemFlag ? systemHooks(db, systemFlag) : []
  if (hooks.length === 0 && system.length === 0) return
  const body = payload()
  for (const hook of hooks) queueDelivery(db, { id: hook.id, kind: 'project', url: hook.url, token: hook.token }, trigger, event, body, header.at)
  fireSystem(db, system, header.at, body)
}

subscribe('issue', (db, event) => {
  const project = db.tables.projects.get(event.issue.project_id)
  if (!project) return
  const confidential = event.issue.confidential
  fire(db, project, confidential ? 'confidential_issues_events' : 'issues_events', confidential ? 'confidential_issue_hooks' : 'issue_hooks', confidential ? 'Confidential Issue Hook' : 'Issue Hook', event,
    () => issuablePayload(eventCtx(db, event), project, 'issue', event.issue, event.before, event.action))
})

subscribe('merge_request', (db, event) => {
  const project = db.tables.projects.get(event.mergeRequest.project_id)
  if (!project) return
  fire(db, project, 'merge_requests_events', 'merge_request_hooks', 'Merge Request Hook', event,
    () => issuablePayload(eventCtx(db, event), project, 'merge_request', event.mergeRequest, event.before, event.action, repositoryOf(db, db.tables.projects.get(event.mergeRequest.source_project_id) ?? project)),
    undefined, 'merge_requests_events')
})

subscribe('note', (db, event) => {
  const project = db.tables.projects.get(event.note.project_id)
  if (!project || event.note.system) return
  const confidential = event.note.confidential === true
  fire(db, project, confidential ? 'confidential_note_events' : 'note_events', confidential ? 'confidential_note_hooks' : 'note_hooks', confidential ? 'Confidential Note Hook' : 'Note Hook', event,
    () => notePayload(eventCtx(db, event), project, event.note, repositoryOf(db, project)))
})

subscribe('push', (db, event) => {
  for (const update of event.refs) {
    const tag = update.ref.startsWith('refs/tags/')
    const branch = update.ref.replace(/^refs\/heads\//, '')
    fire(db, event.project, tag ? 'tag_push_events' : 'push_events', tag ? 'tag_push_hooks' : 'push_hooks', tag ? 'Tag Push Hook' : 'Push Hook', event,
      () => pushPayload(eventCtx(db, event), event.project, update, event.repository, event.previous),
      (hook) => tag || branchFilterMatches(hook.push_events_branch_filter, branch), tag ? 'tag_push_events' : 'push_events')
  }
  // PostReceive#after_project_changes_hooks: one repository_update for the whole push, system hooks only.
  const system = systemHooks(db, 'repository_update_events')
  if (event.refs.length > 0 && system.length > 0) fireSystem(db, system, event.at, repositoryUpdatePayload(eventCtx(db, event), event.project, event.refs))
})

subscribe('system_hook_test', (db, event) => {
  // `hook.execute(data, 'system_hooks')`: the test payload to the one hook tested.
  fireSystem(db, [event.hook], event.at, event.data)
})

subscribe('pipeline', (db, event) => {
  const project = db.tables.projects.get(event.pipeline.project_id)
  if (!project) return
  fire(db, project, 'pipeline_events', 'pipeline_hooks', 'Pipeline Hook', event,
    () => pipelinePayload(eventCtx(db, event), project, event.pipeline, repositoryOf(db, project)))
})

// `WikiPages::BaseService#execute_hooks`: `project.execute_hooks(data, :wiki_page_hooks)` on create, update and delete.
subscribe('wiki_page', (db, event) => {
  fire(db, event.project, 'wiki_page_events', 'wiki_page_hooks', 'Wiki Page Hook', event,
    () => wikiPagePayload(eventCtx(db, event), event.project, event.page, event.title, event.message, event.action))
})

subscribe('release', (db, event) => {
  // 13.12 sends release hooks on create and update only (`release.execute_hooks`); a delete sends none.
  if (event.action === 'delete') return
  const project = db.tables.projects.get(event.release.project_id)
  if (!project) return
  fire(db, project, 'releases_events', 'release_hooks', 'Release Hook', event,
    () => releasePayload(eventCtx(db, event), project, event.release, event.links, event.action, repositoryOf(db, project)))
})

subscribe('job', (db, event) => {
  // BuildHooksWorker: `build.execute_hooks` → `project.execute_hooks(build_data, :job_hooks)`.
  const project = db.tables.projects.get(event.job.project_id)
  const pipeline = pipelinesOfProject(db, event.job.project_id).find((p) => p.id === event.job.pipeline_id)
  if (!project || !pipeline) return
  fire(db, project, 'job_events', 'job_hooks', 'Job Hook', event,
    () => jobPayload(eventCtx(db, event), project, event.job, pipeline, repositoryOf(db, project)))
})

subscribe('deployment', (db, event) => {
  // Deployment's `after_transition any => [:running, :success, :failed, :canceled]` →
  // `Deployments::ExecuteHooksWorker` → `project.execute_hooks(data, :deployment_hooks)`.
  const d = event.deployment
  if (!['running', 'success', 'failed', 'canceled'].includes(d.status)) return
  const project = db.tables.projects.get(d.project_id)
  const env = environmentById(db, d.environment_id)
  if (!project || !env) return
  fire(db, project, 'deployment_events', 'deployment_hooks', 'Deployment Hook', event,
    () => deploymentPayload(eventCtx(db, event), project, d, env.name, event.at, repositoryOf(db, project)))
})

// Member#post_create_hook / post_update_hook / post_destroy_hook: `SystemHooksService#execute_hooks_for(member, event)`
// to every system hook (no project hook: member events are group hooks', a paid feature, in 13.12).
subscribe('member', (db, event) => {
  const hooks = systemHooks(db)
  if (hooks.length === 0) return
  const body = memberSystemPayload(db, event)
  if (body !== null) fireSystem(db, hooks, event.at, body)
})

// Projects::{Create,Update,AfterRename,Transfer,Destroy}Service: `project_<event>` to every system hook.
subscribe('project', (db, event) => {
  const hooks = systemHooks(db)
  if (hooks.length > 0) fireSystem(db, hooks, event.at, projectSystemPayload(db, event))
})

// Group#post_create_hook, path_changed_hook, post_destroy_hook: `group_<event>` to every system hook.
subscribe('group', (db, event) => {
  const hooks = systemHooks(db)
  if (hooks.length > 0) fireSystem(db, hooks, event.at, groupSystemPayload(event))
})

// User#post_create_hook, username_changed_hook, post_destroy_hook: `user_<event>` to every system hook.
subscribe('user', (db, event) => {
  const hooks = systemHooks(db)
  if (hooks.length > 0) fireSystem(db, hooks, event.at, userSystemPayload(event))
})

// Key#post_create_hook, post_destroy_hook (a user's SSH key): `key_<event>` to every system hook.
subscribe('key', (db, event) => {
  const hooks = systemHooks(db)
  if (hooks.length > 0) fireSystem(db, hooks, event.at, keySystemPayload(db, event))
})
