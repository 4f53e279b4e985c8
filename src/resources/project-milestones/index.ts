/**
 * The project milestones area: `/projects/:id/milestones` routes. The milestones themselves (the
 * `milestones` table, `milestones:` of scenario projects, the `Milestone` entity and the milestone
 * rules) belong to the group milestones area, which offers them through its public module; this
 * area adds the project routes and the promotion to a group milestone.
 * gitlab: lib/api/project_milestones.rb, lib/api/milestone_responses.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { projectMilestoneRoutes } from './project-milestones.routes.js'

/** The project milestones area. */
export const projectMilestones: Area = {
  name: 'project-milestones',
  routes: projectMilestoneRoutes,
  // `Milestones::PromoteService#update_children` moves issues and merge requests to the new group
  // milestone itself (`update_all`), as no other area offers that write.
  writes: ['issues', 'merge_requests'],
}
