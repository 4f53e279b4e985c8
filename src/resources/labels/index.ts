/**
 * The labels area: project and group label routes (one definition for both), the `labels` and
 * `label_priorities` tables, and `labels:` of scenario groups and projects.
 * gitlab: lib/api/labels.rb, lib/api/group_labels.rb, lib/api/helpers/label_helpers.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { labelImporter } from './labels.import.js'
import { labelRoutes } from './labels.routes.js'
import { labelFragment } from './labels.scenario.js'
import { labelTables } from './labels.tables.js'

export type { LabelPriorityRecord, LabelRecord } from './labels.tables.js'
export type { GroupLabelFields, ProjectLabelFields, ScenarioLabel } from './labels.scenario.js'

/** The labels area. */
export const labels: Area = {
  name: 'labels',
  routes: labelRoutes,
  tables: labelTables,
  scenario: labelFragment,
  importer: labelImporter,
}
