/**
 * Administrators' user writes (create, update, delete, block, unblock) with GitLab's validations,
 * conflicts and state rules, and the user list's finder.
 * Source: gitlab: lib/api/users.rb, app/services/users/{build,create,update,destroy}_service.rb,
 * app/services/users/migrate_to_ghost_user_service.rb, app/models/user.rb (validations, state
 * machine, `search`), app/finders/users_finder.rb, config/initializers/devise.rb
 * (`password_length = 8..128`, `email_regexp`).
 * @module
 */
import { AccessLevel } from '../../rules/access.js'
import { applicationSetting } from '../application-settings/application-settings.public.js'
import { destroyRecords, migrateToGhost } from '../../rules/cascade.js'
import { publishUser } from './users.events.js'
import { ghostUser } from './ghost-user.js'
import { conflict, validationFailed, ValidationMessage } from '../../core/errors.js'
import { UserMessage } from './users.messages.js'
import { blank, present } from '../../core/ruby.js'
import type { Ctx } from '../../core/route.js'
import { newUserRecord } from '../../rules/user-record.js'
import { searchUsers } from '../../rules/user-search.js'
import type { Db } from '../../db/db.js'
import { denseView } from '../../db/dense.js'
import type { GroupRecord, TableName, UserRecord } from '../../db/schema.js'

/** Devise's `email_regexp`. */
const EMAIL = /^[^@\s]+@[^@\s]+$/
/** `Gitlab::PathRegex.namespace_format_regex`, which a username must match (it is a namespace path). */
const USERNAME = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])(?<!\.git|\.atom)$/
const USERNAME_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
/** Devise `password_length`. */
const PASSWORD_MIN = 8
const PASSWORD_MAX = 128

/** The profile attributes `POST /users` and `PUT /users/:id` take (`optional_attributes`). */
export interface UserAttributes {
  email?: string
  password?: string
  name?: string
  username?: string
  skype?: string
  linkedin?: string
  twitter?: string
  website_url?: string
  organization?: string
  projects_limit?: number
  bio?: string
  location?: string
  public_email?: string
  admin?: boolean
  can_create_group?: boolean
  external?: boolean
  private_profile?: boolean
}

/**
 * The 409s `users.rb` checks: an email or username another user has (case-insensitively).
 * @throws ApiError 409 `{"message":"Email has already been taken"}` / `"Username has already been taken"`.
 */
function checkConflicts(db: Db, attrs: UserAttributes, self?: number): void {
  const others = db.tables.users.filter((u) => u.id !== self)
  if (attrs.email !== undefined && others.some((u) => u.email.toLowerCase() === attrs.email!.toLowerCase())) {
    throw conflict(UserMessage.emailTaken)
  }
  if (attrs.username !== undefined && others.some((u) => u.username.toLowerCase() === attrs.username!.toLowerCase())) {
    throw conflict(UserMessage.usernameTaken)
  }
}

/** The model validations of a user, in the order Devise and `User` declare them. Empty when valid. */
function validate(user: Omit<UserRecord, 'id'>, password: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (key: string, message: string) => (errors[key] ??= []).push(message)
  if (blank(user.email)) add('email', ValidationMessage.blank)
  else if (!EMAIL.test(user.email)) add('email', ValidationMessage.invalid)
  if (password !== undefined && password.length < PASSWORD_MIN) add('password', `is too short (minimum is ${PASSWORD_MIN} characters)`)
  if (password !== undefined && password.length > PASSWORD_MAX) add('password', ValidationMessage.tooLong(PASSWORD_MAX))
  if (blank(user.name)) add('name', ValidationMessage.blank)
  else if (user.name.length > 255) add('name', ValidationMessage.tooLong(255))
  if (blank(user.username)) add('username', ValidationMessage.blank)
  else if (!USERNAME.test(user.username)) add('username', USERNAME_MESSAGE)
  if (user.projects_limit < 0) add('projects_limit', ValidationMessage.greaterThanOrEqualTo(0))
  return errors
}

/**
 * `Users::CreateService` as an administrator (`skip_authorization: true`). Without `password`
 * (`reset_password` or `force_random_password`) the account gets a random one. `avatarErrors`: the
 * uploaded avatar's model errors (users.avatars.ts), reported with the others.
 * @throws ApiError 409 for a taken email or username; 400 `{"message":{…}}` for a failed validation.
 */
