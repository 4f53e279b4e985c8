/**
 * Runners as GitLab 13.x's `Ci::Runner` model, `RunnerPolicy` and `User#ci_owned_runners` treat
 * them: derived status, ownership, list filters, validations and the writes (update, register,
 * enable in / disable from a project, delete, heartbeat).
 * Source: api-spec.md "Runners"; gitlab-behaviour.md §2; gitlabhq:app/models/ci/runner.rb,
 * app/policies/ci/runner_policy.rb, app/models/user.rb (`ci_owned_runners`),
 * app/finders/ci/runner_jobs_finder.rb, lib/api/ci/runners.rb, lib/api/ci/runner.rb (13.x).
 * @module
 */
import { AccessLevel, groupAccessLevel, projectAccessLevel } from '../../rules/access.js'
import { recordNotFound, validationFailed } from '../../core/errors.js'
import { RunnerValidationMessage } from './runners.messages.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import type { JobRecord, RunnerAccessLevel, RunnerRecord, RunnerType } from './runners.tables.js'

/** `Ci::Runner::ONLINE_CONTACT_TIMEOUT` in 13.10–13.12: contacted within 2 hours is online (ms). */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 60 * 60 * 1000

/** `Ci::Runner::AVAILABLE_TYPES`. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const
/** `Ci::Runner::AVAILABLE_STATUSES` (13.x): the `status` filter and the status part of `scope`. */
export const RUNNER_STATUSES = ['active', 'paused', 'online', 'offline'] as const
/** `Ci::Runner::AVAILABLE_SCOPES`: `scope` of `/runners/all` and `/projects/:id/runners`. */
export const RUNNER_SCOPES = ['specific', 'shared', ...RUNNER_TYPES, ...RUNNER_STATUSES] as const
/** `Ci::Runner.access_levels`. */
export const RUNNER_ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const

/** What a runner list filter can be (a scope, a type or a status). */
export type RunnerScope = (typeof RUNNER_SCOPES)[number]

/**
 * `online?`: contacted within the last 2 hours. null (JSON null) when never contacted, as GitLab's
 * `contacted_at && …` gives nil. `now` is the injected clock's instant (ms).
 */
export function runnerOnline(runner: RunnerRecord, now: number): boolean | null {
  if (runner.contacted_at === null) return null
  return Date.parse(runner.contacted_at) > now - ONLINE_CONTACT_TIMEOUT_MS
}

/** `status` (13.x): `not_connected` when never contacted, else `online`/`offline` when active, else `paused`. */
export function runnerStatus(runner: RunnerRecord, now: number): 'online' | 'offline' | 'paused' | 'not_connected' {
  if (runner.contacted_at === null) return 'not_connected'
  if (!runner.active) return 'paused'
  return runnerOnline(runner, now) ? 'online' : 'offline'
}

/**
 * `Ci::Runner.find(id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord::RecordNotFound; the
 *   `not_found!('Runner')` after it in runners.rb is never reached).
 */
export function findRunner(db: Db, id: number): RunnerRecord {
  const runner = Number.isSafeInteger(id) ? db.tables.runners.get(id) : undefined
  if (!runner) throw recordNotFound()
  return runner
}

/** A runner by its authentication token (`Ci::Runner.find_by_token`), or undefined. */
export function runnerByToken(db: Db, token: string): RunnerRecord | undefined {
  return db.tables.runners.where('token', token)[0]
}

/** Ids of the projects the runner is enabled in, in the order they were linked. */
export function runnerProjectIds(db: Db, runner: RunnerRecord): number[] {
  return db.tables.runner_projects.where('runner_id', runner.id).map((link) => link.project_id)
}

/** Ids of the runner's groups (one for a group runner, none otherwise). */
export function runnerGroupIds(db: Db, runner: RunnerRecord): number[] {
  return db.tables.runner_namespaces.where('runner_id', runner.id).map((link) => link.namespace_id)
}

/**
 * `User#ci_owned_runners` as a predicate: project runners of projects the user maintains
 * (`authorized_projects(MAINTAINER)`, group membership included) and group runners of groups the
 * user maintains directly or through an ancestor (`…self_and_descendants`). Instance runners are
 * never owned. Access levels are worked out once per project and group, so a list costs one pass.
 */
