/**
 * `MergeRequestsFinder` for the three lists (`/merge_requests`, `/groups/:id/merge_requests`,
 * `/projects/:id/merge_requests`): which merge requests a caller sees, GitLab 13.x's filters,
 * `not[...]`, and the ordering. Source: gitlab: app/finders/merge_requests_finder.rb,
 * app/finders/issuable_finder.rb, lib/api/merge_requests.rb, lib/api/helpers/merge_requests_helpers.rb.
 * @module
 */
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../../db/schema.js'
import { awardsByUser } from '../award-emoji/award-emoji.public.js'
import { milestoneById } from '../milestones/milestones.public.js'
import { labelById } from '../labels/labels.public.js'
import { canReadProjectMergeRequests, type PolicyCtx } from './merge-requests.policy.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** The filters `not[...]` can negate (`merge_requests_negatable_params`). */
export interface NegatableMergeRequestFilters {
  author_id?: number
  author_username?: string
  /** An integer, or `None`/`Any` (already checked). */
  assignee_id?: number | string
  assignee_username?: string[]
  reviewer_id?: number | string
  reviewer_username?: string
  labels?: string[]
  milestone?: string
  my_reaction_emoji?: string
}

/** Everything a list filters and sorts by, as validated by the route. */
export interface MergeRequestListFilters extends NegatableMergeRequestFilters {
  state: 'opened' | 'closed' | 'locked' | 'merged' | 'all'
  order_by: 'created_at' | 'updated_at'
  sort: 'asc' | 'desc'
  /** `underscore`d: `created_by_me`, `assigned_to_me`, `all`; absent means all. */
  scope?: string
  source_branch?: string
  source_project_id?: number
  target_branch?: string
  search?: string
  in?: string
  wip?: 'yes' | 'no'
  iids?: number[]
  created_after?: string
  created_before?: string
  updated_after?: string
  updated_before?: string
  not: NegatableMergeRequestFilters
}

/** Which projects a list covers. */
export type MergeRequestListSource = { kind: 'global' } | { kind: 'group'; group: GroupRecord } | { kind: 'project'; project: ProjectRecord }

type Predicate = (mr: MergeRequestRecord) => boolean

const lower = (value: unknown): string => String(value).toLowerCase()

/** The projects of the source whose merge requests the caller may read. */
function sourceProjects(ctx: PolicyCtx, source: MergeRequestListSource): ProjectRecord[] {
  const { db } = ctx
  let projects: ProjectRecord[]
  if (source.kind === 'project') projects = [source.project]
  else if (source.kind === 'group') {
    projects = []
    for (const g of [source.group, ...db.groupDescendants(source.group)]) {
      for (const project of db.tables.projects.where('namespace_id', g.id)) if (project.namespace_type === 'group') projects.push(project)
    }
  } else projects = db.tables.projects.all()
  return projects.filter((project) => canReadProjectMergeRequests(ctx, project))
}

/** A user id by username (case-insensitive), or -1 when none: the filter then matches nothing. */
function userIdByName(db: Db, username: string): number {
  const wanted = username.toLowerCase()
  return db.tables.users.find((u) => u.username.toLowerCase() === wanted)?.id ?? -1
}

/** `by_assignee`/`by_reviewer`: `None`, `Any`, or one user id, over an id list. */
function peopleMatcher(value: number | string, ids: (mr: MergeRequestRecord) => readonly number[]): Predicate {
  if (typeof value === 'string' && lower(value) === 'none') return (mr) => ids(mr).length === 0
  if (typeof value === 'string' && lower(value) === 'any') return (mr) => ids(mr).length > 0
  const id = Number(value)
  return (mr) => ids(mr).includes(id)
}

/** `by_label`: `None`, `Any`, or every title given (labels of any project or group). */
function labelMatcher(db: Db, names: readonly string[]): Predicate {
  const titles = names.map((n) => n.trim()).filter((n) => n !== '')
  if (titles.length === 1 && lower(titles[0]) === 'none') return (mr) => mr.label_ids.length === 0
  if (titles.length === 1 && lower(titles[0]) === 'any') return (mr) => mr.label_ids.length > 0
  return (mr) => {
    const have = new Set(mr.label_ids.map((id) => labelById(db, id)?.title))
    return titles.every((title) => have.has(title))
  }
}

/** `by_milestone`: `None`, `Any`, or a title (of any project or group). */
function milestoneMatcher(db: Db, title: string): Predicate {
  if (lower(title) === 'none' || title === 'No Milestone') return (mr) => mr.milestone_id === null
  if (lower(title) === 'any' || title === 'Any Milestone') return (mr) => mr.milestone_id !== null
  return (mr) => mr.milestone_id !== null && milestoneById(db, mr.milestone_id)?.title === title
}

