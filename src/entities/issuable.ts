/**
 * What GitLab's issuable entities share (issues and merge requests, and the areas that show them):
 * time stats, task completion and references. Field order follows GitLab 13.x
 * `lib/api/entities/issuable_references.rb`, `issuable_time_stats.rb` (gitlab-behaviour.md §4.1, §5).
 * @module
 */
import type { GroupRecord, ProjectRecord } from '../db/schema.js'
import { taskCompletion } from '../rules/task-list.js'
import type { PresentCtx } from './urls.js'

// ---- time tracking ----------------------------------------------------------------------------

const MINUTE = 60
const HOUR = 60 * MINUTE
/** GitLab's time tracking day: 8 hours. */
const HOURS_PER_DAY = 8
/** GitLab's time tracking month: 20 days (so a week is 5 days). */
const DAYS_PER_MONTH = 20
const DAYS_PER_WEEK = DAYS_PER_MONTH / 4
const DAY = HOURS_PER_DAY * HOUR
const MONTH = DAYS_PER_MONTH * DAY
/** ChronicDuration's year: 365.25 days of 24 hours, not scaled to working days. */
const YEAR = 31_557_600

/** `text` with `"<n><unit>"` appended (space-separated), unless `n` is 0. */
function withPart(text: string, n: number, unit: string): string {
  if (n === 0) return text
  return text === '' ? `${n}${unit}` : `${text} ${n}${unit}`
}

/**
 * A duration in seconds as GitLab prints it (`human_time_estimate`, `human_total_time_spent`):
 * `"1mo 2w 3d 4h 5m 6s"`, zero parts dropped, 8-hour days, 5-day weeks, 4-week months.
 * `0` gives `null`. A negative value is not cascaded and prints as seconds (`"-3600s"`), which is
 * what the 13.x ChronicDuration fork does.
 * Source: gitlab-behaviour.md §5; gitlab: lib/gitlab/time_tracking_formatter.rb (`output`).
 */
export function humanTimeDuration(seconds: number): string | null {
  let rest = Math.trunc(seconds)
  if (rest === 0) return null
  let years = 0
  let months = 0
  let weeks = 0
  let days = 0
  let hours = 0
  let minutes = 0
  if (rest >= YEAR && rest % YEAR < rest % MONTH) {
    years = Math.floor(rest / YEAR)
    months = Math.floor((rest % YEAR) / MONTH)
    days = Math.floor(((rest % YEAR) % MONTH) / DAY)
    hours = Math.floor((((rest % YEAR) % MONTH) % DAY) / HOUR)
    minutes = Math.floor(((((rest % YEAR) % MONTH) % DAY) % HOUR) / MINUTE)
    rest = ((((rest % YEAR) % MONTH) % DAY) % HOUR) % MINUTE
  } else if (rest >= MINUTE) {
    minutes = Math.floor(rest / MINUTE)
    rest %= MINUTE
    if (minutes >= 60) {
      hours = Math.floor(minutes / 60)
      minutes %= 60
      if (hours >= HOURS_PER_DAY) {
        days = Math.floor(hours / HOURS_PER_DAY)
        hours %= HOURS_PER_DAY
        if (days >= DAYS_PER_WEEK) {
          weeks = Math.floor(days / DAYS_PER_WEEK)
          days %= DAYS_PER_WEEK
          if (weeks >= 4) {
            months = Math.floor(weeks / 4)
            weeks %= 4
          }
        }
      }
    }
  }
  // No arrays: two of these per issue on every list page.
  let text = withPart('', years, 'y')
  text = withPart(text, months, 'mo')
  text = withPart(text, weeks, 'w')
  text = withPart(text, days, 'd')
  text = withPart(text, hours, 'h')
  text = withPart(text, minutes, 'm')
  text = withPart(text, rest, 's')
  return text === '' ? null : text
}

/** What time stats are computed from: seconds estimated and seconds spent (sum of time logs). */
export interface TimeTracked {
  time_estimate: number
  total_time_spent: number
}

/**
 * `IssuableTimeStats`: `{time_estimate, total_time_spent, human_time_estimate,
 * human_total_time_spent}`, seconds plus their {@link humanTimeDuration} forms.
 * gitlab: lib/api/entities/issuable_time_stats.rb.
 */
export function IssuableTimeStats(record: TimeTracked) {
  return {
    time_estimate: record.time_estimate,
    total_time_spent: record.total_time_spent,
    human_time_estimate: humanTimeDuration(record.time_estimate),
    human_total_time_spent: humanTimeDuration(record.total_time_spent),
  }
}

// ---- task lists -------------------------------------------------------------------------------

/**
 * `task_completion_status`: `{count, completed_count}` over the description's task list items,
 * found as GitLab's `Taskable::ITEM_PATTERN` finds them, in linear time (rules/task-list.ts).
 * gitlab: app/models/concerns/taskable.rb.
 */
export function taskCompletionStatus(description: string | null) {
  return taskCompletion(description)
}

// ---- references -------------------------------------------------------------------------------

/**
 * What a reference is relative to: the project or group the request is about (GitLab's
 * `options[:project]` / `options[:group]`), or null for none (global lists, milestone lists).
 */
export type ReferenceFrom = { project: ProjectRecord } | { group: GroupRecord } | null

/**
 * The project part of a reference (`Project#to_reference_base`): empty when `from` is null or
 * the project itself, the project `path` from a sibling project or from the project's own group,
 * the full path otherwise (or always, with `full`).
 */
function referenceBase(ctx: PresentCtx, project: ProjectRecord, from: ReferenceFrom, full: boolean, fullPath: string | undefined): string {
  if (full) return fullPath ?? ctx.db.projectFullPath(project)
  if (from === null) return ''
  if ('project' in from) {
    if (from.project.id === project.id) return ''
    const sameNamespace = from.project.namespace_type === project.namespace_type && from.project.namespace_id === project.namespace_id
    return sameNamespace ? project.path : fullPath ?? ctx.db.projectFullPath(project)
  }
  const inGroup = project.namespace_type === 'group' && project.namespace_id === from.group.id
  return inGroup ? project.path : fullPath ?? ctx.db.projectFullPath(project)
}

/**
 * An issuable reference such as `#2`, `website#2` or `acme/website!1`.
 * @param prefix `#` for issues, `!` for merge requests.
 * @param fullPath the project's full path when the caller has it already (else looked up if needed).
 * gitlab: app/models/issue.rb, merge_request.rb (`to_reference`); app/models/project.rb (`to_reference_base`).
 */
export function issuableReference(
  ctx: PresentCtx,
  project: ProjectRecord | undefined,
  prefix: '#' | '!',
  iid: number,
  from: ReferenceFrom,
  full = false,
  fullPath?: string,
): string {
  const base = project ? referenceBase(ctx, project, from, full, fullPath) : ''
  return `${base}${prefix}${iid}`
}

/**
 * `IssuableReferences`: `{short, relative, full}`, with `relative` computed against `from`.
 * gitlab: lib/api/entities/issuable_references.rb.
 * @param fullPath the project's full path when the caller has it already (else looked up).
 */
export function IssuableReferences(
  ctx: PresentCtx,
  project: ProjectRecord | undefined,
  prefix: '#' | '!',
  iid: number,
  from: ReferenceFrom,
  fullPath?: string,
) {
  return {
    short: `${prefix}${iid}`,
    relative: issuableReference(ctx, project, prefix, iid, from, false, fullPath),
    full: issuableReference(ctx, project, prefix, iid, null, true, fullPath),
  }
}