export function ownedBy(db: Db, user: UserRecord, today: string): (runner: RunnerRecord) => boolean {
  // spec-gap: api-spec.md "Maintainer role or higher is needed for project and group level runners";
  // 13.10's `ci_owned_runners` took the group runners of owned groups and their descendants only
  // (app/models/user.rb). The spec names the role for runner detail: Maintainer, here and in `/runners`.
  const projectLevel = memo((id) => {
    const project = db.tables.projects.get(id)
    return project ? projectAccessLevel(db, user, project, today) : AccessLevel.NO_ACCESS
  })
  const groupLevel = memo((id) => {
    const group = db.tables.groups.get(id)
    return group ? groupAccessLevel(db, user, group, today) : AccessLevel.NO_ACCESS
  })
  return (runner) => {
    if (runner.runner_type === 'project_type') return runnerProjectIds(db, runner).some((id) => projectLevel(id) >= AccessLevel.MAINTAINER)
    if (runner.runner_type === 'group_type') return runnerGroupIds(db, runner).some((id) => groupLevel(id) >= AccessLevel.MAINTAINER)
    return false
  }
}

/**
 * The runners {@link ownedBy} accepts, in id order, found from the user's memberships through the
 * store's indexes (members by user, subgroups by parent, projects by namespace, runner links by
 * project and group) instead of testing every runner: `GET /runners` cost grew with the runner
 * table (4 ms at 1,000 runners for a user owning none; issue 13).
 * Candidates are the projects and groups where the user has any access at all: direct members,
 * everything below a group they are a member of, and their personal projects; `ownedBy` then
 * checks the level exactly as before.
 */
export function ownedRunners(db: Db, user: UserRecord, today: string): RunnerRecord[] {
  const owned = ownedBy(db, user, today)
  const groupIds = new Set<number>()
  const projectIds = new Set<number>()
  const pending: number[] = []
  for (const member of db.tables.members.where('user_id', user.id)) {
    if (member.source_type === 'group') pending.push(member.source_id)
    else projectIds.add(member.source_id)
  }
  while (pending.length > 0) {
    const id = pending.pop()!
    if (groupIds.has(id)) continue
    groupIds.add(id)
    for (const child of db.tables.groups.where('parent_id', id)) pending.push(child.id)
  }
  for (const id of groupIds) for (const project of db.tables.projects.where('namespace_id', id)) if (project.namespace_type === 'group') projectIds.add(project.id)
  for (const project of db.tables.projects.where('namespace_id', user.id)) if (project.namespace_type === 'user') projectIds.add(project.id)
  const runnerIds = new Set<number>()
  for (const id of projectIds) for (const link of db.tables.runner_projects.where('project_id', id)) runnerIds.add(link.runner_id)
  for (const id of groupIds) for (const link of db.tables.runner_namespaces.where('namespace_id', id)) runnerIds.add(link.runner_id)
  const runners: RunnerRecord[] = []
  for (const id of [...runnerIds].sort((a, b) => a - b)) {
    const runner = db.tables.runners.get(id)
    if (runner && owned(runner)) runners.push(runner)
  }
  return runners
}

/** `fn` computed once per id. */
function memo(fn: (id: number) => number): (id: number) => number {
  const cache = new Map<number, number>()
  return (id) => {
    let value = cache.get(id)
    if (value === undefined) {
      value = fn(id)
      cache.set(id, value)
    }
    return value
  }
}

/** `RunnerPolicy` `read_runner`/`update_runner`/`assign_runner`: an administrator, or an owned runner. */
export function ownsRunner(db: Db, user: UserRecord | null, runner: RunnerRecord, today: string): boolean {
  if (!user) return false
  return user.admin || ownedBy(db, user, today)(runner)
}

/**
 * `RunnerPolicy` `update_runner`/`delete_runner` and `authenticate_list_runners_jobs!`, which 13.x grants
 * on `owned_runner` (`User#ci_owned_runners`): an administrator, a project runner of a project the
 * user maintains, or a group runner of a group the user owns, directly or through an ancestor
 * (13.x takes the runners of `owned_groups` and their descendants). A group Maintainer may read the
 * group's runner (the spec's role for `GET /runners/:id`, {@link ownsRunner}) but not change it.
 * Source: issue 23 item 1; gitlabhq:app/models/user.rb `ci_owned_runners` (13.x).
 */
