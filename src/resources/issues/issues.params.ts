/**
 * The list parameters of the three issue lists, declared as GitLab 13.x declares them
 * (`issues_params`, `issues_stats_params`, `negatable_issue_filter_params`), and the checks Grape's
 * custom validators make (`integer_none_any`, `check_assignees_count`), with their messages.
 * Source: api-spec.md "Issues"; gitlab-behaviour.md §4.2; gitlab: lib/api/issues.rb,
 * lib/api/helpers/issues_helpers.rb, lib/api/validations/validators/integer_none_any.rb,
 * lib/api/validations/validators/check_assignees_count.rb.
 * @module
 */
import { ApiError, grapeError } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p, validateParams, type ParamSpecs } from '../../core/params.js'
import type { IssueListFilters, NegatableFilters } from './issues.finder.js'
import { ORDER_BY } from './issues.finder.js'

const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const
const DUE_DATES = ['0', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks', ''] as const

/** Filters shared by the lists and by `not[...]` (the negatable ones), minus what each list adds. */
function negatableSpecs() {
  return {
    labels: p.strings(),
    milestone: p.string(),
    iids: p.integers(),
    author_id: p.integer(),
    author_username: p.string(),
    // Grape `types: [Integer, String], integer_none_any: true`: checked in `checkAssigneeId`.
    assignee_id: p.string(),
    // Grape `Array[String], check_assignees_count: true`: checked in `checkAssigneeUsername`.
    assignee_username: p.strings(),
    my_reaction_emoji: p.string(),
  }
}

/** The params every list declares (`issues_params`), without `scope` and `non_archived`. */
function commonListParams() {
  return {
    with_labels_details: p.boolean({ default: false }),
    state: p.string({ values: ['opened', 'closed', 'all'] as const, default: 'all' }),
    order_by: p.string({ values: ORDER_BY, default: 'created_at' }),
    sort: p.string({ values: ['asc', 'desc'] as const, default: 'desc' }),
    due_date: p.string({ values: DUE_DATES }),
    issue_type: p.string({ values: ['issue', 'incident', 'test_case'] as const }),
    ...negatableSpecs(),
    search: p.string(),
    in: p.string(),
    not: p.hash(),
    created_after: p.datetime(),
    created_before: p.datetime(),
    updated_after: p.datetime(),
    updated_before: p.datetime(),
    confidential: p.boolean(),
    ...paginationParams,
  }
}

/** `GET /issues`: `scope` defaults to `created_by_me`; `non_archived` defaults to true. */
export const globalListParams = {
  ...commonListParams(),
  scope: p.string({ values: SCOPES, default: 'created_by_me' }),
  non_archived: p.boolean({ default: true }),
}

/** `GET /groups/:id/issues`: `scope` defaults to `all`; `non_archived` defaults to true. */
export const groupListParams = {
  id: p.string({ required: true }),
  ...commonListParams(),
  scope: p.string({ values: SCOPES, default: 'all' }),
  non_archived: p.boolean({ default: true }),
}

/** `GET /projects/:id/issues`: `scope` defaults to `all`; no `non_archived`. */
export const projectListParams = {
  id: p.string({ required: true }),
  ...commonListParams(),
  scope: p.string({ values: SCOPES, default: 'all' }),
}

/** `mutually_exclusive` groups of a list (and, prefixed, of its `not`). */
export const issueListRules = {
  mutuallyExclusive: [
    ['author_id', 'author_username'],
    ['assignee_id', 'assignee_username'],
  ],
}

/** `not[...]` keys per list (api-spec.md "Issues": the spec states each list's set). */
const NOT_KEYS = {
  // Global: the higher-tier keys (iteration_*, weight) are accepted and, as in the community
  // edition, filter nothing.
  global: ['labels', 'milestone', 'iids', 'author_id', 'author_username', 'assignee_id', 'assignee_username'],
  group: ['labels', 'milestone', 'author_id', 'author_username', 'assignee_id', 'assignee_username', 'my_reaction_emoji', 'search', 'in'],
  project: ['labels', 'milestone', 'author_id', 'author_username', 'assignee_id', 'assignee_username', 'my_reaction_emoji', 'search', 'in'],
} as const

/** `integer_none_any`: an integer, or `None`/`Any` in any case. */
function checkAssigneeId(name: string, value: string | undefined, errors: string[]): number | string | undefined {
  if (value === undefined) return undefined
  if (/^\s*[-+]?\d+\s*$/.test(value)) return Number.parseInt(value, 10)
  if (['none', 'any'].includes(value.toLowerCase())) return value
  errors.push(`${name} should be an integer, 'None' or 'Any'`)
  return undefined
}

/** `check_assignees_count`: the community edition allows one username. */
function checkAssigneeUsername(name: string, value: string[] | undefined, errors: string[]): void {
  if (value !== undefined && value.length > 1) errors.push(`${name} allows one value, but found ${value.length}: ${value.join(', ')}`)
}

/** The validated `not` hash: its declared keys for the list, Grape messages named `not[key]`. */
function negatedFilters(list: keyof typeof NOT_KEYS, raw: Record<string, unknown> | undefined, errors: string[]): NegatableFilters {
  if (raw === undefined) return {}
  const specs: ParamSpecs = { ...negatableSpecs(), search: p.string(), in: p.string() }
  const allowed = new Set<string>(NOT_KEYS[list])
  const declared: ParamSpecs = {}
  const given: Record<string, unknown> = {}
  for (const key of NOT_KEYS[list]) declared[key] = specs[key]!
  for (const [key, value] of Object.entries(raw)) if (allowed.has(key)) given[key] = value
  let parsed: Record<string, unknown>
  try {
    parsed = validateParams(declared, given, issueListRules)
  } catch (error) {
    // Re-word `author_id is invalid` as Grape names nested params: `not[author_id] is invalid`.
    const message = error instanceof ApiError ? error.body?.error : undefined
    if (typeof message !== 'string') throw error
    errors.push(message.replace(/\b(\w+)(?= (?:is|are|does|has)\b|,)/g, (key) => (allowed.has(key) ? `not[${key}]` : key)))
    return {}
  }
  const out = parsed as NegatableFilters & { assignee_id?: string }
  checkAssigneeUsername('not[assignee_username]', out.assignee_username, errors)
  return { ...out, assignee_id: checkAssigneeId('not[assignee_id]', out.assignee_id, errors) }
}

/**
 * Turns a list's validated params into finder filters, running the custom validators Grape runs
 * after its built-in ones.
 * @throws ApiError 400 `{"error":"assignee_id should be an integer, 'None' or 'Any'"}`,
 *   `{"error":"assignee_username allows one value, but found 2: a, b"}`, and the same for `not[...]`.
 */
export function issueListFilters(list: keyof typeof NOT_KEYS, params: Record<string, unknown>): IssueListFilters {
  const errors: string[] = []
  const assignee_id = checkAssigneeId('assignee_id', params.assignee_id as string | undefined, errors)
  checkAssigneeUsername('assignee_username', params.assignee_username as string[] | undefined, errors)
  const not = negatedFilters(list, params.not as Record<string, unknown> | undefined, errors)
  if (errors.length > 0) throw grapeError(errors.join(', '))
  const scope = String(params.scope).replace(/-/g, '_') as IssueListFilters['scope'] // `underscore`
  return {
    ...(params as Omit<IssueListFilters, 'scope' | 'not' | 'assignee_id'>),
    assignee_id,
    scope,
    not,
  }
}
