/**
 * Creating, moving and deleting groups: the model's validations with GitLab's messages, the creator
 * becoming the group's owner, and the cascade of a delete.
 * Source: gitlab: app/services/groups/create_service.rb, app/services/groups/destroy_service.rb,
 * app/models/namespace.rb, app/models/group.rb, lib/gitlab/regex.rb, lib/gitlab/path_regex.rb,
 * lib/api/groups.rb; moving groups: app/services/groups/transfer_service.rb.
 * @module
 */
import { AccessLevel, hasGroupAccess } from '../../rules/access.js'
import { applicationSetting } from '../application-settings/application-settings.public.js'
import { destroyRecords } from '../../rules/cascade.js'
import { apiMessage, validationFailed, ValidationMessage } from '../../core/errors.js'
import { present } from '../../core/ruby.js'
import { failedTo, ModelErrors } from '../../rules/model-errors.js'
import type { Ctx } from '../../core/route.js'
import { runnersRegistrationToken } from '../../rules/runners-token.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, Visibility } from '../../db/schema.js'
import { publishGroup, publishGroupMoved } from './groups.events.js'
import { publish } from '../../rules/events.js'

let groupNameRegex: RegExp | undefined
/**
 * `Gitlab::Regex.group_name_regex` (13.x): like a project name, plus parentheses. Made on the first
 * name checked, as the project name's is (`projectNamePattern`; issue 27).
 */
function groupNamePattern(): RegExp {
  return (groupNameRegex ??= /^[\p{Alphabetic}\p{Nd}\u{00A9}-\u{1F9FF}_][\p{Alphabetic}\p{Nd}\p{Pd}\u{00A9}-\u{1F9FF}_(). ]*$/u)
}
/** `Gitlab::Regex.group_name_regex_message`. */
const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."
/** `Gitlab::PathRegex.namespace_format_regex`: no leading `-`, no trailing `.`, `.git` or `.atom`. */
const NAMESPACE_PATH = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])(?<!\.git|\.atom)$/
/** `Gitlab::PathRegex.namespace_format_message`. */
const NAMESPACE_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
const MAX_LENGTH = 255
const LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 }

/** The attributes `POST /groups` sets. */
export interface GroupAttributes {
  name: string
  path: string
  description?: string
  visibility?: Visibility
  lfs_enabled?: boolean
  request_access_enabled?: boolean
}

/**
 * Whether `path` is free under `parent` (a top-level path also competes with usernames, which are
 * namespaces too), case-insensitively as GitLab's routes are.
 */
function pathTaken(db: Db, path: string, parent: GroupRecord | null): boolean {
  const wanted = path.toLowerCase()
  if (db.tables.groups.where('parent_id', parent?.id ?? null).some((g) => g.path.toLowerCase() === wanted)) return true
  if (parent) {
    return db.tables.projects.where('namespace_id', parent.id).some((p) => p.namespace_type === 'group' && p.path.toLowerCase() === wanted)
  }
  return db.findUserByUsername(path) !== undefined
}

/**
 * The `Group` model's validations, by attribute in declaration order: name and path present, in
 * format, at most 255 characters and free under the parent (`self` excluded when updating), the
 * description's length, and a visibility no wider than the parent's and, for a group that exists,
 * no narrower than its projects' and subgroups' (`visibility_level_allowed_by_parent`,
 * `..._by_projects`, `..._by_sub_groups`). gitlab: app/models/namespace.rb, app/models/group.rb (13.12).
 */
function validateGroup(db: Db, attrs: GroupAttributes & { visibility: Visibility }, parent: GroupRecord | null, self: GroupRecord | null): ModelErrors {
  const errors = new ModelErrors()
  const add = (key: string, message: string) => errors.add(key, message)
  const siblings = db.tables.groups.where('parent_id', parent?.id ?? null).filter((g) => g.id !== self?.id)
  if (!present(attrs.name)) add('name', ValidationMessage.blank)
  else if (!groupNamePattern().test(attrs.name)) add('name', GROUP_NAME_MESSAGE)
  if (attrs.name.length > MAX_LENGTH) add('name', ValidationMessage.tooLong(MAX_LENGTH))
  if (present(attrs.name) && siblings.some((g) => g.name === attrs.name)) add('name', ValidationMessage.taken)
  if (!present(attrs.path)) add('path', ValidationMessage.blank)
  else if (!NAMESPACE_PATH.test(attrs.path)) add('path', NAMESPACE_PATH_MESSAGE)
  if (attrs.path.length > MAX_LENGTH) add('path', ValidationMessage.tooLong(MAX_LENGTH))
  if (present(attrs.path) && (self === null || attrs.path.toLowerCase() !== self.path.toLowerCase()) && pathTaken(db, attrs.path, parent)) add('path', ValidationMessage.taken)
  if ((attrs.description ?? '').length > MAX_LENGTH) add('description', ValidationMessage.tooLong(MAX_LENGTH))
  const visibility = attrs.visibility
  if (parent && LEVEL[visibility] > LEVEL[parent.visibility]) {
    add('visibility_level', `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`)
  }
  if (self) {
    if (db.tables.projects.where('namespace_id', self.id).some((p) => p.namespace_type === 'group' && LEVEL[p.visibility] > LEVEL[visibility])) {
      add('visibility_level', `${visibility} is not allowed since this group contains projects with higher visibility.`)
    }
    if (db.tables.groups.where('parent_id', self.id).some((g) => LEVEL[g.visibility] > LEVEL[visibility])) {
      add('visibility_level', `${visibility} is not allowed since there are sub-groups with higher visibility.`)
    }
  }
  return errors
}