export function managesRunner(db: Db, user: UserRecord | null, runner: RunnerRecord, today: string): boolean {
  if (!user) return false
  if (user.admin) return true
  if (runner.runner_type !== 'group_type') return ownedBy(db, user, today)(runner)
  return runnerGroupIds(db, runner).some((id) => {
    const group = db.tables.groups.get(id)
    return group !== undefined && groupAccessLevel(db, user, group, today) >= AccessLevel.OWNER
  })
}

/**
 * `filter_runners(runners, scope)`: one scope, type or status (`Ci::Runner.public_send(scope)`).
 * `shared` = instance runners, `specific` = group and project runners; `offline` excludes runners
 * that never connected (SQL `contacted_at <= deadline` is false for NULL).
 */
export function scopeFilter(scope: RunnerScope, now: number): (runner: RunnerRecord) => boolean {
  switch (scope) {
    case 'specific':
      return (r) => r.runner_type !== 'instance_type'
    case 'shared':
      return (r) => r.runner_type === 'instance_type'
    case 'active':
      return (r) => r.active
    case 'paused':
      return (r) => !r.active
    case 'online':
      return (r) => runnerOnline(r, now) === true
    case 'offline':
      // gitlab: app/models/ci/runner.rb `scope :offline, -> { where(arel_table[:contacted_at].lteq(online_contact_time_deadline)) }`
      return (r) => runnerOnline(r, now) === false
    default:
      return (r) => r.runner_type === scope
  }
}

/** The list filters every runner list shares (each optional). */
export interface RunnerFilters {
  scope?: RunnerScope | undefined
  type?: RunnerType | undefined
  status?: (typeof RUNNER_STATUSES)[number] | undefined
  tag_list?: string[] | undefined
  search?: string | undefined
}

/**
 * Applies `scope`, `type`, `status`, `tag_list` (the runner must carry every tag; ActsAsTaggableOn
 * matches case-insensitively) and `search` (the exact token, or a fuzzy match on the description:
 * `Ci::Runner.search`), keeping id order.
 */
export function filterRunners(runners: RunnerRecord[], filters: RunnerFilters, now: number): RunnerRecord[] {
  const tests: ((r: RunnerRecord) => boolean)[] = []
  if (filters.scope) tests.push(scopeFilter(filters.scope, now))
  if (filters.type) tests.push(scopeFilter(filters.type, now))
  if (filters.status) tests.push(scopeFilter(filters.status, now))
  const wanted = (filters.tag_list ?? []).map((t) => t.toLowerCase())
  if (wanted.length > 0) {
    tests.push((r) => {
      const tags = new Set(r.tag_list.map((t) => t.toLowerCase()))
      return wanted.every((t) => tags.has(t))
    })
  }
  if (filters.search !== undefined && filters.search !== '') {
    const query = filters.search
    const matches = fuzzySearch(query, { useMinimumCharLimit: true })
    tests.push((r) => r.token === query || matches(r.description))
  }
  return runners.filter((r) => tests.every((test) => test(r)))
}

/**
 * `Ci::Runner.owned_or_instance_wide(project_id)`: the project's runners, the runners of its group
 * and that group's ancestors, and every instance runner; id order.
 */
export function projectRunners(db: Db, project: ProjectRecord): RunnerRecord[] {
  const ids = new Set(db.tables.runner_projects.where('project_id', project.id).map((l) => l.runner_id))
  const group = db.projectGroup(project)
  for (const g of group ? db.groupSelfAndAncestors(group) : []) {
    for (const link of db.tables.runner_namespaces.where('namespace_id', g.id)) ids.add(link.runner_id)
  }
  return db.tables.runners.filter((r) => ids.has(r.id) || r.runner_type === 'instance_type')
}

/**
 * `Ci::Runner.belonging_to_group(id, include_ancestors: true)` plus the instance runners; id order.
 */
export function groupRunners(db: Db, groupId: number): RunnerRecord[] {
  // spec-gap: api-spec.md "Project and group lists include shared runners when at least one shared
  // runner exists"; 13.x code gave the group list group runners only (gitlab-behaviour.md §14 item 12).
  const group = db.tables.groups.get(groupId)
  const ids = new Set<number>()
  for (const g of group ? db.groupSelfAndAncestors(group) : []) {
    for (const link of db.tables.runner_namespaces.where('namespace_id', g.id)) ids.add(link.runner_id)
  }
  return db.tables.runners.filter((r) => ids.has(r.id) || r.runner_type === 'instance_type')
}

