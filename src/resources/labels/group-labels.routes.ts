import type { Route } from '../../core/route.js'

/** Group label routes (being written). */
export const groupLabelRoutes: Route[] = []
