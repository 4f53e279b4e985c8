/**
 * Label entities of the label routes (GitLab 13.x `Label`, `GroupLabel`, `ProjectLabel`). Field
 * order follows lib/api/entities/label.rb and project_label.rb: `LabelBasic`'s fields, the three
 * counts (only when asked for), `subscribed`, and for project labels `priority, is_project_label`.
 * They only present: the relational values come in as {@link LabelFacts}.
 * Source: api-spec.md "Label (project and group)"; gitlab-behaviour.md §12.1, §14 item 5.
 * @module
 */
import type { Source } from '../../core/source.js'
import { LabelBasic } from '../../entities/label.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { LabelFacts } from './labels.facts.js'
import type { LabelRecord } from './labels.tables.js'

/** `Label` (= `GroupLabel`): LabelBasic, the counts when the facts have them, and `subscribed`. */
export function Label(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts) {
  const basic = LabelBasic(label, ctx)
  const subscribed = facts.subscribed.has(label.id)
  const counts = facts.counts?.get(label.id)
  if (!counts) return { ...basic, subscribed }
  return {
    ...basic,
    open_issues_count: counts.openIssues,
    closed_issues_count: counts.closedIssues,
    open_merge_requests_count: counts.openMergeRequests,
    subscribed,
  }
}

/** `GroupLabel`: the same shape as {@link Label}; group routes and `promote` answer with it. */
export function GroupLabel(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts) {
  return Label(label, ctx, facts)
}

/**
 * `ProjectLabel`: Label seen through a project, plus that project's `priority` (integer or null)
 * and `is_project_label` (false for a group label). // gitlab: lib/api/entities/project_label.rb
 */
export function ProjectLabel(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts) {
  return {
    ...Label(label, ctx, facts),
    priority: facts.priorities.get(label.id) ?? null,
    is_project_label: label.project_id !== null,
  }
}

/** The entity a label route answers with: `ProjectLabel` through a project, `GroupLabel` through a group. */
export function presentLabel(label: LabelRecord, ctx: PresentCtx, parent: Source, facts: LabelFacts) {
  return parent.type === 'project' ? ProjectLabel(label, ctx, facts) : GroupLabel(label, ctx, facts)
}
