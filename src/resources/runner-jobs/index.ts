/**
 * The runner-jobs area: the runner's own API for jobs (GitLab 13.12 `lib/api/ci/runner.rb`
 * `resource :jobs`): a runner requests a job and gets its payload (`Entities::JobRequest::Response`,
 * its variables in GitLab's order), reports its state, appends its log, uploads its artifacts
 * archive and downloads a dependency's. No tables of its own: the builds, runners and artifacts
 * are the runners area's, reached through `runners/runner-api.public.ts`.
 * gitlab (13.12): lib/api/ci/runner.rb, lib/api/entities/job_request/*.rb,
 * app/presenters/ci/build_runner_presenter.rb, app/services/ci/register_job_service.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The runner-jobs area. */
export const runnerJobs: Area = {
  name: 'runner-jobs',
  load: async () => {
    const { runnerJobRoutes } = await import('./runner-jobs.routes.js')
    return { api: runnerJobRoutes }
  },
}
