/**
 * Record types: what the store holds. Column names are GitLab's (snake_case, `project_id`, `iid`,
 * `access_level`); relations are plain foreign keys so records stay serialisable for snapshots.
 * A record is never sent as a response body: entities (`src/entities/`) present them.
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
  /** `active`, `blocked` or `deactivated`. */
  state: 'active' | 'blocked' | 'deactivated'
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
  /** null for humans; `project_bot` for the bot behind a project access token. */
  user_type: 'project_bot' | null
  created_at: Timestamp
  last_sign_in_at: Timestamp | null
  current_sign_in_at: Timestamp | null
  last_activity_on: DateString | null
  can_create_group: boolean
  projects_limit: number
  private_profile: boolean
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
  /** Registration token for group runners. */
  runners_token: string
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
  /** Registration token for project runners. */
  runners_token: string
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
  created_by_id: number | null
  /** LDAP override flag (`POST /groups/:id/members/:user_id/override`). */
  override: boolean
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

/** A label of a project (`project_id` set) or of a group (`group_id` set). */
export interface LabelRecord extends Row {
  title: string
  /** `#RRGGBB` or `#RGB`, case as given. */
  color: string
  description: string | null
  project_id: number | null
  group_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A project's priority for a label (GitLab `label_priorities`); absent = no priority. */
export interface LabelPriorityRecord extends Row {
  project_id: number
  label_id: number
  priority: number
}

/** A user's subscription to a label (or, later, an issue); `project_id` scopes it to one project. */
export interface SubscriptionRecord extends Row {
  user_id: number
  subscribable_type: 'Label' | 'Issue' | 'MergeRequest'
  subscribable_id: number
  project_id: number | null
  subscribed: boolean
}

/** A milestone of a group (`group_id`) or a project (`project_id`); `iid` is per parent. */
export interface MilestoneRecord extends Row {
  iid: number
  title: string
  description: string | null
  state: 'active' | 'closed'
  due_date: DateString | null
  start_date: DateString | null
  group_id: number | null
  project_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A deploy freeze period of a project: two cron expressions and a time zone. */
export interface FreezePeriodRecord extends Row {
  project_id: number
  freeze_start: string
  freeze_end: string
  cron_timezone: string
  created_at: Timestamp
  updated_at: Timestamp
}

/** An issue; `iid` is per project. Label and assignee links are id arrays. */
export interface IssueRecord extends Row {
  iid: number
  project_id: number
  title: string
  description: string
  state: 'opened' | 'closed'
  author_id: number
  assignee_ids: number[]
  label_ids: number[]
  milestone_id: number | null
  confidential: boolean
  discussion_locked: boolean | null
  issue_type: 'issue' | 'incident' | 'test_case'
  due_date: DateString | null
  created_at: Timestamp
  updated_at: Timestamp
  closed_at: Timestamp | null
  closed_by_id: number | null
  moved_to_id: number | null
  upvotes: number
  downvotes: number
  user_notes_count: number
  relative_position: number | null
  /** Seconds. */
  time_estimate: number
  /** Seconds; the sum of time logs. */
  total_time_spent: number
}

/** A merge request; `project_id` is the target project, `iid` is per target project. */
export interface MergeRequestRecord extends Row {
  iid: number
  project_id: number
  source_project_id: number
  title: string
  description: string
  state: 'opened' | 'closed' | 'merged' | 'locked'
  author_id: number
  assignee_ids: number[]
  label_ids: number[]
  milestone_id: number | null
  source_branch: string
  target_branch: string
  draft: boolean
  sha: string
  merge_status: string
  created_at: Timestamp
  updated_at: Timestamp
  merged_at: Timestamp | null
  merged_by_id: number | null
  closed_at: Timestamp | null
  closed_by_id: number | null
  upvotes: number
  downvotes: number
  user_notes_count: number
}

/** Last used internal id per parent (GitLab `internal_ids`): iids are never reused after a delete. */
export interface InternalIdRecord extends Row {
  usage: 'issues' | 'merge_requests' | 'milestones'
  scope_type: 'project' | 'group'
  scope_id: number
  last_value: number
}

/** The record types by collection name. Adding a collection here adds it to the store. */
export interface Tables {
  users: UserRecord
  groups: GroupRecord
  projects: ProjectRecord
  members: MemberRecord
  personal_access_tokens: PersonalAccessTokenRecord
  oauth_access_tokens: OauthAccessTokenRecord
  labels: LabelRecord
  label_priorities: LabelPriorityRecord
  subscriptions: SubscriptionRecord
  milestones: MilestoneRecord
  freeze_periods: FreezePeriodRecord
  issues: IssueRecord
  merge_requests: MergeRequestRecord
  internal_ids: InternalIdRecord
}

/** Collection names. */
export type TableName = keyof Tables

/** Hash-indexed columns per collection: the foreign keys hot paths filter on. */
export const INDEXES: { [K in TableName]: (keyof Tables[K])[] } = {
  users: [],
  groups: ['parent_id'],
  projects: ['namespace_id'],
  members: ['source_id', 'user_id'],
  personal_access_tokens: ['token', 'user_id'],
  oauth_access_tokens: ['token'],
  labels: ['project_id', 'group_id'],
  label_priorities: ['project_id'],
  subscriptions: ['subscribable_id'],
  milestones: ['group_id', 'project_id'],
  freeze_periods: ['project_id'],
  issues: ['project_id'],
  merge_requests: ['project_id'],
  internal_ids: ['scope_id'],
}
