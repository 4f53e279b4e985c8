/**
 * The merge request writes that need the repository: create, merge (now, or when the head pipeline
 * succeeds), cancel the automatic merge, rebase. Handlers find and authorize; these functions check
 * GitLab's rules in GitLab's order and write, the repository's part through `RepositoryWrite`
 * inside the request's store transaction (a refused request leaves no object or ref behind).
 * Sources: issue 26 item 3; gitlab: lib/api/merge_requests.rb (13.x `post`, `merge`,
 * `cancel_merge_when_pipeline_succeeds`, `rebase`, `automatically_mergeable?`,
 * `immediately_mergeable?`, `check_sha_param!`), app/services/merge_requests/{create,merge,
 * post_merge,rebase}_service.rb, app/services/auto_merge/merge_when_pipeline_succeeds_service.rb,
 * app/models/merge_request.rb (`validate_branches`, `validate_fork`, `mergeable_state?`, `broken?`,
 * `can_be_merged_by?`, `can_remove_source_branch?`, `can_cancel_auto_merge?`).
 * @module
 */
import { ApiError, apiMessage, forbidden, notAllowed, recordNotFound, unauthorized, validationFailed } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { assigneeIdsFor, findOrCreateLabelIds, milestoneIdFor, updateIssue } from '../issues/issues.public.js'
import { canPushToBranch, isProtectedBranch, repositoryOf } from '../repository/repository.public.js'
import { resolveTodosForTarget } from '../todos/todos.public.js'
import { publishMergeRequest } from './merge-requests.events.js'
import { headPipeline } from './merge-requests.entities.js'
import { defaultMergeCommitMessage, liveDiff, mergeInStore, mergeRequestCommits, rebaseInStore, shouldBeRebased, autoMergeEnabled } from './merge-requests.git.js'
import { cacheClosesIssues, closingReferences } from './merge-requests.closing.js'
import { canAdminMergeRequest, canMergeMergeRequest } from './merge-requests.policy.js'
import { closesIssues, createPeopleTodos, DESCRIPTION_MAX, isDraftTitle, reviewerIdsFor, TITLE_MAX, type ServiceCtx } from './merge-requests.service.js'
import type { MergeRequestMergeParams, MergeRequestRecord } from './merge-requests.tables.js'

/** The params of `POST /projects/:id/merge_requests`, as declared. */
export interface MergeRequestCreateParams {
  title: string
  source_branch: string
  target_branch: string
  target_project_id?: number
  description?: string
  assignee_id?: number
  assignee_ids?: number[]
  reviewer_ids?: number[]
  milestone_id?: number
  labels?: string[]
  remove_source_branch?: boolean
  squash?: boolean
}

/**
 * `Gitlab::GitRefValidator.validate_merge_request_branch`: git's ref name rules (check-ref-format)
 * for `refs/heads/<name>`: no empty component, none starting with `.` or ending in `.lock`, no
 * `..`, `@{`, control characters, space, `~^:?*[\`, no trailing `/` or `.`, not `@`, not starting with `-`.
 */
