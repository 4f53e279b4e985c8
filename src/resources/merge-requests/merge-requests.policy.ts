/**
 * Who may do what with merge requests, as GitLab 13.x's `ProjectPolicy` and `IssuablePolicy` say:
 * `read_merge_request` is a public-access ability (anyone on a public project, signed-in users on
 * an internal one) and a Reporter one, so a Guest of a private project cannot read merge requests;
 * authors and assignees who have guest access read and update their own; Developer+ update and
 * administer any (`admin_merge_request`: labels, milestone, assignees, reviewers, locking); project
 * owners and administrators delete. Sources: gitlab: app/policies/project_policy.rb,
 * app/policies/issuable_policy.rb, app/finders/issuable_finder.rb (`min_access_level`).
 * @module
 */
import { AccessLevel, canReadProject, projectAccessLevel } from '../../rules/access.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import type { Ctx } from '../../core/route.js'
import { canMergeToBranch, canPushToBranch, repositoryOf } from '../repository/repository.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** Who is asking and when: what the policy reads of a request. */
export interface PolicyCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
}

/**
 * `read_merge_request` on the project: `public_access` (a public project, or an internal one for a
 * signed-in user who is not external) or Reporter+, administrators always. The lists use the same
 * rule (`Project.public_or_visible_to_user(user, REPORTER)`).
 */
export function canReadProjectMergeRequests(ctx: PolicyCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  if (!canReadProject(ctx.db, user, project, ctx.today)) return false
  if (project.visibility === 'public') return true
  if (!user) return false
  if (user.admin) return true
  if (project.visibility === 'internal' && !user.external && user.user_type !== 'project_bot') return true
  return projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER
}

/** Whether the user is the merge request's author or one of its assignees (`assignee_or_author?`). */
function assigneeOrAuthor(user: UserRecord | null, mergeRequest: MergeRequestRecord): boolean {
  return user !== null && (mergeRequest.author_id === user.id || mergeRequest.assignee_ids.includes(user.id))
}

/** `read_merge_request` on one merge request: the project's rule, or its author/assignee with guest access. */
export function canReadMergeRequest(ctx: PolicyCtx, project: ProjectRecord, mergeRequest: MergeRequestRecord): boolean {
  if (canReadProjectMergeRequests(ctx, project)) return true
  return assigneeOrAuthor(ctx.currentUser, mergeRequest) && projectAccessLevel(ctx.db, ctx.currentUser, project, ctx.today) >= AccessLevel.GUEST
}

/** `admin_merge_request` (and `update_merge_request` on any): Developer+ or an administrator. */
export function canAdminMergeRequest(ctx: PolicyCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.DEVELOPER)
}

/** `update_merge_request`: Developer+, or the author or an assignee who can read it. */
export function canUpdateMergeRequest(ctx: PolicyCtx, project: ProjectRecord, mergeRequest: MergeRequestRecord): boolean {
  if (canAdminMergeRequest(ctx, project)) return true
  return assigneeOrAuthor(ctx.currentUser, mergeRequest) && canReadMergeRequest(ctx, project, mergeRequest)
}

/** `destroy_merge_request`: project owners and administrators. */
export function canDestroyMergeRequest(ctx: PolicyCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.OWNER)
}

/**
 * `can_be_merged_by?(user)` (`user.can_merge`, and the merge route's 401): `Gitlab::UserAccess#
 * can_update_branch?` on the target branch: push or merge access to it, as its protection says
 * (Developer+ on an unprotected branch).
 */
export function canMergeMergeRequest(ctx: Ctx<unknown>, project: ProjectRecord, mergeRequest: MergeRequestRecord): boolean {
  const repo = repositoryOf(ctx.db, project)
  return canPushToBranch(ctx, project, repo, mergeRequest.target_branch) || canMergeToBranch(ctx, project, repo, mergeRequest.target_branch)
}

/** `read_pipeline` on the project: public access or Reporter+ (as for merge requests). */
export function canReadPipelines(ctx: PolicyCtx, project: ProjectRecord): boolean {
  return canReadProjectMergeRequests(ctx, project)
}
