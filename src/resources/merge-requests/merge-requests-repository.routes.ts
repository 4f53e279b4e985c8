/**
 * The merge request routes that read or write the repository: create, `changes`, `commits`,
 * `merge_ref`, `merge`, `cancel_merge_when_pipeline_succeeds`, `rebase`.
 * Sources: issue 26 item 3; gitlab: lib/api/merge_requests.rb (13.x),
 * lib/api/entities/merge_request_changes.rb, spec/requests/api/merge_requests_spec.rb.
 * @module
 */
import { forbidden, recordNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { Commit, Diff } from '../repository/repository.public.js'
import { createMergeRequestPipeline } from '../runners/runners.public.js'
import { MergeRequest } from './merge-requests.entities.js'
import { defaultMergeCommitMessage, mergeRefCommit, mergeRequestChanges, mergeRequestCommits } from './merge-requests.git.js'
import { cancelMergeWhenPipelineSucceeds, createMergeRequest, mergeMergeRequest, rebaseMergeRequest } from './merge-requests.merge.js'
import { closingReferences } from './merge-requests.closing.js'
import { canMergeMergeRequest, canReadMergeRequest, canReadPipelines } from './merge-requests.policy.js'
import { mergeRequestByIid } from './merge-requests.public.js'
import { closesIssues, subscribedToMergeRequest } from './merge-requests.service.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

const projectId = { id: p.string({ required: true }) }
const mrIid = { ...projectId, merge_request_iid: p.integer({ required: true }) }
type MrCtx = Ctx<{ id: string; merge_request_iid: number }>

/** `find_merge_request_with_access`: the project, the merge request (404), `read_merge_request` (403). */
function withAccess(ctx: MrCtx): { project: ProjectRecord; mr: MergeRequestRecord } {
  const project = findProject(ctx, ctx.params.id)
  const mr = mergeRequestByIid(ctx.db, project.id, ctx.params.merge_request_iid)
  if (!mr) throw recordNotFound()
  if (!canReadMergeRequest(ctx, project, mr)) throw forbidden()
  return { project, mr }
}

/** `find_project_merge_request`: the project's merge request (404), no further check. */
function projectMergeRequest(ctx: MrCtx): { project: ProjectRecord; mr: MergeRequestRecord } {
  const project = findProject(ctx, ctx.params.id)
  const mr = mergeRequestByIid(ctx.db, project.id, ctx.params.merge_request_iid)
  if (!mr) throw recordNotFound()
  return { project, mr }
}

/** `Entities::MergeRequest` for the caller (as the merge request routes present it). */
function present(ctx: Ctx<unknown>, project: ProjectRecord, mr: MergeRequestRecord) {
  return MergeRequest(mr, ctx, {
    from: { project },
    canMerge: canMergeMergeRequest(ctx, project, mr),
    subscribed: subscribedToMergeRequest(ctx.db, mr, ctx.currentUser),
    withHeadPipeline: canReadPipelines(ctx, project),
  })
}

/** `create_merge_request_from` (and `_in`, same project): Developer+, administrators. */
function canCreateMergeRequest(ctx: Ctx<unknown>, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  return user !== null && !project.archived && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.DEVELOPER)
}

/** The merge request routes on the repository (see the module comment). */
export const mergeRequestRepositoryRoutes: Route[] = [
  route('POST /projects/:id/merge_requests', {
    params: {
      ...projectId,
      title: p.string({ required: true }),
      source_branch: p.string({ required: true }),
      target_branch: p.string({ required: true }),
      target_project_id: p.integer(),
      description: p.string(),
      assignee_id: p.integer(),
      assignee_ids: p.integers(),
      reviewer_ids: p.integers(),
      milestone_id: p.integer(),
      labels: p.strings(),
      remove_source_branch: p.boolean(),
      allow_collaboration: p.boolean(),
      allow_maintainer_to_push: p.boolean(),
      squash: p.boolean(),
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize! :create_merge_request_from, user_project`.
      if (!canCreateMergeRequest(ctx, project)) throw forbidden()
      // spec-gap: `allow_collaboration` concerns merge requests from forks, which have none here.
      const mr = createMergeRequest(ctx, ctx.currentUser!, project, ctx.params)
      // `CreateService#after_create` → `MergeRequests::CreatePipelineService` (the runners area's).
      createMergeRequestPipeline(ctx, project, ctx.currentUser!, mr, ctx.now)
      return created(present(ctx, project, mr))
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/changes', {
    auth: 'optional',
    params: { ...mrIid, access_raw_diffs: p.boolean() },
    handler(ctx) {
      const { project, mr } = withAccess(ctx)
      // `Entities::MergeRequestChanges`: the merge request, its diff's files, and whether they overflowed.
      return ok({ ...present(ctx, project, mr), changes: mergeRequestChanges(ctx.db, mr).map(Diff), overflow: false })
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/commits', {
    auth: 'optional',
    params: { ...mrIid, ...paginationParams },
    handler(ctx) {
      const { project, mr } = withAccess(ctx)
      const found = mergeRequestCommits(ctx.db, mr)
      if (!found) return paginated(ctx, [] as string[], () => null)
      const source = ctx.db.tables.projects.get(mr.source_project_id) ?? project
      return paginated(ctx, found.ids, (id) => Commit(found.repo, id, source, ctx))
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/merge_ref', {
    auth: 'optional',
    params: mrIid,
    handler(ctx) {
      const { project, mr } = withAccess(ctx)
      // `MergeabilityCheckService#execute(recheck: true)`: a failed check is its message, 400.
      const closing = closingReferences(ctx, project, closesIssues(ctx, mr))
      const id = mergeRefCommit(ctx, project, mr, defaultMergeCommitMessage(ctx.db.projectFullPath(project), mr, closing))
      if (id === null) return { status: 400, body: { message: 'Merge request is not mergeable' } }
      return ok({ commit_id: id })
    },
  }),

  route('PUT /projects/:id/merge_requests/:merge_request_iid/merge', {
    params: {
      ...mrIid,
      merge_commit_message: p.string(),
      squash_commit_message: p.string(),
      squash: p.boolean(),
      should_remove_source_branch: p.boolean(),
      merge_when_pipeline_succeeds: p.boolean(),
      sha: p.string(),
    },
    handler(ctx) {
      const { project, mr } = projectMergeRequest(ctx)
      const merged = mergeMergeRequest(ctx, ctx.currentUser!, project, mr, ctx.params)
      return ok(present(ctx, project, merged))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds', {
    params: mrIid,
    handler(ctx) {
      const { project, mr } = projectMergeRequest(ctx)
      return created(cancelMergeWhenPipelineSucceeds(ctx, ctx.currentUser!, project, mr))
    },
  }),

  route('PUT /projects/:id/merge_requests/:merge_request_iid/rebase', {
    params: { ...mrIid, skip_ci: p.boolean() },
    handler(ctx) {
      const { project, mr } = projectMergeRequest(ctx)
      rebaseMergeRequest(ctx, ctx.currentUser!, project, mr)
      return { status: 202, body: { rebase_in_progress: true } }
    },
  }),
]