function validBranchName(name: string): boolean {
  if (name === '@' || name.startsWith('-') || name.endsWith('/') || name.endsWith('.')) return false
  if (/\.\.|@\{|[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'))
}

/** `MergeRequest` validations a write checks: title, description, branch names. */
function validate(title: string, description: string, branches: { source_branch?: string; target_branch?: string }): void {
  const errors: Record<string, string[]> = {}
  if (blank(title)) errors.title = ["can't be blank"]
  else if ([...title].length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`]
  if ([...description].length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`]
  for (const key of ['source_branch', 'target_branch'] as const) {
    const name = branches[key]
    if (name !== undefined && !validBranchName(name)) errors[key] = ['is invalid']
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/**
 * `MergeRequests::CreateService` as the API runs it. The branches need not exist (13.x checks their
 * names, not their presence: such a merge request has no diff and cannot be merged).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}` for an unknown `target_project_id`;
 *   422 `{"message":["Source project is not a fork of the target project"]}` for another project;
 *   400 `{"message":{"title":["is too long (maximum is 255 characters)"]}}`, `{"source_branch":["is invalid"]}`;
 *   422 `{"message":["You can't use same project/branch for source and target"]}`;
 *   409 `{"message":["Another open merge request already exists for this source branch: !1"]}`.
 */
export function createMergeRequest(ctx: Ctx<unknown>, user: UserRecord, project: ProjectRecord, params: MergeRequestCreateParams): MergeRequestRecord {
  const { db } = ctx
  if (params.target_project_id !== undefined && params.target_project_id !== project.id) {
    if (!db.tables.projects.get(params.target_project_id)) throw recordNotFound()
    throw new ApiError(422, { message: ['Source project is not a fork of the target project'] })
  }
  const description = params.description ?? ''
  validate(params.title, description, params)
  // `validate_branches` (handle_merge_request_errors!: branch_conflict 422, validate_branches 409).
  if (params.source_branch === params.target_branch) throw new ApiError(422, { message: ["You can't use same project/branch for source and target"] })
  const similar = db.tables.merge_requests
    .where('project_id', project.id)
    .find((other) => other.state === 'opened' && other.source_project_id === project.id && other.source_branch === params.source_branch && other.target_branch === params.target_branch)
  if (similar) throw new ApiError(409, { message: [`Another open merge request already exists for this source branch: !${similar.iid}`] })
  const admin = canAdminMergeRequest(ctx, project)
  const draft: MergeRequestRecord = {
    id: 0,
    iid: 0,
    project_id: project.id,
    source_project_id: project.id,
    title: params.title,
    description,
    state: 'opened',
    author_id: user.id,
    assignee_ids: [],
    reviewer_ids: [],
    label_ids: [],
    milestone_id: null,
    source_branch: params.source_branch,
    target_branch: params.target_branch,
    draft: isDraftTitle(params.title),
    sha: '',
    base_sha: '',
    start_sha: '',
    merge_commit_sha: null,
    squash_commit_sha: null,
    merge_status: 'cannot_be_merged',
    squash: params.squash ?? false,
    discussion_locked: null,
    force_remove_source_branch: params.remove_source_branch ?? null,
    time_estimate: 0,
    total_time_spent: 0,
    created_at: ctx.now,
    updated_at: ctx.now,
    merged_at: null,
    merged_by_id: null,
    closed_at: null,
    closed_by_id: null,
    upvotes: 0,
    downvotes: 0,
    user_notes_count: 0,
  }
  if (admin) {
    draft.assignee_ids = assigneeIdsFor(ctx, project, params) ?? []
    draft.reviewer_ids = reviewerIdsFor(ctx, project, draft, params.reviewer_ids) ?? []
    if (params.milestone_id !== undefined) draft.milestone_id = milestoneIdFor(db, project, params.milestone_id)
    if (params.labels !== undefined) draft.label_ids = findOrCreateLabelIds(ctx, user, project, params.labels)
  }
  // The diff as the branches give it now (read live while open; kept in the row for when they go).
  const live = liveDiff(db, draft)
  if (live) Object.assign(draft, { sha: live.sha, base_sha: live.base_sha ?? '', start_sha: live.start_sha, merge_status: live.merge_status })
  const { id: _id, ...row } = draft
  void _id
  const mr = db.tables.merge_requests.insert({ ...row, iid: db.nextIid('merge_requests', 'project', project.id) })
  publishMergeRequest(ctx, null, mr, user.id)
  createPeopleTodos(ctx, mr, user, { ...mr, assignee_ids: [], reviewer_ids: [] })
  // `CreateService#after_create`: the issues its title, description and commits close.
  cacheClosesIssues(ctx, project, mr, user)
  return mr
}

/** `HasStatus::ACTIVE_STATUSES`: a pipeline still running toward a result. */
const ACTIVE = new Set(['waiting_for_resource', 'preparing', 'pending', 'running'])

/** The params of `PUT …/merge`, as declared. */
export interface MergeParams {
  merge_commit_message?: string
  squash_commit_message?: string
  squash?: boolean
  should_remove_source_branch?: boolean
  merge_when_pipeline_succeeds?: boolean
  sha?: string
}

/**
 * The `merge_status` GitLab has stored for an open merge request whose branches exist: the status
 * its row recorded (at create, update or merge) while both branch tips are still the ones the row
 * recorded, else `unchecked`: a push to either branch marks it unchecked (`MergeRequests::
 * RefreshService` → `mark_as_unchecked`) until a check reads it again. Without a live diff, the row's.
 */
function storedMergeStatus(ctx: ServiceCtx, mr: MergeRequestRecord): string {
  const live = liveDiff(ctx.db, mr)
  if (!live) return mr.merge_status
  return live.sha === mr.sha && live.start_sha === mr.start_sha ? live.merge_status : 'unchecked'
}

/**
 * `mergeable_state?`: open, not a draft, not `broken?` (its branches exist, the source has commits
 * the target lacks, and the stored status is not `cannot_be_merged`: a merge request already
 * checked as conflicting is 405, not 406); the CI check passes (no project requires a successful
 * pipeline here).
 */
function mergeableState(ctx: ServiceCtx, mr: MergeRequestRecord): boolean {
  return mr.state === 'opened' && !mr.draft && liveDiff(ctx.db, mr) !== null && (mergeRequestCommits(ctx.db, mr)?.ids.length ?? 0) > 0
    && storedMergeStatus(ctx, mr) !== 'cannot_be_merged'
}

/**
 * `MergeRequest#mergeable?`: {@link mergeableState}, it merges without conflicts (`can_be_merged?`)
 * and needs no rebase first (`!should_be_rebased?`, semi-linear and fast-forward projects).
 */
export function mergeable(ctx: ServiceCtx, project: ProjectRecord, mr: MergeRequestRecord): boolean {
  return mergeableState(ctx, mr) && liveDiff(ctx.db, mr)!.merge_status === 'can_be_merged' && !shouldBeRebased(ctx.db, project, mr)
}

/**
 * `PUT …/merge`: refusals in 13.x's order, then the merge now (`MergeService`) or, asked to merge
 * when the pipeline succeeds while the head pipeline is active, the flag (`AutoMerge::
 * MergeWhenPipelineSucceedsService#execute`), with the merge params the later merge uses.
 * `mergeable?` checks the merge itself: a conflict found then (the stored status was `unchecked`:
 * a branch moved since the merge request was last checked, the usual case right after a push), or
 * a semi-linear or fast-forward project's source that is not rebased on the target, is its 406; a
 * merge request already stored as `cannot_be_merged` is `broken?`, so 405 before that.
 * @throws ApiError 401 `{"message":"401 Unauthorized"}` without permission to update the target
 *   branch; 405 `{"message":"405 Method Not Allowed"}` not mergeable; 406 `{"message":"Branch
 *   cannot be merged"}` on conflicts or when a rebase is needed; 409 `{"message":"SHA does not
 *   match HEAD of source branch: <sha>"}`.
 */
export function mergeMergeRequest(ctx: Ctx<unknown>, user: UserRecord, project: ProjectRecord, mr: MergeRequestRecord, params: MergeParams): MergeRequestRecord {
  const { db } = ctx
  if (!canMergeMergeRequest(ctx, project, mr)) throw unauthorized()
  const state = mergeableState(ctx, mr)
  const mwps = params.merge_when_pipeline_succeeds === true
  const head = mwps ? headPipeline(ctx, mr) : null
  const automatically = mwps && state && head !== null && ACTIVE.has(head.status)
  const immediately = mwps ? head !== null && head.status === 'success' && state : state
  if (!immediately && !automatically) throw notAllowed()
  if (!mergeable(ctx, project, mr)) throw apiMessage(406, 'Branch cannot be merged')
  const live = liveDiff(db, mr)!
  if (params.sha !== undefined && params.sha !== live.sha) throw apiMessage(409, `SHA does not match HEAD of source branch: ${live.sha}`)
  let current = mr
  if (params.squash) current = db.tables.merge_requests.update(mr.id, { squash: true })
  const mergeParams: MergeRequestMergeParams = {
    ...(params.merge_commit_message !== undefined ? { commit_message: params.merge_commit_message } : {}),
    ...(params.squash_commit_message !== undefined ? { squash_commit_message: params.squash_commit_message } : {}),
    sha: params.sha ?? live.sha,
  }
  if (!immediately) {
    const patch: Partial<MergeRequestRecord> = { merge_when_pipeline_succeeds: true, merge_user_id: user.id, merge_params: { ...current.merge_params, ...mergeParams }, updated_at: ctx.now }
    if (params.should_remove_source_branch !== undefined) patch.should_remove_source_branch = params.should_remove_source_branch
    return db.tables.merge_requests.update(mr.id, patch)
  }
  if (params.should_remove_source_branch !== undefined) current = db.tables.merge_requests.update(mr.id, { should_remove_source_branch: params.should_remove_source_branch })
  return executeMerge(ctx, user, project, current, mergeParams) ?? (() => { throw apiMessage(406, 'Branch cannot be merged') })()
}

/** What a merge reads of the request: who and when, and the base URL (issue links in its text). */
export interface MergeCtx extends ServiceCtx {
  readonly baseUrl: string
}

/**
 * `ctx` with `user` acting, for a merge made on someone's behalf (an automatic merge). The
 * repository area's protection checks take a request's `Ctx` but read only its store, user and date.
 */
export function actingAs(ctx: MergeCtx, user: UserRecord): Ctx<unknown> {
  return { db: ctx.db, today: ctx.today, now: ctx.now, baseUrl: ctx.baseUrl, currentUser: user } as unknown as Ctx<unknown>
}

/**
 * `MergeService#execute` once the checks passed: the merge (or fast-forward, per the project's
 * `merge_method`) in the store, then `PostMergeService`: merged by `user`, the issues it closes
 * closed by `user`, `user`'s to-dos on it done. Source branch removal follows the merge request's
 * `should_remove_source_branch` (else `force_remove_source_branch`) when the branch may go.
 * @returns the merged row, or null when the merge conflicts (nothing written).
 */
export function executeMerge(ctx: MergeCtx, user: UserRecord, project: ProjectRecord, mr: MergeRequestRecord, mergeParams: MergeRequestMergeParams): MergeRequestRecord | null {
  const { db } = ctx
  const live = liveDiff(db, mr)
  if (!live) return null
  const closing = closesIssues(ctx, mr)
  const message = mergeParams.commit_message ?? defaultMergeCommitMessage(db.projectFullPath(project), mr, closingReferences(ctx, project, closing))
  const repo = live.repo
  const userCtx = actingAs(ctx, user)
  // `can_remove_source_branch?`: not protected, not the default branch, the merger may push code.
  const wantsRemoval = mr.should_remove_source_branch ?? mr.force_remove_source_branch ?? false
  const removeSource = wantsRemoval && !isProtectedBranch(db, project, repo, mr.source_branch) && mr.source_branch !== project.default_branch && canPushToBranch(userCtx, project, repo, mr.source_branch)
  const outcome = mergeInStore(ctx, project, mr, user, {
    message,
    squash: mr.squash,
    squashMessage: mergeParams.squash_commit_message ?? mr.title,
    author: db.tables.users.get(mr.author_id),
    removeSource,
    fastForward: (project.merge_method ?? 'merge') === 'ff',
  })
  if (!outcome) return null
  const merged = db.tables.merge_requests.update(mr.id, {
    state: 'merged',
    merged_at: ctx.now,
    merged_by_id: user.id,
    merge_commit_sha: outcome.merge_commit_sha,
    squash_commit_sha: outcome.squash_commit_sha,
    sha: live.sha,
    base_sha: live.base_sha ?? '',
    start_sha: live.start_sha,
    merge_status: 'can_be_merged',
    merge_when_pipeline_succeeds: false,
    merge_error: null,
    updated_at: ctx.now,
  })
  publishMergeRequest(ctx, mr, merged, user.id)
  // `PostMergeService`: the issues it closes are closed by the merger; the merger's to-dos on it are done.
  for (const issue of closing) {
    if (issue.state !== 'opened') continue
    const issueProject = db.tables.projects.get(issue.project_id)
    if (issueProject) updateIssue(userCtx, user, issueProject, issue, { state_event: 'close' })
  }
  resolveTodosForTarget(db, user.id, 'MergeRequest', mr.id, ctx.now)
  return merged
}

/**
 * `POST …/cancel_merge_when_pipeline_succeeds`: `AutoMergeService#cancel`, whose service result
 * the API answers as it is (201): `{"status":"success"}`, or when nothing is set
 * `{"message":"Can't cancel the automatic merge","status":"error","http_status":406}`.
 * Cancelling drops the merge params the automatic merge kept (`should_remove_source_branch`,
 * the messages), as `cancel_auto_merge` does.
 * @throws ApiError 401 `{"message":"401 Unauthorized"}` unless the caller may merge it or wrote it
 *   (`can_cancel_auto_merge?`).
 */
export function cancelMergeWhenPipelineSucceeds(ctx: Ctx<unknown>, user: UserRecord, project: ProjectRecord, mr: MergeRequestRecord): Record<string, unknown> {
  if (!canMergeMergeRequest(ctx, project, mr) && mr.author_id !== user.id) throw unauthorized()
  if (!autoMergeEnabled(ctx.db, mr)) return { message: "Can't cancel the automatic merge", status: 'error', http_status: 406 }
  const kept = mr.merge_params?.sha !== undefined ? { sha: mr.merge_params.sha } : {}
  ctx.db.tables.merge_requests.update(mr.id, { merge_when_pipeline_succeeds: false, merge_user_id: null, should_remove_source_branch: null, merge_params: kept, updated_at: ctx.now })
  return { status: 'success' }
}

/**
 * `PUT …/rebase`: `authorize_push_to_merge_request!`, then the rebase, done at once here (GitLab
 * queues it; the answer says it is in progress either way). A rebase that does not apply leaves
 * the branch and sets `merge_error` "Rebase failed. Please rebase locally".
 * @throws ApiError 403 `{"message":"403 Forbidden - Source branch does not exist"}`,
 *   403 `{"message":"403 Forbidden - Cannot push to source branch"}`; 409 for a merge request that is
 *   not open (`rebase_async` refuses it).
 */
export function rebaseMergeRequest(ctx: Ctx<unknown>, user: UserRecord, project: ProjectRecord, mr: MergeRequestRecord): void {
  const repo = repositoryOf(ctx.db, project)
  if (!repo.branches.has(mr.source_branch)) throw forbidden('Source branch does not exist')
  if (!canPushToBranch(ctx, project, repo, mr.source_branch)) throw forbidden('Cannot push to source branch')
  if (mr.state !== 'opened' || !repo.branches.has(mr.target_branch)) {
    throw apiMessage(409, 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.')
  }
  const done = rebaseInStore(ctx, project, mr, user)
  ctx.db.tables.merge_requests.update(mr.id, { merge_error: done ? null : 'Rebase failed. Please rebase locally' })
}