/** `by_my_reaction_emoji`: `None`, `Any`, or an emoji name, over the caller's awards on merge requests. */
function reactionMatcher(db: Db, user: UserRecord | null, emoji: string): Predicate {
  if (!user) return () => true
  const awards = awardsByUser(db, user.id).filter((a) => (a.awardable_type as string) === 'MergeRequest')
  if (lower(emoji) === 'none') {
    const any = new Set(awards.map((a) => a.awardable_id))
    return (mr) => !any.has(mr.id)
  }
  const ids = new Set(awards.filter((a) => lower(emoji) === 'any' || a.name === emoji).map((a) => a.awardable_id))
  return (mr) => ids.has(mr.id)
}

/** The matchers of the negatable filters; `negate` turns each into its `not[...]` form. */
function negatableMatchers(ctx: PolicyCtx, f: NegatableMergeRequestFilters): Predicate[] {
  const { db } = ctx
  const out: Predicate[] = []
  if (f.author_id !== undefined) out.push((mr) => mr.author_id === f.author_id)
  if (f.author_username !== undefined) {
    const id = userIdByName(db, f.author_username)
    out.push((mr) => mr.author_id === id)
  }
  if (f.assignee_id !== undefined) out.push(peopleMatcher(f.assignee_id, (mr) => mr.assignee_ids))
  if (f.assignee_username !== undefined && f.assignee_username.length > 0) {
    const id = userIdByName(db, f.assignee_username[0]!)
    out.push((mr) => mr.assignee_ids.includes(id))
  }
  if (f.reviewer_id !== undefined) out.push(peopleMatcher(f.reviewer_id, (mr) => mr.reviewer_ids))
  if (f.reviewer_username !== undefined) {
    const name = f.reviewer_username
    out.push(['none', 'any'].includes(lower(name)) ? peopleMatcher(name, (mr) => mr.reviewer_ids) : peopleMatcher(userIdByName(db, name), (mr) => mr.reviewer_ids))
  }
  if (f.labels !== undefined) out.push(labelMatcher(db, f.labels))
  if (f.milestone !== undefined) out.push(milestoneMatcher(db, f.milestone))
  if (f.my_reaction_emoji !== undefined) out.push(reactionMatcher(db, ctx.currentUser, f.my_reaction_emoji))
  return out
}

/** `in`: the searched columns (unknown words ignored; none given: both). */
function searchColumns(value: string | undefined): { title: boolean; description: boolean } {
  const words = (value ?? '').split(',').map((w) => w.trim().toLowerCase())
  const title = words.includes('title')
  const description = words.includes('description')
  return title || description ? { title, description } : { title: true, description: true }
}

/**
 * The merge requests of `source` the caller may read that match `f`, sorted by `order_by`/`sort`
 * (equal times by id, in the same direction). A scope about the current user matches nothing
 * for an anonymous caller (`current_user_related? && !current_user`).
 */
export function findMergeRequests(ctx: PolicyCtx, source: MergeRequestListSource, f: MergeRequestListFilters): MergeRequestRecord[] {
  const { db } = ctx
  const user = ctx.currentUser
  const scope = f.scope ?? 'all'
  if (scope !== 'all' && !user) return []
  const matchers: Predicate[] = []
  if (f.state !== 'all') matchers.push((mr) => mr.state === f.state)
  if (scope === 'created_by_me') matchers.push((mr) => mr.author_id === user!.id)
  if (scope === 'assigned_to_me') matchers.push((mr) => mr.assignee_ids.includes(user!.id))
  if (f.source_branch !== undefined) matchers.push((mr) => mr.source_branch === f.source_branch)
  if (f.target_branch !== undefined) matchers.push((mr) => mr.target_branch === f.target_branch)
  if (f.source_project_id !== undefined) matchers.push((mr) => mr.source_project_id === f.source_project_id)
  if (f.wip === 'yes') matchers.push((mr) => mr.draft)
  if (f.wip === 'no') matchers.push((mr) => !mr.draft)
  if (f.iids !== undefined) matchers.push((mr) => f.iids!.includes(mr.iid))
  if (f.created_after !== undefined) matchers.push((mr) => Date.parse(mr.created_at) >= Date.parse(f.created_after!))
  if (f.created_before !== undefined) matchers.push((mr) => Date.parse(mr.created_at) <= Date.parse(f.created_before!))
  if (f.updated_after !== undefined) matchers.push((mr) => Date.parse(mr.updated_at) >= Date.parse(f.updated_after!))
  if (f.updated_before !== undefined) matchers.push((mr) => Date.parse(mr.updated_at) <= Date.parse(f.updated_before!))
  if (f.search !== undefined) {
    const matches = fuzzySearch(f.search, { useMinimumCharLimit: true })
    const columns = searchColumns(f.in)
    matchers.push((mr) => matches(columns.title ? mr.title : null, columns.description ? mr.description : null))
  }
  matchers.push(...negatableMatchers(ctx, f))
  for (const negated of negatableMatchers(ctx, f.not)) matchers.push((mr) => !negated(mr))
  const rows: MergeRequestRecord[] = []
  for (const project of sourceProjects(ctx, source)) {
    for (const mr of db.tables.merge_requests.where('project_id', project.id)) if (matchers.every((m) => m(mr))) rows.push(mr)
  }
  const key = f.order_by
  const direction = f.sort === 'asc' ? 1 : -1
  return rows.sort((a, b) => direction * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id))
}
