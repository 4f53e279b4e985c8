/**
 * `GET /sidekiq/queue_metrics`, `/sidekiq/process_metrics`, `/sidekiq/job_stats`,
 * `/sidekiq/compound_metrics` (administrators only: `before { authenticated_as_admin! }`, anonymous
 * 401, others 403) and `GET /application/statistics` (`authorize! :read_application_statistics`,
 * which GlobalPolicy grants administrators only: anonymous 401, others 403).
 * gitlab: lib/api/sidekiq_metrics.rb, lib/api/statistics.rb, spec/requests/api/statistics_spec.rb.
 * @module
 */
import { ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { ApplicationStatistics, JobStats, ProcessMetric, QueueMetrics } from './instance-metrics.entities.js'
import { applicationCounts, jobStats, queueMetric, sidekiqProcesses, SIDEKIQ_QUEUES } from './instance-metrics.service.js'

const queues = () => QueueMetrics(SIDEKIQ_QUEUES, queueMetric)
const processes = (ctx: Ctx) => sidekiqProcesses(ctx.db, ctx.baseUrl, ctx.now).map(ProcessMetric)

/** The instance metrics routes. */
export const instanceMetricsRoutes: Route[] = [
  route('GET /sidekiq/queue_metrics', { auth: 'admin', handler: () => ok({ queues: queues() }) }),
  route('GET /sidekiq/process_metrics', { auth: 'admin', handler: (ctx) => ok({ processes: processes(ctx) }) }),
  route('GET /sidekiq/job_stats', { auth: 'admin', handler: () => ok({ jobs: JobStats(jobStats()) }) }),
  route('GET /sidekiq/compound_metrics', {
    auth: 'admin',
    handler: (ctx) => ok({ queues: queues(), processes: processes(ctx), jobs: JobStats(jobStats()) }),
  }),
  route('GET /application/statistics', { auth: 'admin', handler: (ctx) => ok(ApplicationStatistics(applicationCounts(ctx.db))) }),
]
