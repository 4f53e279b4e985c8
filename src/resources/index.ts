/**
 * The mount list: every implemented route, one import per resource area, in alphabetical order
 * (like GitLab's api.rb). Order does not decide matching: the router ranks by specificity.
 * @module
 */
import type { Route } from '../core/route.js'
import { freezePeriodRoutes } from './freeze-periods/freeze-periods.routes.js'
import { groupMilestoneRoutes } from './group-milestones/group-milestones.routes.js'
import { groupRoutes } from './groups/groups.routes.js'
import { groupLabelRoutes } from './labels/group-labels.routes.js'
import { projectLabelRoutes } from './labels/project-labels.routes.js'
import { projectRoutes } from './projects/projects.routes.js'
import { userRoutes } from './users/users.routes.js'

/** Every route fakelab serves. */
export const allRoutes: Route[] = [
  ...freezePeriodRoutes,
  ...groupLabelRoutes,
  ...groupMilestoneRoutes,
  ...groupRoutes,
  ...projectLabelRoutes,
  ...projectRoutes,
  ...userRoutes,
]
