/**
 * The users area: `/user` and `/users/:id`, and the users of a scenario with their personal and
 * OAuth tokens (those tables are core's: authentication needs them), and the OAuth applications
 * the tokens were issued to. gitlab: lib/api/users.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { userRoutes } from './users.routes.js'
import { userFragment } from './users.scenario.js'
import { userTables } from './users.tables.js'

export type { OauthApplicationFields, ScenarioPersonalAccessToken, UserFields } from './users.scenario.js'
export type { OauthApplicationRecord } from './users.tables.js'

/** The users area. */
export const users: Area = { name: 'users', routes: userRoutes, tables: userTables, scenario: userFragment }
