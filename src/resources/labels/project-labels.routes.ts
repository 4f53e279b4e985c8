import type { Route } from '../../core/route.js'

/** Project label routes (being written). */
export const projectLabelRoutes: Route[] = []
