/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests`: the project's merge requests whose
 * latest diff has the commit (`MergeRequestsFinder` with `commit_sha`, the merge requests the
 * caller can read, newest first), as `MergeRequestBasic`. A merge request's diff has the commits
 * its `commits` route lists (its `merge_request_diff_commits`); a scenario merge request whose
 * stored SHAs are not in the repository has none. Needs `download_code` (the commits API's `before`), which covers
 * `read_merge_request` on the project. gitlab: lib/api/commits.rb, app/finders/merge_requests_finder.rb (13.x).
 * @module
 */
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { commitNamed, readableRepository } from '../repository/repository.public.js'
import { MergeRequestBasic } from './merge-requests.entities.js'
import { mergeRequestCommits } from './merge-requests.git.js'
import { canReadMergeRequest } from './merge-requests.policy.js'
import { mergeRequestsOfProject } from './merge-requests.public.js'

/** The route. */
export const commitMergeRequestRoutes: Route[] = [
  route('GET /projects/:id/repository/commits/:sha/merge_requests', {
    auth: 'optional',
    params: { id: p.string({ required: true }), sha: p.string({ required: true }), ...paginationParams },
    handler(ctx) {
      const { project, repo } = readableRepository(ctx)
      const id = commitNamed(repo, project, ctx.params.sha)
      const found = mergeRequestsOfProject(ctx.db, project.id)
        .filter((mr) => canReadMergeRequest(ctx, project, mr))
        .filter((mr) => mergeRequestCommits(ctx.db, mr)?.ids.includes(id) ?? false)
        .sort((a, b) => b.id - a.id)
      return paginated(ctx, found, (mr) => MergeRequestBasic(mr, ctx))
    },
  }),
]
