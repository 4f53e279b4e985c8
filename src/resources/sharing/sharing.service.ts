/**
 * Sharing a group or a project with a group: the links' validations with GitLab's messages, and
 * removing them. What a link gives its members is an access rule (src/rules/access.ts).
 * Source: gitlab: app/services/groups/group_links/create_service.rb, destroy_service.rb,
 * app/services/projects/group_links/create_service.rb, app/models/group_group_link.rb,
 * app/models/project_group_link.rb (13.x).
 * @module
 */
import { apiMessage, conflict } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { GroupGroupLinkRecord, GroupRecord, ProjectGroupLinkRecord, ProjectRecord } from '../../db/schema.js'
import { AccessLevel } from '../../rules/access.js'
import { SharingMessage } from './sharing.messages.js'

/** What a share sets: the most its members get (10–50) and when it ends (`YYYY-MM-DD`). */
export interface ShareAttributes {
  group_access: number
  expires_at?: string | null
}

/** `Gitlab::Access.values`: what a link's model accepts (the routes' own lists are wider for groups). */
const LINK_ACCESS: readonly number[] = [AccessLevel.GUEST, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER]

/**
 * `Groups::GroupLinks::CreateService`: shares `shared` with `sharedWith`. The caller's rights are
 * checked by the route; this is the model's part.
 * @throws ApiError 409 `{"message":"Shared group The group has already been shared with this group"}`
 *   or `"Group access is not included in the list"` (the model's errors as one sentence).
 */
export function shareGroup(ctx: Ctx<unknown>, shared: GroupRecord, sharedWith: GroupRecord, attrs: ShareAttributes): GroupGroupLinkRecord {
  const links = ctx.db.tables.group_group_links
  const errors: string[] = []
  if (links.where('shared_group_id', shared.id).some((link) => link.shared_with_group_id === sharedWith.id)) errors.push(SharingMessage.groupAlreadyShared)
  if (!LINK_ACCESS.includes(attrs.group_access)) errors.push(SharingMessage.groupAccessNotIncluded)
  if (errors.length > 0) throw conflict(toSentence(errors))
  return links.insert({
    shared_group_id: shared.id,
    shared_with_group_id: sharedWith.id,
    group_access: attrs.group_access,
    expires_at: attrs.expires_at ?? null,
    created_at: ctx.now,
  })
}

/**
 * `Projects::GroupLinks::CreateService`: shares `project` with `group`.
 * @throws ApiError 409 `{"message":"Group already shared with this group"}` or `"Project cannot be
 *   shared with the group it is in or one of its ancestors."`.
 */
export function shareProject(ctx: Ctx<unknown>, project: ProjectRecord, group: GroupRecord, attrs: ShareAttributes): ProjectGroupLinkRecord {
  const links = ctx.db.tables.project_group_links
  const errors: string[] = []
  if (links.where('project_id', project.id).some((link) => link.group_id === group.id)) errors.push(SharingMessage.projectAlreadyShared)
  const home = ctx.db.projectGroup(project)
  if (home && ctx.db.groupSelfAndAncestors(home).some((g) => g.id === group.id)) errors.push(SharingMessage.projectOwnGroup)
  if (errors.length > 0) throw conflict(toSentence(errors))
  return links.insert({
    project_id: project.id,
    group_id: group.id,
    group_access: attrs.group_access,
    expires_at: attrs.expires_at ?? null,
    created_at: ctx.now,
  })
}

/** The create services' refusal when the caller may not share or cannot read the other side. */
export function shareRefused() {
  return apiMessage(404, SharingMessage.notFound)
}

/** Rails' `Array#to_sentence`: "a", "a and b", "a, b, and c". */
function toSentence(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ')
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`
}
