/**
 * The milestones area: `/groups/:id/milestones` and `/projects/:id/milestones` routes (one
 * definition over both parents, a group's burndown events, a project milestone's promotion), the
 * `milestones` table (group and project milestones), and `milestones:` of scenario groups and
 * projects. gitlab: lib/api/group_milestones.rb, lib/api/project_milestones.rb,
 * lib/api/milestone_responses.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { milestoneImporter } from './milestones.import.js'
import { milestoneFragment } from './milestones.scenario.js'
import { milestoneTables } from './milestones.tables.js'
import type { Milestone as MilestonePresenter } from './milestones.entities.js'

export type { MilestoneRecord } from './milestones.tables.js'
export type { MilestoneFields, ScenarioMilestone } from './milestones.scenario.js'

/** GitLab's `Milestone` entity, as fakelab sends it. */
export type Milestone = ReturnType<typeof MilestonePresenter>
export type { MilestoneFact } from './milestones.events.js'

/** The milestones area. */
export const milestones: Area = {
  name: 'milestones',
  load: async () => {
    const { milestoneRoutes } = await import('./milestones.routes.js')
    return { api: milestoneRoutes }
  },
  tables: milestoneTables,
  scenario: milestoneFragment,
  importer: milestoneImporter,
  // `Milestones::PromoteService#update_children` and a milestone's deletion move issues and merge
  // requests themselves (`update_all`), as no other area offers that write.
  writes: ['issues', 'merge_requests'],
}
