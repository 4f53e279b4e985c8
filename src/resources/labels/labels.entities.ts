/**
 * Label entities of the label routes (GitLab 13.x `Label`, `GroupLabel`, `ProjectLabel`). Field
 * order follows lib/api/entities/label.rb and project_label.rb: `LabelBasic`'s fields, the three
 * counts (only when asked for), `subscribed`, and for project labels `priority, is_project_label`.
 * They only present: the relational values come in as {@link LabelFacts}.
 * Source: api-spec.md "Label (project and group)"; gitlab-behaviour.md §12.1, §14 item 5.
 * @module
 */
import type { Source } from '../../rules/source.js'
import { LabelBasic } from './label-basic.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { LabelFacts } from './labels.facts.js'
import type { LabelRecord } from './labels.tables.js'

/**
 * `Label` (= `GroupLabel`): LabelBasic's fields, the counts when the facts have them, and
 * `subscribed`; with `asProject`, `ProjectLabel`'s `priority` (integer or null) and
 * `is_project_label` (false for a group label) follow. // gitlab: lib/api/entities/project_label.rb
 *
 * Written key by key rather than as Grape-like spreads (`{ ...basic, subscribed }`): on Node 20 a
 * spread with extra keys builds objects V8 promotes out of the young generation, and a label list
 * is the hot path the benchmark measures (issue 5: 11.7k → 18.6k lists per CPU-second).
 */
function labelEntity(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts, asProject: boolean) {
  const basic = LabelBasic(label, ctx)
  const counts = facts.counts?.get(label.id)
  const entity: Record<string, unknown> = {
    id: basic.id,
    name: basic.name,
    color: basic.color,
    description: basic.description,
    description_html: basic.description_html,
    text_color: basic.text_color,
  }
  if (counts) {
    entity.open_issues_count = counts.openIssues
    entity.closed_issues_count = counts.closedIssues
    entity.open_merge_requests_count = counts.openMergeRequests
  }
  entity.subscribed = facts.subscribed.has(label.id)
  if (asProject) {
    entity.priority = facts.priorities.get(label.id) ?? null
    entity.is_project_label = label.project_id !== null
  }
  return entity
}

/** `Label`: see {@link labelEntity}. */
export function Label(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts) {
  return labelEntity(label, ctx, facts, false)
}

/** `GroupLabel`: the same shape as {@link Label}; group routes and `promote` answer with it. */
export function GroupLabel(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts) {
  return labelEntity(label, ctx, facts, false)
}

/** `ProjectLabel`: {@link Label} seen through a project, plus `priority` and `is_project_label`. */
export function ProjectLabel(label: LabelRecord, ctx: PresentCtx, facts: LabelFacts) {
  return labelEntity(label, ctx, facts, true)
}

/** The entity a label route answers with: `ProjectLabel` through a project, `GroupLabel` through a group. */
export function presentLabel(label: LabelRecord, ctx: PresentCtx, parent: Source, facts: LabelFacts) {
  return parent.type === 'project' ? ProjectLabel(label, ctx, facts) : GroupLabel(label, ctx, facts)
}