/** The attributes `PUT /runners/:id` and registration may set (each optional). */
export interface RunnerAttributes {
  description?: string | undefined
  active?: boolean | undefined
  tag_list?: string[] | undefined
  run_untagged?: boolean | undefined
  locked?: boolean | undefined
  access_level?: RunnerAccessLevel | undefined
  maximum_timeout?: number | null | undefined
}

/** ActsAsTaggableOn's tag list: stripped, blanks dropped, duplicates (case-insensitive) dropped. */
function normalizeTags(tags: string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const tag of tags.map((t) => t.trim())) {
    if (tag === '' || seen.has(tag.toLowerCase())) continue
    seen.add(tag.toLowerCase())
    out.push(tag)
  }
  return out
}

/**
 * The model's validations (`tag_constraints`, then `maximum_timeout`), in declaration order.
 * @throws ApiError 400 `{"message":{"tags_list":[…]}}` / `{"message":{"maximum_timeout":[…]}}`.
 */
function validateRunner(values: Pick<RunnerRecord, 'tag_list' | 'run_untagged' | 'maximum_timeout'>): void {
  const errors: Record<string, string[]> = {}
  if (values.tag_list.length === 0 && !values.run_untagged) errors.tags_list = [RunnerValidationMessage.tagsRequired]
  if (values.maximum_timeout !== null && values.maximum_timeout < 600) errors.maximum_timeout = [RunnerValidationMessage.timeoutTooShort]
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/** The given attributes over the runner's, with `tag_list` as the final full set. */
function merged(runner: Pick<RunnerRecord, keyof RunnerAttributes>, attrs: RunnerAttributes) {
  return {
    description: attrs.description ?? runner.description,
    active: attrs.active ?? runner.active,
    tag_list: attrs.tag_list !== undefined ? normalizeTags(attrs.tag_list) : runner.tag_list,
    run_untagged: attrs.run_untagged ?? runner.run_untagged,
    locked: attrs.locked ?? runner.locked,
    access_level: attrs.access_level ?? runner.access_level,
    maximum_timeout: attrs.maximum_timeout !== undefined ? attrs.maximum_timeout : runner.maximum_timeout,
  }
}

/**
 * `Ci::UpdateRunnerService#update`: validates the result, then stores it (`updated_at` = now when
 * something changed). Pausing is `active: false`, resuming `active: true`.
 * @throws ApiError 400 validation errors; nothing is changed then.
 */
export function updateRunner(db: Db, runner: RunnerRecord, attrs: RunnerAttributes, now: string): RunnerRecord {
  const values = merged(runner, attrs)
  validateRunner(values)
  const changed = (Object.keys(values) as (keyof typeof values)[]).some((k) => JSON.stringify(values[k]) !== JSON.stringify(runner[k]))
  return changed ? db.tables.runners.update(runner.id, { ...values, updated_at: now }) : runner
}

/** What registration adds to the attributes: `info` fields and the caller's address. */
export interface RunnerInfo {
  name?: string | undefined
  version?: string | undefined
  revision?: string | undefined
  platform?: string | undefined
  architecture?: string | undefined
  ip_address: string
}

/** Where a registration token leads: the instance, a project or a group. */
export type RegistrationTarget =
  | { runner_type: 'instance_type' }
  | { runner_type: 'project_type'; project_id: number }
  | { runner_type: 'group_type'; group_id: number }

/**
 * Which registration token this is (lib/api/ci/runner.rb `POST /runners`, 13.x order: the
 * instance token, then a project's `runners_token`, then a group's), or undefined.
 */
export function registrationTarget(db: Db, token: string): RegistrationTarget | undefined {
  if (token === db.tables.application_settings.get(1)?.runners_registration_token) return { runner_type: 'instance_type' }
  const project = db.tables.projects.find((p) => p.runners_token === token)
  if (project) return { runner_type: 'project_type', project_id: project.id }
  const group = db.tables.groups.find((g) => g.runners_token === token)
  if (group) return { runner_type: 'group_type', group_id: group.id }
  return undefined
}

/**
 * `Ci::Runner.create(attributes)`: a new runner of the token's type, linked to its project or
 * group, with a fresh authentication token; never contacted yet.
 * @param token the new runner's authentication token (drawn by the caller from the seeded faker).
 * @throws ApiError 400 validation errors.
 */
export function registerRunner(
  db: Db,
  target: RegistrationTarget,
  attrs: RunnerAttributes,
  info: RunnerInfo,
  token: string,
  now: string,
): RunnerRecord {
  const defaults = { description: '', active: true, tag_list: [], run_untagged: true, locked: false, access_level: 'not_protected' as const, maximum_timeout: null }
  const values = merged(defaults, attrs)
  validateRunner(values)
  const runner = db.tables.runners.insert({
    runner_type: target.runner_type,
    token,
    ...values,
    ip_address: info.ip_address,
    name: info.name ?? null,
    version: info.version ?? null,
    revision: info.revision ?? null,
    platform: info.platform ?? null,
    architecture: info.architecture ?? null,
    contacted_at: null,
    created_at: now,
    updated_at: now,
  })
  if (target.runner_type === 'project_type') db.tables.runner_projects.insert({ runner_id: runner.id, project_id: target.project_id, created_at: now })
  if (target.runner_type === 'group_type') db.tables.runner_namespaces.insert({ runner_id: runner.id, namespace_id: target.group_id })
  return runner
}

/**
 * `Ci::Runner#heartbeat` (run by `authenticate_runner!` on verify and delete-by-token): the runner
 * has just contacted the instance; `info` fields given with the request are stored too.
 */
export function heartbeat(db: Db, runner: RunnerRecord, info: Partial<RunnerInfo>, now: string): RunnerRecord {
  const patch: Partial<RunnerRecord> = { contacted_at: now }
  for (const key of ['version', 'revision', 'platform', 'architecture', 'ip_address'] as const) {
    if (info[key] !== undefined) patch[key] = info[key]
  }
  return db.tables.runners.update(runner.id, patch)
}

/**
 * `runner.assign_to(project)`: enables the runner in the project; an instance runner becomes a
 * project runner.
 * @throws ApiError 400 `{"message":{"assign_to":["Validation failed: Runner has already been taken"]}}`
 *   when it is already enabled there.
 */
export function assignRunner(db: Db, runner: RunnerRecord, project: ProjectRecord, now: string): RunnerRecord {
  if (db.tables.runner_projects.where('runner_id', runner.id).some((l) => l.project_id === project.id)) {
    throw validationFailed({ assign_to: [RunnerValidationMessage.alreadyEnabled] })
  }
  db.tables.runner_projects.insert({ runner_id: runner.id, project_id: project.id, created_at: now })
  return runner.runner_type === 'instance_type' ? db.tables.runners.update(runner.id, { runner_type: 'project_type', updated_at: now }) : runner
}

/** Removes the runner, its project and group links; its jobs keep running without it (FK `ON DELETE SET NULL`). */
export function destroyRunner(db: Db, runner: RunnerRecord): void {
  for (const link of db.tables.runner_projects.where('runner_id', runner.id)) db.tables.runner_projects.delete(link.id)
  for (const link of db.tables.runner_namespaces.where('runner_id', runner.id)) db.tables.runner_namespaces.delete(link.id)
  for (const job of db.tables.jobs.where('runner_id', runner.id)) db.tables.jobs.update(job.id, { runner_id: null })
  db.tables.runners.delete(runner.id)
}

/** `GET /runners/:id/jobs` query, as declared. */
export interface RunnerJobsQuery {
  status?: string | undefined
  order_by?: 'id' | undefined
  sort: 'asc' | 'desc'
}

/**
 * `Ci::RunnerJobsFinder`: the runner's jobs, by `status`; ordered by id in `sort` direction only
 * when `order_by=id` is given, else by id ascending (paginate's default order), since `sort` alone
 * orders nothing.
 */
export function runnerJobs(db: Db, runner: RunnerRecord, query: RunnerJobsQuery): JobRecord[] {
  // gitlab: app/finders/ci/runner_jobs_finder.rb (13.x `sort_items` returns early without order_by).
  let jobs = db.tables.jobs.where('runner_id', runner.id)
  if (query.status !== undefined) jobs = jobs.filter((j) => j.status === query.status)
  if (query.order_by === 'id' && query.sort === 'desc') jobs = jobs.reverse()
  return jobs
}
