/**
 * The instance metrics area: the reads clients poll about the instance itself, Sidekiq's
 * `GET /sidekiq/{queue_metrics,process_metrics,job_stats,compound_metrics}` and
 * `GET /application/statistics`. No tables and no scenario fragment: every answer is derived from
 * the store. gitlab: lib/api/sidekiq_metrics.rb, lib/api/statistics.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The instance metrics area. */
export const instanceMetrics: Area = {
  name: 'instance-metrics',
  load: async () => {
    const { instanceMetricsRoutes } = await import('./instance-metrics.routes.js')
    return { api: instanceMetricsRoutes }
  },
}
