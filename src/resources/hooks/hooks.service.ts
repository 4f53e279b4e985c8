/**
 * Project hooks: lookup, the model's validations and the writes, as GitLab 13.12's `ProjectHook`.
 * Column defaults (db/structure.sql `web_hooks`): push_events true, every other trigger false,
 * enable_ssl_verification true. gitlab: app/models/hooks/web_hook.rb, project_hook.rb,
 * lib/api/project_hooks.rb.
 * @module
 */
import { apiMessage, recordNotFound } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { PROJECT_HOOK_EVENT_FLAGS, type ProjectHookFlag, type ProjectHookRecord } from './hooks.tables.js'

/** What a client sets on a project hook (`project_hook_properties` of lib/api/project_hooks.rb). */
export type ProjectHookAttributes = Partial<Record<ProjectHookFlag | 'enable_ssl_verification', boolean>> & {
  url?: string
  token?: string
  push_events_branch_filter?: string
}

/** The project's hooks, in id order (`user_project.hooks`). */
export function listProjectHooks(db: Db, project: ProjectRecord): ProjectHookRecord[] {
  return db.tables.project_hooks.where('project_id', project.id).sort((a, b) => a.id - b.id)
}

/**
 * `user_project.hooks.find(id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}` for a hook of another project or none.
 */
export function findProjectHook(db: Db, project: ProjectRecord, id: number): ProjectHookRecord {
  const hook = Number.isSafeInteger(id) ? db.tables.project_hooks.get(id) : undefined
  if (!hook || hook.project_id !== project.id) throw recordNotFound()
  return hook
}

/**
 * `validates :url, presence: true, public_url: …`: an absolute http(s) URL with a host. Local
 * addresses are allowed (fakelab runs as if `allow_local_requests_from_web_hooks_and_services` were
 * on: docs/spec-gaps.md).
 */
function validUrl(url: string): boolean {
  if (url.trim() === '') return false
  try {
    const parsed = new URL(url)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
  } catch {
    return false
  }
}

/** `BranchFilterValidator` (13.12): a filter, with its `*`s taken out, must be a valid branch name. */
function validBranchFilter(filter: string): boolean {
  if (filter === '') return true
  const name = filter.replace(/\*/g, 'x')
  return !/(^[./]|\/\/|\.\.|[\s~^:?[\\\x00-\x1f\x7f]|@\{|\.lock$|\/$|\.$)/.test(name)
}

function validate(values: { url: string; push_events_branch_filter: string | null }): void {
  // gitlab: lib/api/project_hooks.rb: `error!("Invalid url given", 422)`, then the branch filter's.
  if (!validUrl(values.url)) throw apiMessage(422, 'Invalid url given')
  if (values.push_events_branch_filter !== null && !validBranchFilter(values.push_events_branch_filter)) throw apiMessage(422, 'Invalid branch filter given')
}

/**
 * `user_project.hooks.new(params).save`.
 * @throws ApiError 422 `Invalid url given` / `Invalid branch filter given`.
 */
export function createProjectHook(db: Db, project: ProjectRecord, attrs: ProjectHookAttributes & { url: string }, now: string): ProjectHookRecord {
  const flags = Object.fromEntries(PROJECT_HOOK_EVENT_FLAGS.map((flag) => [flag, attrs[flag] ?? flag === 'push_events'])) as Record<ProjectHookFlag, boolean>
  const values = {
    project_id: project.id,
    url: attrs.url,
    token: attrs.token ?? null,
    enable_ssl_verification: attrs.enable_ssl_verification ?? true,
    repository_update_events: false,
    push_events_branch_filter: attrs.push_events_branch_filter ?? null,
    ...flags,
    created_at: now,
    updated_at: now,
  }
  validate(values)
  return db.tables.project_hooks.insert(values)
}

/**
 * `hook.update(params)`: the given attributes over the stored ones; nothing changes on failure.
 * @throws ApiError 422 as {@link createProjectHook}.
 */
export function updateProjectHook(db: Db, hook: ProjectHookRecord, attrs: ProjectHookAttributes, now: string): ProjectHookRecord {
  const patch: Partial<ProjectHookRecord> = {}
  for (const flag of [...PROJECT_HOOK_EVENT_FLAGS, 'enable_ssl_verification'] as const) if (attrs[flag] !== undefined) patch[flag] = attrs[flag]
  if (attrs.url !== undefined) patch.url = attrs.url
  if (attrs.token !== undefined) patch.token = attrs.token
  if (attrs.push_events_branch_filter !== undefined) patch.push_events_branch_filter = attrs.push_events_branch_filter
  validate({ url: patch.url ?? hook.url, push_events_branch_filter: patch.push_events_branch_filter ?? hook.push_events_branch_filter })
  const changed = (Object.keys(patch) as (keyof ProjectHookRecord)[]).some((key) => patch[key] !== hook[key])
  return changed ? db.tables.project_hooks.update(hook.id, { ...patch, updated_at: now }) : hook
}

/** `WebHooks::DestroyService`: the hook and its logs. */
export function deleteProjectHook(db: Db, hook: ProjectHookRecord): void {
  for (const log of db.tables.web_hook_logs.where('web_hook_id', hook.id)) if (log.hook_kind === 'project') db.tables.web_hook_logs.delete(log.id)
  db.tables.project_hooks.delete(hook.id)
}
