/**
 * The users area's own table: OAuth applications, the clients OAuth tokens are issued to (the
 * users and token tables are core's, since authentication reads them). gitlab: db/structure.sql
 * `oauth_applications` (Doorkeeper).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A follow (`users_follow_users`): `follower_id` follows `followee_id`. */
export interface UserFollowUserRecord extends Row {
  follower_id: number
  followee_id: number
  created_at: Timestamp
}

/** A user's preferences row (`user_preferences`), made on the first change (`User#user_preference`). */
export interface UserPreferenceRecord extends Row {
  user_id: number
  /** Show one file's diff per page. */
  view_diffs_file_by_file: boolean
}

/** An OAuth application (`oauth_applications`). Its `secret` is never presented. */
export interface OauthApplicationRecord extends Row {
  name: string
  /** The OAuth client id. */
  uid: string
  /** The OAuth client secret. */
  secret: string
  /** Callback URLs, one per line. */
  redirect_uri: string
  /** Scopes its tokens may carry. */
  scopes: string[]
  confidential: boolean
  /** The user owning it; null for an instance-wide application an administrator registered. */
  owner_id: number | null
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    oauth_applications: OauthApplicationRecord
    user_follow_users: UserFollowUserRecord
    user_preferences: UserPreferenceRecord
  }
  /**
   * This area's columns on core's users: the account's password and the user's external identities
   * (GitLab's `identities` table, one per provider, in the order they were added; absent for none).
   */
  interface UserRecord {
    identities?: UserIdentity[]
    /**
     * The account's password, as the scenario or `POST`/`PUT /users` gave it (fakelab keeps no
     * digest); absent: none fakelab knows, so no password authenticates as the user. Git over HTTP
     * accepts it with the username or e-mail (users.git.ts).
     */
    password?: string
  }
  /** This area's column on core's OAuth tokens. */
  interface OauthAccessTokenRecord {
    /**
     * The OAuth application it was issued to (`oauth_applications`); absent or null for a token of
     * no application (Doorkeeper's column is nullable).
     */
    application_id?: number | null
  }
}

/** An external identity of a user (`identities`): the sign-in provider and the user's id there. */
interface UserIdentity {
  provider: string
  extern_uid: string
}

/** The tables and their indexes. */
export const userTables = {
  oauth_applications: table<OauthApplicationRecord>(['uid']),
  user_follow_users: table<UserFollowUserRecord>(['follower_id', 'followee_id']),
  user_preferences: table<UserPreferenceRecord>(['user_id']),
}
