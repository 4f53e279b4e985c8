/**
 * The small entities of the issue sub-resources (user agent detail, metric image). The full
 * `Issue` entity and its per-page facts are in `issue.entities.ts` (to-dos present it too, through
 * `issues.public.ts`).
 * Field order: gitlab-behaviour.md §4.1 and §4.3; gitlab: lib/api/entities/issue.rb,
 * issue_basic.rb, user_agent_detail.rb, ee/lib/ee/api/entities/issuable_metric_image.rb.
 * @module
 */
import type { MetricImageRecord, UserAgentDetailRecord } from './issues.tables.js'

/** `{user_agent, ip_address, akismet_submitted}` (gitlab: lib/api/entities/user_agent_detail.rb). */
export function UserAgentDetail(detail: UserAgentDetailRecord) {
  return { user_agent: detail.user_agent, ip_address: detail.ip_address, akismet_submitted: detail.akismet_submitted }
}

/** Where an uploaded metric image is served: `/uploads/-/system/issuable_metric_image/file/<id>/<filename>`. */
export function metricImagePath(image: MetricImageRecord): string {
  return `/uploads/-/system/issuable_metric_image/file/${image.id}/${encodeURIComponent(image.filename)}`
}

/**
 * `{id, created_at, filename, file_path, url}`: `file_path` is where the bytes are served (relative
 * to the host), `url` the link given with the upload (null without one).
 * Source: api-spec.md "Metric image"; gitlab: ee/lib/api/entities/issuable_metric_image.rb.
 */
export function MetricImage(image: MetricImageRecord) {
  return { id: image.id, created_at: image.created_at, filename: image.filename, file_path: metricImagePath(image), url: image.url }
}
