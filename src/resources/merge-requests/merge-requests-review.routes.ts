/**
 * A merge request's review as GitLab 13.12 CE has it: approvals (`GET …/approvals`, `POST …/approve`
 * with an optional `sha`, `POST …/unapprove`; any number of approvals, one per user, none required),
 * diff versions (`GET …/versions`, `…/versions/:version_id`) and `POST …/pipelines` (a merge request
 * pipeline on demand). `…/approval_state`, approval rules and project approval settings are EE
 * (GitLab Premium): CE answers them with its catch-all 404, as fakelab does.
 * Sources: issue 34 item 2; gitlab (13.12): lib/api/merge_request_approvals.rb,
 * lib/api/entities/merge_request_approvals.rb, lib/api/entities/approvals.rb,
 * app/models/concerns/approvable_base.rb (`can_be_approved_by?`), app/policies/merge_request_policy.rb
 * (`approve_merge_request` = `update_merge_request`), app/services/merge_requests/approval_service.rb,
 * remove_approval_service.rb, lib/api/merge_request_diffs.rb, lib/api/entities/merge_request_diff.rb,
 * merge_request_diff_full.rb, lib/api/merge_requests.rb (`post ':id/merge_requests/:merge_request_iid/pipelines'`),
 * app/services/merge_requests/create_pipeline_service.rb, lib/api/helpers.rb (`check_sha_param!`).
 * @module
 */
