/**
 * The users area: `/user` and `/users/:id`, and the users of a scenario with their personal and
 * OAuth tokens (the tables are core's: authentication needs them). gitlab: lib/api/users.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { userRoutes } from './users.routes.js'
import { userFragment } from './users.scenario.js'

export type { ScenarioPersonalAccessToken, UserFields } from './users.scenario.js'

/** The users area. */
export const users: Area = { name: 'users', routes: userRoutes, scenario: userFragment }
