/**
 * What other areas may use of the merge requests area: its entities, finders, and the writes
 * other models' services make to merge requests (GitLab's `MergeRequestsFinder` and the services
 * that touch them). Its public module: besides `index.ts`, the only file of this folder another
 * area imports.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import { canReadMergeRequest, type PolicyCtx } from './merge-requests.policy.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

export { MergeRequestBasic } from './merge-requests.entities.js'
export { canReadMergeRequest } from './merge-requests.policy.js'

/** The merge request with this id, if any. */
export function mergeRequestById(db: Db, id: number): MergeRequestRecord | undefined {
  return db.tables.merge_requests.get(id)
}

/** The merge request with that iid in the project, visible or not (`merge_requests.find_by(iid:)`). */
export function mergeRequestByIid(db: Db, projectId: number, iid: number): MergeRequestRecord | undefined {
  return db.tables.merge_requests.where('project_id', projectId).find((mr) => mr.iid === iid)
}

/** A project's merge requests, in id order. */
export function mergeRequestsOfProject(db: Db, projectId: number): MergeRequestRecord[] {
  return db.tables.merge_requests.where('project_id', projectId)
}

/** The source and target branches of the project's open merge requests (the repository keeps them). */
export function openMergeRequestBranches(db: Db, projectId: number): string[] {
  return mergeRequestsOfProject(db, projectId).filter((mr) => mr.state === 'opened').flatMap((mr) => [mr.source_branch, mr.target_branch])
}

/** Moves a merge request's `updated_at` (a to-do on it touches it: `belongs_to :target, touch: true`). */
export function touchMergeRequest(db: Db, id: number, now: string): void {
  db.tables.merge_requests.update(id, { updated_at: now })
}

/**
 * A user note's effect on the merge request: `user_notes_count` by `delta` (never below 0); `now`
 * also moves its `updated_at` (a new note touches its noteable, a deleted one does not).
 */
export function countMergeRequestNote(db: Db, id: number, delta: 1 | -1, now: string | null): void {
  const mr = db.tables.merge_requests.get(id)
  if (!mr) return
  db.tables.merge_requests.update(mr.id, { user_notes_count: Math.max(0, mr.user_notes_count + delta), ...(now === null ? {} : { updated_at: now }) })
}

/**
 * An award's effect on the merge request's vote counters: `thumbsup` and `thumbsdown` count, by
 * `delta`, never below 0 (`Awardable#upvotes`/`downvotes`). Other names change nothing.
 */
export function countMergeRequestVote(db: Db, id: number, name: string, delta: 1 | -1): void {
  const mr = db.tables.merge_requests.get(id)
  if (!mr) return
  if (name === 'thumbsup') db.tables.merge_requests.update(mr.id, { upvotes: Math.max(0, mr.upvotes + delta) })
  if (name === 'thumbsdown') db.tables.merge_requests.update(mr.id, { downvotes: Math.max(0, mr.downvotes + delta) })
}

/** `Members::DestroyService` `unassign_issuables` for merge requests: the user leaves the project's assignees. */
export function unassignFromProjectMergeRequests(db: Db, projectId: number, userId: number): void {
  for (const mr of db.tables.merge_requests.where('project_id', projectId)) {
    if (mr.assignee_ids.includes(userId)) {
      db.tables.merge_requests.update(mr.id, { assignee_ids: mr.assignee_ids.filter((id) => id !== userId) })
    }
  }
}

/**
 * Rewrites every merge request's `label_ids` with `rewrite` (null: unchanged), as a label merge or
 * promotion relinks the label's merge requests.
 */
export function relabelMergeRequests(db: Db, rewrite: (ids: number[]) => number[] | null): void {
  for (const mr of db.tables.merge_requests.all()) {
    const ids = rewrite(mr.label_ids)
    if (ids) db.tables.merge_requests.update(mr.id, { label_ids: ids })
  }
}

/** How many merge requests the instance holds (`MergeRequest.count`, for `GET /application/statistics`). */
export function mergeRequestCount(db: Db): number {
  return db.tables.merge_requests.size
}

/**
 * `User#assigned_open_merge_requests_count`: the open merge requests assigned to the user, in
 * projects that are not archived, that the user may read (`MergeRequestsFinder.new(user,
 * assignee_id: user.id, state: 'opened', non_archived: true)`). gitlab: app/models/user.rb (13.12).
 * @param ctx the store, the user as `currentUser`, and today's date (`YYYY-MM-DD`).
 */
export function assignedOpenMergeRequestsCount(ctx: PolicyCtx & { readonly currentUser: UserRecord }): number {
  const userId = ctx.currentUser.id
  return ctx.db.tables.merge_requests.all().filter((mr) => {
    if (mr.state !== 'opened' || !mr.assignee_ids.includes(userId)) return false
    const project = ctx.db.tables.projects.get(mr.project_id)
    return project !== undefined && !project.archived && canReadMergeRequest(ctx, project, mr)
  }).length
}
