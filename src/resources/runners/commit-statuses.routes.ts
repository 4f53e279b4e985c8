/**
 * The commit statuses API: a commit's statuses listed, and a status posted by an outside CI
 * system. Both need a signed-in user (`before { authenticate! }`), public project or not; the
 * project is found first (404), then the permission (`read_commit_status`: what `download_code`
 * needs, Reporter+ or any reader of a public or internal project; `create_commit_status`:
 * Developer+), then the commit (404 `{"message":"404 Commit Not Found"}`).
 * Source: issue 26 item 2; gitlab (13.x): lib/api/commit_statuses.rb, lib/api/entities/commit_status.rb,
 * app/policies/project_policy.rb, app/policies/ci/pipeline_policy.rb (`update_pipeline`).
 * @module
 */
import { forbidden, notFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { canDownloadCode, commitIdOf } from '../repository/repository.public.js'
import { COMMIT_STATUS_STATES, commitStatuses, postCommitStatus } from './commit-statuses.service.js'
import { CommitStatus } from './pipelines.entities.js'
import { canDevelop } from './pipelines.service.js'

const projectParam = { id: p.string({ required: true }) }

/** The commit statuses routes. */
export const commitStatusRoutes: Route[] = [
  route('GET /projects/:id/repository/commits/:sha/statuses', {
    params: {
      ...projectParam,
      sha: p.string({ required: true }),
      ref: p.string(),
      stage: p.string(),
      name: p.string(),
      // A String in 13.x, read with `to_boolean` (anything else is false).
      all: p.string(),
      ...paginationParams,
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `read_commit_status`: the rule of `download_code` in 13.x's ProjectPolicy.
      if (!canDownloadCode(ctx, project)) throw forbidden()
      if (commitIdOf(ctx, project, ctx.params.sha) === undefined) throw notFound('Commit')
      const statuses = commitStatuses(ctx.db, project, ctx.params.sha, ctx.params)
      return paginated(ctx, statuses, (status) => CommitStatus(status, ctx))
    },
  }),

  route('POST /projects/:id/statuses/:sha', {
    params: {
      ...projectParam,
      sha: p.string({ required: true }),
      state: p.string({ required: true, values: COMMIT_STATUS_STATES }),
      ref: p.string(),
      target_url: p.string(),
      description: p.string(),
      name: p.string(),
      context: p.string(),
      coverage: p.float(),
      pipeline_id: p.integer(),
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canDevelop(ctx, project)) throw forbidden()
      return created(CommitStatus(postCommitStatus(ctx, project, ctx.currentUser!, ctx.params.sha, ctx.params, ctx.now), ctx))
    },
  }),
]
