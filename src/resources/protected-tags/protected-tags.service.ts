/**
 * Protected tags and who may create them: `ProtectedTag.protected?`, `RefMatcher`,
 * `ProtectedTag::CreateAccessLevel#check_access` and `Gitlab::UserAccess#can_create_tag?`, and the
 * pre-receive refusals of `Gitlab::Checks::TagCheck#protected_tag_checks` (13.12), which every tag
 * write goes through: a git push, and the tags API (Gitaly's UserCreateTag / UserDeleteTag run
 * the same hook; `Tags::CreateService` / `DestroyService` answer its message with a 400).
 * gitlab: app/models/protected_tag.rb, protected_tag/create_access_level.rb,
 * concerns/protected_ref.rb, concerns/protected_ref_access.rb, concerns/protected_tag_access.rb,
 * lib/gitlab/user_access.rb, lib/gitlab/checks/tag_check.rb (13.x).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { canPushCode, refMatches } from '../../rules/protected-refs.js'
import type { ProtectedTagRecord } from './protected-tags.tables.js'

/** `ProtectedTagAccess.allowed_access_levels` (CE): Maintainers, Developers + Maintainers, No one. */
export const TAG_CREATE_ACCESS_LEVELS = [AccessLevel.MAINTAINER, AccessLevel.DEVELOPER, AccessLevel.NO_ACCESS] as const

/** The project's protected tags, in id order (`project.protected_tags`). */
export function protectedTagsOf(db: Db, projectId: number): ProtectedTagRecord[] {
  return db.tables.protected_tags.where('project_id', projectId)
}

/** The protected tags whose name or pattern matches the tag `name`. */
function matching(db: Db, projectId: number, name: string): ProtectedTagRecord[] {
  return protectedTagsOf(db, projectId).filter((pt) => refMatches(pt.name, name))
}

/** `ProtectedTag.protected?(project, name)`: some protected tag matches; a blank name never. */
export function isProtectedTag(db: Db, projectId: number, name: string): boolean {
  return name !== '' && matching(db, projectId, name).length > 0
}

/**
 * `Gitlab::UserAccess#can_create_tag?`: for a protected name, some create access level of a
 * matching protected tag admits the user (`No one` admits no one, administrators included; else an
 * administrator, or `push_code` and a role at least the level's); for another name `push_code`
 * (13.x tags API `authorize_push_project`, which fakelab's tag routes already checked).
 */
export function canCreateTag(ctx: PresentCtx, project: ProjectRecord, name: string): boolean {
  const user = ctx.currentUser
  if (!user) return false
  if (!isProtectedTag(ctx.db, project.id, name)) return canPushCode(ctx, project)
  const level = projectAccessLevel(ctx.db, user, project, ctx.today)
  return matching(ctx.db, project.id, name).some((pt) =>
    pt.create_access_levels.some((a) => a.access_level !== AccessLevel.NO_ACCESS && (user.admin || (canPushCode(ctx, project) && level >= a.access_level))))
}

/**
 * `TagCheck#protected_tag_checks` (13.12): null when the change to tag `name` may go ahead, else
 * GitLab's message. `before`/`after` are the old and new object ids, null for none (creation,
 * deletion).
 */
export function protectedTagRefusal(ctx: PresentCtx, project: ProjectRecord, name: string, before: string | null, after: string | null): string | null {
  if (!isProtectedTag(ctx.db, project.id, name)) return null
  if (before !== null && after !== null) return 'Protected tags cannot be updated.'
  if (after === null) return 'Protected tags cannot be deleted.'
  return canCreateTag(ctx, project, name) ? null : 'You are not allowed to create this tag as it is protected.'
}