import { ApiError, forbidden, notAllowed, notFound, recordNotFound, unauthorized, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { PresentCtx } from '../../entities/urls.js'
import { UserBasic } from '../../entities/user.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { Commit, Diff } from '../repository/repository.public.js'
import { canCreatePipeline, Pipeline, requestMergeRequestPipeline } from '../runners/runners.public.js'
import { publishApproval } from './merge-requests.events.js'
import { diffFacts, mergeRequestCommits } from './merge-requests.git.js'
import { canReadMergeRequest, canUpdateMergeRequest } from './merge-requests.policy.js'
import { mergeRequestByIid } from './merge-requests.public.js'
import type { MergeRequestDiffRecord, MergeRequestRecord } from './merge-requests.tables.js'
import { versionCommits, versionDiffs, versionsOf } from './merge-requests.versions.js'

const mrIid = { id: p.string({ required: true }), merge_request_iid: p.integer({ required: true }) }
type MrCtx = Ctx<{ id: string; merge_request_iid: number }>

/**
 * `find_merge_request_with_access(iid, ability)`: the project (404), the merge request (404
 * `Not found`), then `read_merge_request` or `approve_merge_request` (403).
 */
function withAccess(ctx: MrCtx, ability: 'read' | 'approve' = 'read'): { project: ProjectRecord; mr: MergeRequestRecord } {
  const project = findProject(ctx, ctx.params.id)
  const mr = mergeRequestByIid(ctx.db, project.id, ctx.params.merge_request_iid)
  if (!mr) throw recordNotFound()
  const allowed = ability === 'read' ? canReadMergeRequest(ctx, project, mr) : canUpdateMergeRequest(ctx, project, mr)
  if (!allowed) throw forbidden()
  return { project, mr }
}

/** The approvals of a merge request, oldest first. */
function approvalsOf(ctx: Ctx<unknown>, mr: MergeRequestRecord) {
  return ctx.db.tables.merge_request_approvals.where('merge_request_id', mr.id)
}

/** `approved_by?(user)`. */
function approvedBy(ctx: Ctx<unknown>, mr: MergeRequestRecord, user: UserRecord | null): boolean {
  return user !== null && approvalsOf(ctx, mr).some((a) => a.user_id === user.id)
}

/** `can_be_approved_by?(user)`: signed in, not approved yet, and may `approve_merge_request`. */
function canBeApprovedBy(ctx: Ctx<unknown>, project: ProjectRecord, mr: MergeRequestRecord): boolean {
  return ctx.currentUser !== null && !approvedBy(ctx, mr, ctx.currentUser) && canUpdateMergeRequest(ctx, project, mr)
}

/**
 * CE's `Entities::MergeRequestApprovals`: `user_has_approved`, `user_can_approve` (for the caller),
 * `approved` (any approval at all), `approved_by` (`Entities::Approvals`: `{user: UserBasic}`, oldest first).
 */
function MergeRequestApprovals(ctx: Ctx<unknown>, project: ProjectRecord, mr: MergeRequestRecord) {
  const approvals = approvalsOf(ctx, mr)
  return {
    user_has_approved: approvedBy(ctx, mr, ctx.currentUser),
    user_can_approve: canBeApprovedBy(ctx, project, mr),
    approved: approvals.length > 0,
    approved_by: approvals.flatMap((a) => {
      const user = ctx.db.tables.users.get(a.user_id)
      return user ? [{ user: UserBasic(user, ctx) }] : []
    }),
  }
}

/** `Entities::MergeRequestDiff`: the version's SHAs, when it was made, its merge request, state and size. */
function MergeRequestDiff(version: MergeRequestDiffRecord) {
  return {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at,
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: version.real_size,
  }
}

/** `Entities::MergeRequestDiffFull`: the version with its commits (newest first, `Entities::Commit`) and its files (`Entities::Diff`). */
function MergeRequestDiffFull(ctx: PresentCtx, project: ProjectRecord, mr: MergeRequestRecord, version: MergeRequestDiffRecord) {
  const found = versionCommits(ctx.db, mr, version)
  const source = ctx.db.tables.projects.get(mr.source_project_id) ?? project
  return {
    ...MergeRequestDiff(version),
    commits: found ? found.ids.map((id) => Commit(found.repo, id, source, ctx)) : [],
    diffs: versionDiffs(ctx.db, mr, version).map(Diff),
  }
}

/** The review routes (see the module comment). */
export const mergeRequestReviewRoutes: Route[] = [
  route('GET /projects/:id/merge_requests/:merge_request_iid/approvals', {
    auth: 'optional',
    params: mrIid,
    handler(ctx) {
      const { project, mr } = withAccess(ctx)
      return ok(MergeRequestApprovals(ctx, project, mr))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/approve', {
    params: { ...mrIid, sha: p.string() },
    handler(ctx) {
      const { project, mr } = withAccess(ctx, 'approve')
      // `check_sha_param!`: the head of the source branch as the merge request reads it.
      const head = diffFacts(ctx.db, mr).sha
      if (ctx.params.sha !== undefined && ctx.params.sha !== head) throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${head ?? ''}` })
      // `ApprovalService#execute` gives nil for a second approval: `unauthorized!`.
      if (!canBeApprovedBy(ctx, project, mr)) throw unauthorized()
      ctx.db.tables.merge_request_approvals.insert({ merge_request_id: mr.id, user_id: ctx.currentUser!.id, created_at: ctx.now, updated_at: ctx.now })
      publishApproval(ctx, mr, 'approved', ctx.currentUser!.id)
      return created(MergeRequestApprovals(ctx, project, mr))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/unapprove', {
    params: mrIid,
    handler(ctx) {
      const { project, mr } = withAccess(ctx, 'approve')
      // `RemoveApprovalService#execute` gives nil unless the caller had approved: `not_found!`.
      const mine = approvalsOf(ctx, mr).filter((a) => a.user_id === ctx.currentUser!.id)
      if (mine.length === 0) throw notFound()
      for (const approval of mine) ctx.db.tables.merge_request_approvals.delete(approval.id)
      publishApproval(ctx, mr, 'unapproved', ctx.currentUser!.id)
      return created(MergeRequestApprovals(ctx, project, mr))
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/versions', {
    auth: 'optional',
    params: { ...mrIid, ...paginationParams },
    handler(ctx) {
      const { mr } = withAccess(ctx)
      return paginated(ctx, versionsOf(ctx.db, mr), MergeRequestDiff)
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/versions/:version_id', {
    auth: 'optional',
    params: { ...mrIid, version_id: p.integer({ required: true }) },
    handler(ctx) {
      const { project, mr } = withAccess(ctx)
      const version = versionsOf(ctx.db, mr).find((v) => v.id === ctx.params.version_id)
      if (!version) throw recordNotFound()
      return ok(MergeRequestDiffFull(ctx, project, mr, version))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/pipelines', {
    params: mrIid,
    handler(ctx) {
      const { project, mr } = withAccess(ctx)
      // `CreatePipelineService#can_create_pipeline_for?`: none for a merge request without commits
      // (the API then says `not_allowed!`). Creating it needs `create_pipeline` on the project,
      // which `Ci::CreatePipelineService`'s abilities check (the chain's first) refuses with its 400.
      const commits = mergeRequestCommits(ctx.db, mr)
      if (!commits || commits.ids.length === 0) throw notAllowed()
      if (!canCreatePipeline(ctx, project)) throw validationFailed({ base: ['Insufficient permissions to create a new pipeline'] })
      const pipeline = requestMergeRequestPipeline(ctx, project, ctx.currentUser!, mr, ctx.now)
      // `status :ok`: 200, not 201.
      return ok(Pipeline(pipeline, ctx))
    },
  }),
]