export function createUser(ctx: Ctx<unknown>, attrs: UserAttributes & { email: string; name: string; username: string }, avatarErrors: Record<string, string[]> = {}): UserRecord {
  const record = newUserRecord({
    username: attrs.username,
    name: attrs.name,
    email: attrs.email,
    created_at: ctx.now,
    admin: attrs.admin ?? false,
    bio: attrs.bio ?? '',
    location: attrs.location ?? '',
    public_email: attrs.public_email ?? '',
    skype: attrs.skype ?? '',
    linkedin: attrs.linkedin ?? '',
    twitter: attrs.twitter ?? '',
    website_url: attrs.website_url ?? '',
    organization: attrs.organization ?? '',
    can_create_group: attrs.can_create_group ?? true,
    projects_limit: attrs.projects_limit ?? applicationSetting(ctx.db).default_projects_limit,
    private_profile: attrs.private_profile ?? false,
    external: attrs.external ?? false,
  })
  // The password given is the account's (a reset or random one is none fakelab knows).
  if (attrs.password !== undefined) record.password = attrs.password
  const errors = { ...validate(record, attrs.password), ...avatarErrors }
  // gitlab: users.rb checks the conflicts only once the save has failed; a taken email or
  // username always fails it, so they come first either way.
  checkConflicts(ctx.db, attrs)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const user = ctx.db.tables.users.insert(record)
  publishUser(ctx, 'create', user)
  return user
}

/**
 * `Users::UpdateService` as an administrator.
 * @throws ApiError 409 for an email or username another user has; 400 `{"message":{…}}`.
 */
export function updateUser(ctx: Ctx<unknown>, user: UserRecord, attrs: UserAttributes, avatarErrors: Record<string, string[]> = {}): UserRecord {
  checkConflicts(ctx.db, attrs, user.id)
  const patch: Partial<UserRecord> = {}
  const keys = [
    'email', 'name', 'username', 'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'projects_limit',
    'bio', 'location', 'public_email', 'admin', 'can_create_group', 'external', 'private_profile',
  ] as const
  for (const key of keys) {
    if (attrs[key] !== undefined) (patch as Record<string, unknown>)[key] = attrs[key]
  }
  if (attrs.password !== undefined) patch.password = attrs.password
  const errors = { ...validate({ ...user, ...patch }, attrs.password), ...avatarErrors }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const updated = ctx.db.tables.users.update(user.id, patch)
  if (updated.username !== user.username) publishUser(ctx, 'rename', updated, user.username)
  return updated
}

/**
 * users.rb's identity step of `POST /users` and `PUT /users/:id`: the user's identity of
 * `provider` takes `extern_uid`, or a new one is added. Like GitLab, which saves the identity and
 * ignores its errors, an `extern_uid` another user has for the provider (case-insensitively) is
 * not stored, and the request still succeeds. Nothing happens without a provider.
 * gitlab: lib/api/users.rb (`identity_attrs`), app/models/identity.rb (uniqueness per provider).
 */
export function storeIdentity(db: Db, userId: number, attrs: { provider?: string | undefined; extern_uid?: string | undefined }): void {
  const { provider, extern_uid: externUid } = attrs
  if (!present(provider) || externUid === undefined) return
  const taken = db.tables.users.all().some((u) => u.id !== userId && (u.identities ?? []).some((i) => i.provider === provider && i.extern_uid.toLowerCase() === externUid.toLowerCase()))
  if (taken) return
  const user = db.tables.users.get(userId)!
  const identities = (user.identities ?? []).filter((i) => i.provider !== provider)
  const index = (user.identities ?? []).findIndex((i) => i.provider === provider)
  const next = { provider, extern_uid: externUid }
  if (index >= 0) identities.splice(index, 0, next)
  else identities.push(next)
  db.tables.users.update(userId, { identities })
}

/** The user found by an external identity (`Identity.with_extern_uid(provider, extern_uid)`), if any. */
export function userByIdentity(db: Db, provider: string, externUid: string): UserRecord | undefined {
  return db.tables.users.all().find((u) => (u.identities ?? []).some((i) => i.provider === provider && i.extern_uid === externUid))
}

/** The groups the user is the only direct Owner of (`User#solo_owned_groups`). */
export function soloOwnedGroups(db: Db, user: UserRecord): GroupRecord[] {
  const owned = db.tables.members.where('user_id', user.id).filter((m) => m.source_type === 'group' && m.access_level === AccessLevel.OWNER)
  return owned
    .filter((m) => db.tables.members.where('source_id', m.source_id).filter((o) => o.source_type === 'group' && o.access_level === AccessLevel.OWNER).length === 1)
    .map((m) => db.tables.groups.get(m.source_id))
    .filter((g): g is GroupRecord => g !== undefined)
}

/**
 * `Users::DestroyService`: the groups the user solely owns and the user's personal projects go;
 * the user's contributions move to the ghost user (or, with `hard_delete`, are deleted too); the
 * user's memberships, tokens, to-dos, subscriptions and settings go with the account.
 */
