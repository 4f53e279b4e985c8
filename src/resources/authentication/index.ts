/**
 * The authentication area: no routes of its own, only the scenario's credentials and settings that
 * `core/auth.ts` reads (signed-in sessions, CI job tokens, the impersonation switch, rate limits).
 * gitlab: lib/api/api_guard.rb, lib/gitlab/auth/auth_finders.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { authenticationFragment } from './authentication.scenario.js'

export type { AuthenticationSettings, JobTokenFields, SessionFields } from './authentication.scenario.js'

/** The authentication area. */
export const authentication: Area = {
  name: 'authentication',
  scenario: authenticationFragment,
}
