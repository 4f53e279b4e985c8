import type { Route } from '../../core/route.js'

/** Freeze period routes (being written). */
export const freezePeriodRoutes: Route[] = []