/** The attributes `PUT /groups/:id` may change (the ones fakelab keeps). */
export type GroupUpdate = Partial<GroupAttributes>

/**
 * `Groups::UpdateService`: validates the changed group and saves it.
 * @throws ApiError 400 `{"message":{"<attribute>":[…]}}` (`render_validation_error!`).
 */
export function updateGroup(ctx: Ctx<unknown>, group: GroupRecord, attrs: GroupUpdate, avatarErrors: Record<string, string[]> = {}): GroupRecord {
  const next = {
    name: attrs.name ?? group.name,
    path: attrs.path ?? group.path,
    description: attrs.description ?? group.description,
    visibility: attrs.visibility ?? group.visibility,
    request_access_enabled: attrs.request_access_enabled ?? group.request_access_enabled,
    lfs_enabled: attrs.lfs_enabled ?? group.lfs_enabled,
  }
  const parent = group.parent_id === null ? null : (ctx.db.tables.groups.get(group.parent_id) ?? null)
  const errors = validateGroup(ctx.db, next, parent, group)
  for (const [key, messages] of Object.entries(avatarErrors)) for (const message of messages) errors.add(key, message)
  if (errors.size > 0) throw validationFailed(errors.messages())
  const oldFullPath = ctx.db.groupFullPath(group)
  const updated = ctx.db.tables.groups.update(group.id, next)
  publishGroupMoved(ctx, updated, oldFullPath)
  // Group#path_changed_hook: `group_rename` when the path itself changed.
  if (updated.path !== group.path) publishGroup(ctx, 'rename', updated, { path: group.path, fullPath: oldFullPath })
  return updated
}

/**
 * `Groups::CreateService`: validates, saves and makes the caller the group's Owner.
 * @throws ApiError 400 `{"message":"Failed to save group {:path=>[\"has already been taken\"]}"}`
 *   (`render_api_error!`, the errors as Ruby prints them).
 */
