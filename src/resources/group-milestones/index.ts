/**
 * The group milestones area: `/groups/:id/milestones` routes, the `milestones` table (group and
 * project milestones), and `milestones:` of scenario groups and projects.
 * gitlab: lib/api/group_milestones.rb, lib/api/milestone_responses.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { groupMilestoneRoutes } from './group-milestones.routes.js'
import { milestoneImporter } from './milestones.import.js'
import { milestoneFragment } from './milestones.scenario.js'
import { milestoneTables } from './milestones.tables.js'
import type { Milestone as MilestonePresenter } from './milestones.entities.js'

export type { MilestoneRecord } from './milestones.tables.js'
export type { MilestoneFields, ScenarioMilestone } from './milestones.scenario.js'

/** GitLab's `Milestone` entity, as fakelab sends it. */
export type Milestone = ReturnType<typeof MilestonePresenter>

/** The group milestones area. */
export const groupMilestones: Area = {
  name: 'group-milestones',
  routes: groupMilestoneRoutes,
  tables: milestoneTables,
  scenario: milestoneFragment,
  importer: milestoneImporter,
}
