import type { Route } from '../../core/route.js'

/** Group milestone routes (being written). */
export const groupMilestoneRoutes: Route[] = []
