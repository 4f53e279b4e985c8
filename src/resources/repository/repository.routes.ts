/**
 * The repository read routes (filled in below).
 * @module
 */
import type { Route } from '../../core/route.js'

/** Every route of the repository area. */
export const repositoryRoutes: Route[] = []