export function destroyUser(ctx: Ctx<unknown>, user: UserRecord, hardDelete: boolean): void {
  const { db } = ctx
  for (const group of soloOwnedGroups(db, user)) destroyRecords(db, 'groups', [group.id])
  if (hardDelete) {
    const tables = db.tables as unknown as Record<string, { all(): { id: number; author_id?: unknown }[] }>
    for (const [name, collection] of Object.entries(tables)) {
      const authored = collection.all().filter((row) => row.author_id === user.id).map((row) => row.id)
      if (authored.length > 0) destroyRecords(db, name as TableName, authored)
    }
  }
  migrateToGhost(db, user, () => ghostUser(db, ctx.now))
  destroyRecords(db, 'users', [user.id])
  publishUser(ctx, 'destroy', user)
}

/** The filters of `GET /users` (UsersFinder), already restricted to what the caller may use. */
export interface UserFilters {
  username?: string
  search?: string
  active: boolean
  blocked: boolean
  external: boolean
  created_after?: string
  created_before?: string
}

/** `reorder_users`' order (administrators only): a user column and a direction, the id tie-breaker in the same direction. */
export interface UserOrder {
  column: 'id' | 'name' | 'username' | 'created_at'
  sort: 'asc' | 'desc'
}

/**
 * {@link findUsers}, reordered by `order` when given: the list of `GET /users`. It depends on the
 * users' rows only, so it is kept with their dense view, keyed by the filters and the order, and
 * found again only after a write to users (a search of thousands of users costs one scan and one
 * sort per write, not per request). Do not change the array.
 */
export function listUsers(db: Db, filters: UserFilters, order?: UserOrder): readonly UserRecord[] {
  return denseView(db.tables.users).memo(`users:${JSON.stringify([filters, order ?? null])}`, () => {
    const users = findUsers(db, filters)
    if (!order) return users
    const { column } = order
    const direction = order.sort === 'asc' ? 1 : -1
    return users.sort((a, b) => {
      const x = a[column]
      const y = b[column]
      return ((x < y ? -1 : x > y ? 1 : 0) || a.id - b.id) * direction
    })
  })
}

/**
 * `UsersFinder#execute`: newest first (`order_id_desc`), or `User.search`'s order when searching
 * (see `rules/user-search.ts`). A new array.
 * gitlab: app/finders/users_finder.rb, app/models/user.rb (`search`, `active_without_ghosts`,
 * `blocked`, `external`), lib/gitlab/sql/pattern.rb (`fuzzy_arel_match` with `lower_exact_match`).
 */
export function findUsers(db: Db, filters: UserFilters): UserRecord[] {
  let users = db.tables.users.all().reverse()
  if (filters.username !== undefined) {
    const wanted = filters.username.toLowerCase()
    users = users.filter((u) => u.username.toLowerCase() === wanted)
  }
  if (present(filters.search)) users = searchUsers(users, filters.search)
  if (filters.blocked) users = users.filter((u) => u.state === 'blocked' || u.state === 'ldap_blocked')
  if (filters.active) users = users.filter((u) => u.state === 'active' && u.user_type !== 'ghost')
  if (filters.external) users = users.filter((u) => u.external === true)
  if (filters.created_after) users = users.filter((u) => u.created_at >= filters.created_after!)
  if (filters.created_before) users = users.filter((u) => u.created_at <= filters.created_before!)
  return users
}

/** `User::MINIMUM_INACTIVE_DAYS` (13.12): a user active more recently cannot be deactivated. */
export const MINIMUM_INACTIVE_DAYS = 90

/** `User#blocked?`: the blocked states of the state machine (blocked, LDAP-blocked, pending approval). */
export function isBlocked(user: UserRecord): boolean {
  return user.state === 'blocked' || user.state === 'ldap_blocked' || user.state === 'blocked_pending_approval'
}

/** `User#internal?` (13.12): the ghost user, and bots other than project bots. */
export function isInternal(user: UserRecord): boolean {
  return user.user_type === 'ghost'
}

/**
 * `User#no_recent_activity?`: the later of `last_activity_on` (its midnight, UTC) and
 * `current_sign_in_at`, none counting as the epoch, is at least {@link MINIMUM_INACTIVE_DAYS} ago.
 * @param now the request's time (ISO 8601).
 */
export function noRecentActivity(user: UserRecord, now: string): boolean {
  const times = [user.last_activity_on ? Date.parse(`${user.last_activity_on}T00:00:00Z`) : 0, user.current_sign_in_at ? Date.parse(user.current_sign_in_at) : 0]
  const lastActive = Math.max(...times.map((t) => (Number.isNaN(t) ? 0 : t)))
  return Math.floor(lastActive / 1000) <= Math.floor(Date.parse(now) / 1000) - MINIMUM_INACTIVE_DAYS * 86400
}
