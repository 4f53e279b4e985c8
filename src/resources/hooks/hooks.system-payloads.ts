/**
 * The bodies of the system hooks that report instance changes rather than repository ones:
 * `project_create`, `project_update`, `project_rename`, `project_transfer`, `project_destroy`
 * (`SystemHooksService#project_data`), `user_add_to_team`, `user_update_for_team`,
 * `user_remove_from_team` (`project_member_data`) and `user_add_to_group`, `user_update_for_group`,
 * `user_remove_from_group` (`Gitlab::HookData::GroupMemberBuilder`), `group_create`, `group_rename`,
 * `group_destroy` (`GroupBuilder`), `user_create`, `user_rename`, `user_destroy` (`UserBuilder`) and
 * `key_create`, `key_destroy` (`SystemHooksService#build_event_data` of a `Key`), key by key in
 * GitLab's order.
 * Times are `Time#xmlschema` (`2021-03-01T09:00:00Z`), as the service formats them itself.
 * gitlab: app/services/system_hooks_service.rb, lib/gitlab/hook_data/group_member_builder.rb,
 * lib/gitlab/hook_data/{base,group,user}_builder.rb, lib/gitlab/access.rb (`human_access`),
 * doc/system_hooks/system_hooks.md (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { MemberRecord, ProjectRecord } from '../../db/schema.js'
import type { DomainEvent } from '../../rules/events.js'

type Json = Record<string, unknown>

/** `Time#xmlschema` of a UTC instant: seconds, `Z`. */
function xmlschema(iso: string): string {
  return `${iso.slice(0, 19)}Z`
}

/** `Gitlab::Access.human_access`: the role's name. */
const HUMAN_ACCESS: Readonly<Record<number, string>> = { 5: 'Minimal Access', 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' }

/** `Project.visibility_levels.key(level).downcase`. */
function projectVisibility(project: ProjectRecord): string {
  return project.visibility
}

/** `project.owner`'s name and email: the namespace's user, or the group (which has no email: `""`). */
function ownerOf(db: Db, project: ProjectRecord): { name: string | null; email: string } {
  if (project.namespace_type === 'group') return { name: db.tables.groups.get(project.namespace_id)?.name ?? null, email: '' }
  const user = db.tables.users.get(project.namespace_id)
  return { name: user?.name ?? null, email: user?.email ?? '' }
}

/**
 * `SystemHooksService#build_event_data(project, event)`: `project_<event>` with the project's data,
 * and `old_path_with_namespace` on a rename or transfer.
 */
export function projectSystemPayload(db: Db, event: DomainEvent<'project'>): Json {
  const { project } = event
  const owner = ownerOf(db, project)
  const data: Json = {
    event_name: `project_${event.action}`,
    created_at: xmlschema(project.created_at),
    updated_at: xmlschema(event.updatedAt),
    name: project.name,
    path: project.path,
    path_with_namespace: db.projectFullPath(project),
    project_id: project.id,
    owner_name: owner.name,
    owner_email: owner.email,
    project_visibility: projectVisibility(project),
  }
  if (event.action === 'rename' || event.action === 'transfer') data.old_path_with_namespace = event.oldPathWithNamespace
  return data
}

const TEAM_EVENT = { create: 'user_add_to_team', update: 'user_update_for_team', destroy: 'user_remove_from_team' } as const
const GROUP_EVENT = { create: 'user_add_to_group', update: 'user_update_for_group', destroy: 'user_remove_from_group' } as const

/**
 * The system hook body of a membership change: a project member's (`SystemHooksService`'s
 * `project_member_data`) or a group member's (`GroupMemberBuilder#build`: timestamps, the member's
 * data with `expires_at`, then `event_name`). `updated_at` is the membership's last save (a
 * removal's: the last change before it).
 * @returns null when the member's user or source is gone.
 */
export function memberSystemPayload(db: Db, event: DomainEvent<'member'>): Json | null {
  const member: MemberRecord = event.member
  const user = db.tables.users.get(member.user_id)
  if (!user) return null
  const createdAt = xmlschema(member.created_at)
  const updatedAt = xmlschema(member.updated_at)
  if (member.source_type === 'project') {
    const project = db.tables.projects.get(member.source_id)
    if (!project) return null
    return {
      event_name: TEAM_EVENT[event.action],
      created_at: createdAt,
      updated_at: updatedAt,
      project_name: project.name,
      project_path: project.path,
      project_path_with_namespace: db.projectFullPath(project),
      project_id: project.id,
      user_username: user.username,
      user_name: user.name,
      user_email: user.email,
      user_id: user.id,
      access_level: HUMAN_ACCESS[member.access_level] ?? null,
      project_visibility: projectVisibility(project),
    }
  }
  const group = db.tables.groups.get(member.source_id)
  if (!group) return null
  return {
    created_at: createdAt,
    updated_at: updatedAt,
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    group_access: HUMAN_ACCESS[member.access_level] ?? null,
    // `expires_at&.xmlschema` of a Date: `YYYY-MM-DD`.
    expires_at: member.expires_at,
    event_name: GROUP_EVENT[event.action],
  }
}

/**
 * `GroupBuilder#build(event)`: timestamps, `event_name`, the group's name, path, full path and id,
 * and on a rename `old_path` and `old_full_path`.
 */
export function groupSystemPayload(event: DomainEvent<'group'>): Json {
  const { group } = event
  const data: Json = {
    created_at: xmlschema(group.created_at),
    updated_at: xmlschema(event.updatedAt),
    event_name: `group_${event.action}`,
    name: group.name,
    path: group.path,
    full_path: event.fullPath,
    group_id: group.id,
  }
  if (event.action === 'rename') Object.assign(data, { old_path: event.oldPath, old_full_path: event.oldFullPath })
  return data
}

/**
 * `UserBuilder#build(event)`: timestamps, `event_name`, the user's name, email, id and username,
 * and on a rename `old_username`.
 */
export function userSystemPayload(event: DomainEvent<'user'>): Json {
  const { user } = event
  const data: Json = {
    created_at: xmlschema(user.created_at),
    updated_at: xmlschema(event.updatedAt),
    event_name: `user_${event.action}`,
    name: user.name,
    email: user.email,
    user_id: user.id,
    username: user.username,
  }
  if (event.action === 'rename') data.old_username = event.oldUsername
  return data
}

/**
 * `SystemHooksService#build_event_data` of a `Key`: `event_name`, timestamps, the key line, its id,
 * and its owner's `username` when it has one.
 */
export function keySystemPayload(db: Db, event: DomainEvent<'key'>): Json {
  const { key } = event
  const data: Json = {
    event_name: `key_${event.action}`,
    created_at: xmlschema(key.created_at),
    updated_at: xmlschema(key.updated_at),
    key: key.key,
    id: key.id,
  }
  const owner = key.user_id === null ? undefined : db.tables.users.get(key.user_id)
  if (owner) data.username = owner.username
  return data
}
