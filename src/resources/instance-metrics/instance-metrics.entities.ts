/**
 * The bodies of the instance metrics routes, written key by key in GitLab's order.
 * gitlab: lib/api/sidekiq_metrics.rb (its helpers `queue_metrics`, `process_metrics`, `job_stats`),
 * lib/api/entities/application_statistics.rb.
 * @module
 */

/** One Sidekiq queue as `queue_metrics` shows it: jobs waiting and the oldest one's age in seconds. */
export interface QueueMetric {
  /** Jobs waiting in the queue. */
  backlog: number
  /** Seconds the oldest waiting job has waited (`queue.latency.to_i`), 0 when empty. */
  latency: number
}

/** A Sidekiq process as fakelab simulates it (one process serving every queue). */
export interface SidekiqProcess {
  hostname: string
  pid: number
  tag: string
  /** When the process started, a GitLab timestamp. */
  startedAt: string
  queues: readonly string[]
  concurrency: number
  /** Jobs it runs right now. */
  busy: number
}

/** `{ "<queue>": {backlog, latency}, ... }` in the order of `queues` (Sidekiq sorts them by name). */
export function QueueMetrics(queues: readonly string[], metric: (queue: string) => QueueMetric): Record<string, { backlog: number; latency: number }> {
  const out: Record<string, { backlog: number; latency: number }> = {}
  for (const queue of queues) {
    const { backlog, latency } = metric(queue)
    out[queue] = { backlog, latency }
  }
  return out
}

/** One entry of `processes`: hostname, pid, tag, started_at, queues, labels, concurrency, busy. */
export function ProcessMetric(process: SidekiqProcess) {
  return {
    hostname: process.hostname,
    pid: process.pid,
    tag: process.tag,
    started_at: process.startedAt,
    queues: [...process.queues],
    labels: [] as string[],
    concurrency: process.concurrency,
    busy: process.busy,
  }
}

/** `Sidekiq::Stats` as `job_stats` shows it: processed, failed, enqueued. */
export function JobStats(stats: { processed: number; failed: number; enqueued: number }) {
  return { processed: stats.processed, failed: stats.failed, enqueued: stats.enqueued }
}

/** The counts `Entities::ApplicationStatistics` shows, before formatting. */
export interface ApplicationCounts {
  forks: number
  issues: number
  mergeRequests: number
  notes: number
  snippets: number
  sshKeys: number
  milestones: number
  users: number
  projects: number
  groups: number
  activeUsers: number
}

/**
 * Rails' `number_with_delimiter`: `1234567` → `"1,234,567"` (the entity sends every count as a
 * string). gitlab: app/helpers/count_helper.rb.
 */
function withDelimiter(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** `Entities::ApplicationStatistics`, every value a delimited string, in GitLab's order. */
export function ApplicationStatistics(c: ApplicationCounts) {
  return {
    forks: withDelimiter(c.forks),
    issues: withDelimiter(c.issues),
    merge_requests: withDelimiter(c.mergeRequests),
    notes: withDelimiter(c.notes),
    snippets: withDelimiter(c.snippets),
    ssh_keys: withDelimiter(c.sshKeys),
    milestones: withDelimiter(c.milestones),
    users: withDelimiter(c.users),
    projects: withDelimiter(c.projects),
    groups: withDelimiter(c.groups),
    active_users: withDelimiter(c.activeUsers),
  }
}
