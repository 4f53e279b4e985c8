/**
 * The users area: `/user` and `/users/:id`, and the users of a scenario with their personal and
 * OAuth tokens (those tables are core's: authentication needs them), and the OAuth applications
 * the tokens were issued to; uploaded avatars, served at their `avatar_url`. gitlab: lib/api/users.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { userAvatarTables } from './users.avatars.js'
import { userFragment } from './users.scenario.js'
import { userTables } from './users.tables.js'

export type { OauthApplicationFields, ScenarioPersonalAccessToken, UserFields } from './users.scenario.js'
export type { OauthApplicationRecord } from './users.tables.js'
export type { UserAvatarRecord } from './users.avatars.js'
export type { UserFollowUserRecord } from './users.tables.js'
export type { UserFact } from './users.events.js'

/** The users area. */
export const users: Area = {
  name: 'users',
  load: async () => {
    const [{ userRoutes }, { userAvatarWebRoutes }, { impersonationTokenRoutes }, { userActivityRoutes }, { userFollowRoutes }, { personalAccessTokenRoutes }, { userPreferenceRoutes }] = await Promise.all([
      import('./users.routes.js'),
      import('./users.avatars.js'),
      import('./users.impersonation-tokens.js'),
      import('./users.activities.js'),
      import('./users.follows.js'),
      import('./users.personal-access-tokens.js'),
      import('./users.preferences.js'),
    ])
    return { api: [...userRoutes, ...impersonationTokenRoutes, ...userActivityRoutes, ...userFollowRoutes, ...personalAccessTokenRoutes, ...userPreferenceRoutes], web: userAvatarWebRoutes }
  },
  register: async () => {
    // A user's password authenticates git over HTTP (registered with the git-http area).
    await import('./users.git.js')
  },
  tables: { ...userTables, ...userAvatarTables },
  // A follow goes with either user (`users_follow_users`' foreign keys, ON DELETE CASCADE).
  cascade: [
    { kind: 'cascade', table: 'user_follow_users', column: 'follower_id', parent: 'users' },
    { kind: 'cascade', table: 'user_follow_users', column: 'followee_id', parent: 'users' },
    // A user's preferences go with the account (`user_preferences.user_id`, ON DELETE CASCADE).
    { kind: 'cascade', table: 'user_preferences', column: 'user_id', parent: 'users' },
  ],
  scenario: userFragment,
}
