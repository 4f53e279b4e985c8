/**
 * The labels area: project and group label routes (one definition for both), the `labels` and
 * `label_priorities` tables, `subscriptions` (labels' and issues'), and `labels:` of scenario groups
 * and projects.
 * gitlab: lib/api/labels.rb, lib/api/group_labels.rb, lib/api/helpers/label_helpers.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { labelImporter } from './labels.import.js'
import { labelFragment } from './labels.scenario.js'
import { labelTables } from './labels.tables.js'
import type { LabelBasic as LabelBasicPresenter } from './label-basic.js'

export type { LabelPriorityRecord, LabelRecord, SubscriptionRecord } from './labels.tables.js'
export type { GroupLabelFields, ProjectLabelFields, ScenarioLabel } from './labels.scenario.js'

/** GitLab's `LabelBasic` entity, as fakelab sends it. */
export type LabelBasic = ReturnType<typeof LabelBasicPresenter>
/**
 * GitLab's `Label` (= `GroupLabel`) entity: `LabelBasic`, the counts (only with
 * `with_counts=true`), `subscribed`. Written out: the presenter builds it key by key for speed.
 * gitlab: lib/api/entities/label.rb
 */
export interface Label extends LabelBasic {
  open_issues_count?: number
  closed_issues_count?: number
  open_merge_requests_count?: number
  subscribed: boolean
}
/** GitLab's `GroupLabel` entity: a {@link Label}. */
export type GroupLabel = Label
/** GitLab's `ProjectLabel` entity: a {@link Label}, its `priority` and `is_project_label`. gitlab: lib/api/entities/project_label.rb */
export interface ProjectLabel extends Label {
  priority: number | null
  is_project_label: boolean
}

/** The labels area. */
export const labels: Area = {
  name: 'labels',
  load: async () => {
    const { labelRoutes } = await import('./labels.routes.js')
    return { api: labelRoutes }
  },
  tables: labelTables,
  scenario: labelFragment,
  importer: labelImporter,
}
