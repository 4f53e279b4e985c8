/**
 * Conditional requests GitLab honours on deletes (`destroy_conditionally!`).
 * Source: api-spec.md "Errors" (412); gitlab-behaviour.md §1.2; gitlab: lib/api/helpers.rb `check_unmodified_since!`.
 * @module
 */
import { preconditionFailed } from './errors.js'
import type { Ctx } from './route.js'

/**
 * Refuses a change when the request's `If-Unmodified-Since` is older than the record's
 * `updated_at`. An absent or unparsable header is ignored, as GitLab does.
 * @param updatedAt the record's `updated_at` timestamp.
 * @throws ApiError 412 `{"message":"412 Precondition Failed"}`.
 */
export function checkUnmodifiedSince(ctx: Ctx<unknown>, updatedAt: string): void {
  const header = ctx.request.header('if-unmodified-since')
  if (header === undefined) return
  const since = Date.parse(header)
  if (!Number.isNaN(since) && Date.parse(updatedAt) > since) throw preconditionFailed()
}
