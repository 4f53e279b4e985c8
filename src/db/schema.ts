/**
 * Record types: what the store holds. Column names are GitLab's (snake_case, `project_id`, `iid`,
 * `access_level`); relations are plain foreign keys so records stay serialisable for snapshots.
 * A record is never sent as a response body: entities present them.
 * This file holds the records core needs (see {@link CORE_TABLES}); resource areas declare theirs
 * next to their routes and merge them into {@link Tables}, and may add columns to core's records.
 * @module
 */
import type { Row } from './collection.js'

/** ISO 8601 UTC timestamp with milliseconds, as Rails `as_json` writes it: `2021-03-31T17:28:44.812Z`. */
export type Timestamp = string
/** A calendar date, `YYYY-MM-DD`. */
export type DateString = string
/** `public`, `internal` or `private` (GitLab `visibility_level` names). */
export type Visibility = 'public' | 'internal' | 'private'

/** A user account (GitLab `users`). */
export interface UserRecord extends Row {
  username: string
  name: string
  email: string
  /**
   * `active`, `blocked`, `ldap_blocked` (blocked by the LDAP sync; the API may not unblock it),
   * `blocked_pending_approval` (signed up while admin approval is required; `POST /users/:id/approve`)
   * or `deactivated`.
   */
  state: 'active' | 'blocked' | 'ldap_blocked' | 'blocked_pending_approval' | 'deactivated'
  admin: boolean
  avatar_url: string | null
  bio: string
  location: string
  public_email: string
  skype: string
  linkedin: string
  twitter: string
  website_url: string
  organization: string
  job_title: string
  /** null for humans; `project_bot` for the bot behind a project access token; `ghost` for the user deleted users' contributions move to. */
  user_type: 'project_bot' | 'ghost' | null
  created_at: Timestamp
  last_sign_in_at: Timestamp | null
  current_sign_in_at: Timestamp | null
  last_activity_on: DateString | null
  can_create_group: boolean
  projects_limit: number
  private_profile: boolean
  /** External users see only what they are members of (GitLab `users.external`); absent = false. */
  external?: boolean
}

/** A group or subgroup (GitLab `namespaces` of type Group). `full_path` is derived from parents. */
export interface GroupRecord extends Row {
  name: string
  path: string
  description: string
  visibility: Visibility
  parent_id: number | null
  created_at: Timestamp
  request_access_enabled: boolean
  lfs_enabled: boolean
}

/** A project, in a group (`namespace_type: 'group'`) or a user's personal namespace (`'user'`). */
export interface ProjectRecord extends Row {
  name: string
  path: string
  description: string
  visibility: Visibility
  namespace_type: 'group' | 'user'
  /** A group id or a user id, depending on `namespace_type`. */
  namespace_id: number
  creator_id: number
  created_at: Timestamp
  last_activity_at: Timestamp
  default_branch: string
  archived: boolean
  repository_storage: string
}

/** A membership (GitLab `members`): a user in a project or a group at an access level. */
export interface MemberRecord extends Row {
  source_type: 'project' | 'group'
  source_id: number
  user_id: number
  /** 0, 5, 10, 20, 30, 40 or 50 (see `AccessLevel`). */
  access_level: number
  expires_at: DateString | null
  created_at: Timestamp
  /** The last save of the row: a change of access level or expiry, an override (GitLab `members.updated_at`). */
  updated_at: Timestamp
  created_by_id: number | null
  /** LDAP override flag (`POST /groups/:id/members/:user_id/override`). */
  override: boolean
}

/**
 * A group shared with another group (GitLab `group_group_links`): members of `shared_with_group_id`
 * (and of its ancestors) get up to `group_access` in `shared_group_id`, its subgroups and projects.
 * Core's because every access check reads it (gitlab: app/models/group_group_link.rb).
 */
export interface GroupGroupLinkRecord extends Row {
  shared_group_id: number
  shared_with_group_id: number
  /** The most a member of the shared-with group gets: 10–50 (see `AccessLevel`). */
  group_access: number
  expires_at: DateString | null
  created_at: Timestamp
}

/**
 * A project shared with a group (GitLab `project_group_links`): members of `group_id` (and of its
 * ancestors) get up to `group_access` in the project. Core's for the same reason
 * (gitlab: app/models/project_group_link.rb).
 */
export interface ProjectGroupLinkRecord extends Row {
  project_id: number
  group_id: number
  /** The most a member of the group gets: 10–40 (see `AccessLevel`). */
  group_access: number
  expires_at: DateString | null
  created_at: Timestamp
}

/** A personal (or project/impersonation) access token. `token` is the secret sent by clients. */
export interface PersonalAccessTokenRecord extends Row {
  user_id: number
  name: string
  token: string
  scopes: string[]
  revoked: boolean
  expires_at: DateString | null
  impersonation: boolean
  created_at: Timestamp
  last_used_at: Timestamp | null
}