export function createGroup(ctx: Ctx<unknown>, attrs: GroupAttributes, parent: GroupRecord | null, avatarErrors: Record<string, string[]> = {}): GroupRecord {
  const visibility = attrs.visibility ?? applicationSetting(ctx.db).default_group_visibility
  const errors = validateGroup(ctx.db, { ...attrs, visibility }, parent, null)
  for (const [key, messages] of Object.entries(avatarErrors)) for (const message of messages) errors.add(key, message)
  if (errors.size > 0) throw failedTo('save group', errors)

  const group = ctx.db.tables.groups.insert({
    name: attrs.name,
    path: attrs.path,
    description: attrs.description ?? '',
    visibility,
    parent_id: parent?.id ?? null,
    created_at: ctx.now,
    request_access_enabled: attrs.request_access_enabled ?? true,
    lfs_enabled: attrs.lfs_enabled ?? true,
    runners_token: runnersRegistrationToken(ctx.faker),
  })
  // Group#post_create_hook (`group_create`), then Groups::CreateService#execute
  // `@group.add_owner(current_user)`, a membership like any (a `member` fact: `user_add_to_group`).
  publishGroup(ctx, 'create', group)
  const owner = ctx.db.tables.members.insert({
    source_type: 'group',
    source_id: group.id,
    user_id: ctx.currentUser!.id,
    access_level: AccessLevel.OWNER,
    expires_at: null,
    created_at: ctx.now,
    updated_at: ctx.now,
    created_by_id: ctx.currentUser!.id,
    override: false,
  })
  publish(ctx.db, 'member', { action: 'create', member: owner, before: null, expired: false, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
  return group
}

/**
 * Deletes a group with its subgroups, their projects (and everything in them), members, labels,
 * milestones and runners' links. Publishes `group` `destroy` for each subgroup, deepest first, then
 * for the group (`Groups::DestroyService` destroys the children before the group).
 * spec-gap: GitLab answers 202 and deletes in a background job; fakelab deletes at once; the
 * projects and memberships that go with the group publish no facts of their own.
 */
export function destroyGroup(ctx: Ctx<unknown>, group: GroupRecord): void {
  const postOrder = (g: GroupRecord): GroupRecord[] => [...ctx.db.tables.groups.where('parent_id', g.id).sort((a, b) => a.id - b.id).flatMap(postOrder), g]
  const gone = postOrder(group).map((g) => ({ group: g, fullPath: ctx.db.groupFullPath(g) }))
  destroyRecords(ctx.db, 'groups', [group.id])
  for (const g of gone) publishGroup(ctx, 'destroy', g.group, null, g.fullPath)
}

/** `TransferGroup|…` messages of `Groups::TransferService` (each after "Transfer failed: "). */
const GroupTransferMessage = {
  alreadyRoot: 'Group is already a root group.',
  sameParent: 'Group is already associated to the parent group.',
  invalidPolicies: "You don't have enough permissions.",
  samePath: 'The parent group already has a subgroup with the same path.',
  toSubgroup: 'Cannot transfer group to one of its subgroup.',
} as const

/**
 * `Groups::TransferService#execute`: makes `parent` the group's parent, or the group top-level when
 * `parent` is null. A group more visible than its new parent takes the parent's visibility, and so
 * do its subgroups and projects that are more visible; a group that becomes top-level with no
 * owner of its own gets the caller as Owner. Full paths, web URLs and inherited access follow
 * from `parent_id`. Checks come before the first write, in GitLab's order.
 * spec-gap: the route came with GitLab 14.6 (`POST /groups/:id/transfer`); 13.x moves groups only
 * in the UI, with this same service.
 * @throws ApiError 400 `{"message":"Transfer failed: <reason>"}`.
 */
export function transferGroup(ctx: Ctx<unknown>, group: GroupRecord, parent: GroupRecord | null): GroupRecord {
  const { db, today } = ctx
  const user = ctx.currentUser!
  const fail = (reason: string) => apiMessage(400, `Transfer failed: ${reason}`)
  if (!parent && group.parent_id === null) throw fail(GroupTransferMessage.alreadyRoot)
  if (parent && parent.id === group.parent_id) throw fail(GroupTransferMessage.sameParent)
  // valid_policies?: admin_group on the group, create_subgroup (Maintainer+) on the new parent or
  // create_group for a top-level group.
  const allowed =
    hasGroupAccess(db, user, group, AccessLevel.OWNER, today) &&
    (parent ? hasGroupAccess(db, user, parent, AccessLevel.MAINTAINER, today) : user.admin || user.can_create_group)
  if (!allowed) throw fail(GroupTransferMessage.invalidPolicies)
  // `Namespace.exists?(path:, parent:)`: a group there, or (top level) a user's namespace.
  const path = group.path.toLowerCase()
  const samePath =
    db.tables.groups.where('parent_id', parent?.id ?? null).some((g) => g.id !== group.id && g.path.toLowerCase() === path) ||
    (!parent && db.findUserByUsername(group.path) !== undefined)
  if (samePath) throw fail(GroupTransferMessage.samePath)
  const moved = [group, ...db.groupDescendants(group)]
  if (parent && moved.some((g) => g.id === parent.id)) throw fail(GroupTransferMessage.toSubgroup)

  return db.transaction(() => {
    if (parent && LEVEL[parent.visibility] < LEVEL[group.visibility]) {
      const cap = parent.visibility
      for (const g of moved) if (LEVEL[g.visibility] > LEVEL[cap]) db.tables.groups.update(g.id, { visibility: cap })
      for (const g of moved) {
        for (const project of db.tables.projects.where('namespace_id', g.id)) {
          if (project.namespace_type === 'group' && LEVEL[project.visibility] > LEVEL[cap]) db.tables.projects.update(project.id, { visibility: cap })
        }
      }
    }
    const oldFullPath = db.groupFullPath(group)
    const updated = db.tables.groups.update(group.id, { parent_id: parent?.id ?? null })
    publishGroupMoved(ctx, updated, oldFullPath)
    // ensure_ownership: a new top-level group keeps at least one Owner of its own.
    const owners = db.tables.members.where('source_id', group.id).filter((m) => m.source_type === 'group' && m.access_level === AccessLevel.OWNER)
    if (!parent && owners.length === 0) {
      db.tables.members.insert({
        source_type: 'group',
        source_id: group.id,
        user_id: user.id,
        access_level: AccessLevel.OWNER,
        expires_at: null,
        created_at: ctx.now,
        updated_at: ctx.now,
        created_by_id: user.id,
        override: false,
      })
    }
    return updated
  })
}
