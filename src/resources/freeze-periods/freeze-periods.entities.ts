/**
 * The deploy freeze period entity. Source: api-spec.md "Freeze period";
 * gitlabhq:lib/api/entities/freeze_period.rb (GitLab 13.x); schema `public_api/v4/freeze_period.json`.
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { FreezePeriodRecord } from './freeze-periods.tables.js'

/** What {@link FreezePeriod} returns: GitLab's `Entities::FreezePeriod`, in its field order. */
export interface FreezePeriodEntity {
  id: number
  /** Cron expression, as stored (whitespace-stripped). */
  freeze_start: string
  /** Cron expression, as stored (whitespace-stripped). */
  freeze_end: string
  /** Time zone of both crons, as given (GitLab does not strip it). */
  cron_timezone: string
  created_at: string
  updated_at: string
}

/**
 * `{id, freeze_start, freeze_end, cron_timezone, created_at, updated_at}`: every freeze period
 * response (list items, get, create, update).
 * @param _ctx unused: the entity derives nothing; kept for the `(record, ctx)` entity signature.
 */
export function FreezePeriod(period: FreezePeriodRecord, _ctx?: PresentCtx): FreezePeriodEntity {
  return {
    id: period.id,
    freeze_start: period.freeze_start,
    freeze_end: period.freeze_end,
    cron_timezone: period.cron_timezone,
    created_at: period.created_at,
    updated_at: period.updated_at,
  }
}
