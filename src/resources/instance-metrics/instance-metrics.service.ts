/**
 * What the instance metrics are made of. fakelab runs every background job inside the request
 * that causes it (storage moves progress between requests, see `Area.beforeRequest`), so its one
 * simulated Sidekiq process is never busy and no queue has a backlog: the answer a client waiting
 * for Sidekiq to settle (python-gitlab's `wait_for_sidekiq`) needs at once.
 * gitlab: lib/api/sidekiq_metrics.rb, lib/api/statistics.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import { issueCount } from '../issues/issues.public.js'
import { mergeRequestCount } from '../merge-requests/merge-requests.public.js'
import { allMilestones } from '../milestones/milestones.public.js'
import { noteCount } from '../notes/notes.public.js'
import { snippetCount } from '../snippets/snippets.public.js'
import type { ApplicationCounts, QueueMetric, SidekiqProcess } from './instance-metrics.entities.js'

/**
 * The queues of the simulated process, sorted by name as `Sidekiq::Queue.all` lists them: a
 * selection of GitLab 13.12's queue-per-worker names (app/workers/all_queues.yml) with the
 * `default` and `mailers` queues every installation has.
 * spec-gap: a real 13.12 lists its ~400 queues; clients read `default` (python-gitlab's test).
 */
export const SIDEKIQ_QUEUES: readonly string[] = [
  'authorized_projects',
  'default',
  'mailers',
  'merge',
  'new_issue',
  'new_merge_request',
  'new_note',
  'pipeline_cache:expire_job_cache',
  'pipeline_creation:create_pipeline',
  'pipeline_processing:build_finished',
  'pipeline_processing:pipeline_process',
  'post_receive',
  'project_destroy',
  'web_hook',
].sort()

/** Every queue is empty: backlog 0, latency 0 s. */
export function queueMetric(_queue: string): QueueMetric {
  return { backlog: 0, latency: 0 }
}

/**
 * The one simulated Sidekiq process: on the simulated host (the base URL's host name), started when
 * the instance was set up (the first user's `created_at`, else `now`), serving every queue, idle.
 * spec-gap: pid 1 and concurrency 25 (Sidekiq's default in 13.x omnibus-less installs) are fixed.
 */
export function sidekiqProcesses(db: Db, baseUrl: string, now: string): SidekiqProcess[] {
  let startedAt = now
  for (const user of db.tables.users.all()) if (user.created_at < startedAt) startedAt = user.created_at
  return [{
    hostname: new URL(baseUrl).hostname,
    pid: 1,
    tag: 'gitlab',
    startedAt,
    queues: SIDEKIQ_QUEUES,
    concurrency: 25,
    busy: 0,
  }]
}

/**
 * `Sidekiq::Stats`: nothing has waited or failed; fakelab keeps no count of the jobs its requests
 * ran, so `processed` is 0 too (spec-gap).
 */
export function jobStats(): { processed: number; failed: number; enqueued: number } {
  return { processed: 0, failed: 0, enqueued: 0 }
}

/**
 * The counts behind `GET /application/statistics`, exact where GitLab's are approximate
 * (`Gitlab::Database::Count.approximate_counts`, exact on a small instance). `forks` is
 * fork network members minus fork networks: 0, as fakelab simulates no forks; `ssh_keys` 0, as it
 * simulates no SSH keys. `active_users` is `User.active` (state active, no internal users: the ghost).
 */
export function applicationCounts(db: Db): ApplicationCounts {
  let activeUsers = 0
  for (const user of db.tables.users.all()) if (user.state === 'active' && user.user_type !== 'ghost') activeUsers++
  return {
    forks: 0,
    issues: issueCount(db),
    mergeRequests: mergeRequestCount(db),
    notes: noteCount(db),
    snippets: snippetCount(db),
    sshKeys: 0,
    milestones: allMilestones(db).length,
    users: db.tables.users.size,
    projects: db.tables.projects.size,
    groups: db.tables.groups.size,
    activeUsers,
  }
}
