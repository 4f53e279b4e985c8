/**
 * The namespaces area: `GET /namespaces`, the lookup clients make to find where a project can go
 * (a user's personal namespace and the groups they belong to). It owns no table: namespaces are
 * the users' and groups' rows. gitlab: lib/api/namespaces.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { namespaceRoutes } from './namespaces.routes.js'

/** The namespaces area. */
export const namespaces: Area = { name: 'namespaces', routes: namespaceRoutes }