/** An OAuth access token (Doorkeeper): sent as `Authorization: Bearer` or `access_token=`. */
export interface OauthAccessTokenRecord extends Row {
  user_id: number
  token: string
  scopes: string[]
  revoked: boolean
  /** Absolute expiry; null = does not expire. */
  expires_at: Timestamp | null
  created_at: Timestamp
}

/**
 * Instance-wide settings authentication and request limits read (one row, id 1; absent = GitLab's
 * defaults); the part of GitLab's application settings the engine needs, kept apart from the
 * settings an area declares.
 * gitlab: app/models/application_setting.rb, config/gitlab.yml `impersonation_enabled`,
 * application settings `throttle_authenticated_api_*`.
 */
export interface AuthSettingsRecord extends Row {
  /** `gitlab_rails['impersonation_enabled']`; default true. Off: impersonation tokens get 401. */
  impersonation_enabled: boolean
  /** Requests allowed per period per client (user, else IP), or null for no rate limit. */
  rate_limit_requests: number | null
  /** The rate limit period, in seconds. */
  rate_limit_period_seconds: number
  /** Largest request body accepted, in bytes (Omnibus nginx `client_max_body_size`, 250 MiB). */
  max_request_body_bytes: number
}

/** A signed-in web session: the value of its `_gitlab_session` cookie (Warden). */
export interface UserSessionRecord extends Row {
  user_id: number
  /** The cookie value. */
  session_id: string
}

/**
 * A CI job token (`CI_JOB_TOKEN`): valid while its job runs, it carries the permissions of the
 * user who triggered the pipeline. gitlab: lib/gitlab/auth/auth_finders.rb `find_user_from_job_token`.
 */
export interface CiJobTokenRecord extends Row {
  token: string
  /** The user who triggered the pipeline. */
  user_id: number
  project_id: number
  /** The job's status: only `running` authenticates. */
  status: 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled'
}

/** Last used internal id per parent (GitLab `internal_ids`): iids are never reused after a delete. */
export interface InternalIdRecord extends Row {
  usage: 'issues' | 'merge_requests' | 'milestones'
  scope_type: 'project' | 'group'
  scope_id: number
  last_value: number
}

/**
 * The record types by table name. The tables core needs are listed here; each resource area adds
 * its own by declaration merging, so `db.tables.<name>` is typed without `db/` knowing any area:
 *
 * ```ts
 * declare module '../../db/schema.js' {
 *   interface Tables { freeze_periods: FreezePeriodRecord }
 * }
 * ```
 * An area adds columns to a core record the same way (`interface ProjectRecord { … }`). A record
 * type of another area is reachable as `Tables['<name>']`, without importing it.
 */
export interface Tables {
  users: UserRecord
  groups: GroupRecord
  projects: ProjectRecord
  members: MemberRecord
  group_group_links: GroupGroupLinkRecord
  project_group_links: ProjectGroupLinkRecord
  personal_access_tokens: PersonalAccessTokenRecord
  oauth_access_tokens: OauthAccessTokenRecord
  internal_ids: InternalIdRecord
  auth_settings: AuthSettingsRecord
  user_sessions: UserSessionRecord
  ci_job_tokens: CiJobTokenRecord
}

/** Table names: core's and, through declaration merging, every area's. */
export type TableName = keyof Tables

/** How a table is kept: which columns carry a hash index (the foreign keys hot paths filter on). */
export interface TableDef<T extends Row = Row> {
  readonly indexes: readonly (keyof T & string)[]
}

/**
 * Declares a table: `table<LabelRecord>(['project_id', 'group_id'])`.
 * @param indexes columns to keep a hash index on; `Collection.where` on any other column scans.
 */
export function table<T extends Row>(indexes: readonly (keyof T & string)[] = []): TableDef<T> {
  return { indexes }
}

/** A definition for every table, which is what a `Db` is built from. */
export type TableDefs = { readonly [K in TableName]: TableDef<Tables[K]> }

/**
 * The tables core needs, and only those: what authentication reads (users and their personal and
 * OAuth tokens, web sessions, CI job tokens, the instance's authentication settings), what access
 * checks read (groups, projects, members, group and project sharing links) and the store's iid counters. Every other table is an
 * area's (its `Area.tables`).
 */
export const CORE_TABLES = {
  users: table<UserRecord>(),
  groups: table<GroupRecord>(['parent_id']),
  projects: table<ProjectRecord>(['namespace_id']),
  members: table<MemberRecord>(['source_id', 'user_id']),
  group_group_links: table<GroupGroupLinkRecord>(['shared_group_id', 'shared_with_group_id']),
  project_group_links: table<ProjectGroupLinkRecord>(['project_id', 'group_id']),
  personal_access_tokens: table<PersonalAccessTokenRecord>(['token', 'user_id']),
  oauth_access_tokens: table<OauthAccessTokenRecord>(['token']),
  internal_ids: table<InternalIdRecord>(['scope_id']),
  auth_settings: table<AuthSettingsRecord>(),
  user_sessions: table<UserSessionRecord>(['session_id']),
  ci_job_tokens: table<CiJobTokenRecord>(['token']),
} as const satisfies { [K in keyof Tables]?: TableDef<Tables[K]> }
