/**
 * What other areas may use of the issues area: its entities, the one issue lookup by project and
 * iid, finders over issues, and the writes other models' services make to issues
 * (GitLab's `IssuesFinder`, `find_project_issue`, and the services that touch issues). Its public
 * module: besides `index.ts`, the only file of this folder another area imports.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectCounts } from '../../entities/project.js'
import type { IssueRecord } from './issues.tables.js'

export { Issue, IssueBasic, issuePageFacts } from './issue.entities.js'
export type { IssuePageFacts } from './issue.entities.js'
// The issuable rules issue writes and merge request writes share (`IssuableBaseService`'s label,
// milestone and assignee filtering; `Gitlab::TimeTrackingFormatter.parse`).
export { assigneeIdsFor, findLabelIds, findOrCreateLabelIds, milestoneIdFor } from './issuable-writes.js'
export { parseDuration } from './duration.js'
// The one lookup by project and iid lives with the issue services, which use it; offered here.
export { issueByIid } from './issues.service.js'
// `find_project_issue` and `Subscribable#subscribed?`, for routes that present issues of their own
// (issue links: `Entities::RelatedIssue`).
export { findProjectIssue } from './issues.service.js'
export { registerMergeRequestProject } from './issues.merge-request-projects.js'
export { subscribedToIssue } from './issue-writes.service.js'
// Quick actions in a new issue note (the notes area creates notes and runs them).
// `Issues::CloseService` as a merge runs it on the issues the merge request closes
// (`MergeRequests::PostMergeService#close_issues`): the issue update path, so what follows a close follows.
export { updateIssue } from './issue-writes.service.js'

/**
 * The issues a merge request closes when merged (the `merge_requests_closing_issues` links), in
 * id order, visible to anyone or not (callers check `read_issue`).
 */
export function issuesClosedByMergeRequest(db: Db, mergeRequestId: number): IssueRecord[] {
  return db.tables.merge_requests_closing_issues
    .where('merge_request_id', mergeRequestId)
    .flatMap((link) => {
      const issue = db.tables.issues.get(link.issue_id)
      return issue ? [issue] : []
    })
    .sort((a, b) => a.id - b.id)
}

/** The issue with this (global) id, if any. */
export function issueById(db: Db, id: number): IssueRecord | undefined {
  return db.tables.issues.get(id)
}

/** A project's issues, in id order. */
export function issuesOfProject(db: Db, projectId: number): IssueRecord[] {
  return db.tables.issues.where('project_id', projectId)
}

/** How many of a project's issues are open (`Project#open_issues_count`). */
function openIssuesCount(db: Db, projectId: number): number {
  return db.tables.issues.where('project_id', projectId).filter((i) => i.state === 'opened').length
}

/** The counts the `Project` entity shows from this area (`open_issues_count`), over `db`. */
export function issueCounts(db: Db): ProjectCounts {
  return { openIssues: (projectId) => openIssuesCount(db, projectId) }
}

/**
 * A user note's effect on the issue: `user_notes_count` by `delta` (never below 0); `now` also
 * moves its `updated_at` (a new note touches its noteable, a deleted one does not).
 */
export function countIssueNote(db: Db, issueId: number, delta: 1 | -1, now: string | null): void {
  const issue = db.tables.issues.get(issueId)
  if (!issue) return
  db.tables.issues.update(issue.id, { user_notes_count: Math.max(0, issue.user_notes_count + delta), ...(now === null ? {} : { updated_at: now }) })
}

/** Moves an issue's `updated_at` (a to-do on it touches it: `belongs_to :target, touch: true`). */
export function touchIssue(db: Db, id: number, now: string): void {
  db.tables.issues.update(id, { updated_at: now })
}

/**
 * An award's effect on the issue's vote counters: `thumbsup` and `thumbsdown` count, by `delta`,
 * never below 0 (`Awardable#upvotes`/`downvotes`). Other names change nothing.
 */
export function countIssueVote(db: Db, issueId: number, name: string, delta: 1 | -1): void {
  const issue = db.tables.issues.get(issueId)!
  if (name === 'thumbsup') db.tables.issues.update(issue.id, { upvotes: Math.max(0, issue.upvotes + delta) })
  if (name === 'thumbsdown') db.tables.issues.update(issue.id, { downvotes: Math.max(0, issue.downvotes + delta) })
}

/** `Members::DestroyService` `unassign_issuables` for issues: the user leaves the project's assignees. */
export function unassignFromProjectIssues(db: Db, projectId: number, userId: number): void {
  for (const issue of db.tables.issues.where('project_id', projectId)) {
    if (issue.assignee_ids.includes(userId)) {
      db.tables.issues.update(issue.id, { assignee_ids: issue.assignee_ids.filter((id) => id !== userId) })
    }
  }
}

/**
 * Rewrites every issue's `label_ids` with `rewrite` (null: unchanged), as a label merge or
 * promotion relinks the label's issues.
 */
export function relabelIssues(db: Db, rewrite: (ids: number[]) => number[] | null): void {
  for (const issue of db.tables.issues.all()) {
    const ids = rewrite(issue.label_ids)
    if (ids) db.tables.issues.update(issue.id, { label_ids: ids })
  }
}

/** How many issues the instance holds, every project's (`Issue.count`, for `GET /application/statistics`). */
export function issueCount(db: Db): number {
  return db.tables.issues.size
}
