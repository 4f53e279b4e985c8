/**
 * Every resource area (from the mount list, `areas.ts`) and every route they serve. Order does
 * not decide matching: the router ranks by specificity.
 * @module
 */
import type { Route } from '../core/route.js'
import type { Area } from '../scenario/area.js'
import * as mounted from './areas.js'

export type * from './areas.js'

/**
 * The areas, ordered by name: a module namespace lists its exports sorted, and `areas.ts` exports
 * nothing but areas (the annotation below fails to compile otherwise). This order is also the
 * order in which the scenario loader visits their fragments.
 */
export const areas: readonly Area[] = Object.values(mounted)

/** Every route fakelab serves. */
export const allRoutes: Route[] = areas.flatMap((area) => area.routes)

/** Every web route (outside `/api/v4`) fakelab serves: what API entities link to. */
export const allWebRoutes: Route[] = areas.flatMap((area) => area.webRoutes ?? [])
