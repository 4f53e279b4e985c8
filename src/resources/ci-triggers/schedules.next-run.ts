/**
 * A pipeline schedule's `next_run_at` (`Schedulable#calculate_next_run_at`): the cron's next time
 * in its zone, moved to the scheduler's next tick (`pipeline_schedule_worker`, `19 * * * *` UTC
 * in 13.12) unless that tick is the very same time. gitlab: app/models/concerns/schedulable.rb,
 * app/models/ci/pipeline_schedule.rb, config/initializers/1_settings.rb (13.12).
 * @module
 */
import { cronZoneName, nextCronTime } from '../freeze-periods/freeze-periods.public.js'

/** The scheduler's cron (`Settings.cron_jobs['pipeline_schedule_worker']['cron']`, 13.12 default). */
const WORKER_CRON = '19 * * * *'

/**
 * The next run after `now` (ISO 8601) of a schedule with this cron and zone, ISO 8601; null when
 * the cron cannot be read.
 */
export function nextRunAt(cron: string, zone: string, now: string): string | null {
  const from = new Date(now)
  const ideal = nextCronTime(cron, cronZoneName(zone), from)
  if (!ideal) return null
  const worker = nextCronTime(WORKER_CRON, 'UTC', from)
  if (worker && worker.getTime() === ideal.getTime()) return ideal.toISOString()
  return (nextCronTime(WORKER_CRON, 'UTC', ideal) ?? ideal).toISOString()
}
