/**
 * Badges of projects and groups: which badges a source has (a project's include those of its group
 * and the group's ancestors), lookup, and the writes of `Badges::CreateService`,
 * `Badges::UpdateService` and `Badges::BuildService`.
 * gitlab: app/models/project.rb (`badges`), app/models/group.rb, app/services/badges/*.rb,
 * lib/api/helpers/badges_helpers.rb.
 * @module
 */
import { recordNotFound, validationFailed } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { canReadProject } from '../../rules/access.js'
import type { Source } from '../../rules/source.js'
import type { BadgeLike } from './badges.entities.js'
import type { BadgeRecord } from './badges.tables.js'
import { badgeErrors } from './badges.validate.js'

/** What a client sets on a badge. */
export interface BadgeAttributes {
  link_url?: string | undefined
  image_url?: string | undefined
  name?: string | undefined
}

/** `default_scope { order_created_at_asc }`, ties by id. */
function byCreated(a: BadgeRecord, b: BadgeRecord): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id
}

/**
 * `source.badges`: a group's own badges; a project's own and those of its group and the group's
 * ancestors (`Project#badges`, a union), oldest first.
 */
export function badgesOf(db: Db, source: Source): BadgeRecord[] {
  if (source.type === 'group') return db.tables.badges.where('group_id', source.group.id).sort(byCreated)
  const badges = db.tables.badges.where('project_id', source.project.id)
  const group = db.projectGroup(source.project)
  if (group) for (const g of db.groupSelfAndAncestors(group)) badges.push(...db.tables.badges.where('group_id', g.id))
  return badges.sort(byCreated)
}

/**
 * `find_badge(source)`: `source.badges.find(badge_id)`, so through a project a badge of its groups too.
 * @throws ApiError 404 `{"message":"404 Not found"}` when the source has no such badge.
 */
export function findBadge(db: Db, source: Source, id: number): BadgeRecord {
  const badge = badgesOf(db, source).find((b) => b.id === id)
  if (!badge) throw recordNotFound()
  return badge
}

/**
 * `badge_source_params`: the project a badge's placeholders are rendered for: the project itself,
 * or for a group the first of `GroupProjectsFinder` (the group's own projects the caller can read,
 * newest id first); null when the group has none.
 */
export function renderProject(ctx: PresentCtx, source: Source): ProjectRecord | null {
  if (source.type === 'project') return source.project
  const projects = ctx.db.tables.projects
    .where('namespace_id', source.group.id)
    .filter((p) => p.namespace_type === 'group' && canReadProject(ctx.db, ctx.currentUser, p, ctx.today))
  return projects.sort((a, b) => b.id - a.id)[0] ?? null
}

/** `Badges::BuildService`: an unsaved badge of the source (`GET …/badges/render`). */
export function buildBadge(source: Source, attrs: BadgeAttributes): BadgeLike {
  return { type: source.type === 'project' ? 'ProjectBadge' : 'GroupBadge', name: attrs.name ?? null, link_url: attrs.link_url ?? '', image_url: attrs.image_url ?? '' }
}

/**
 * Validates a built badge.
 * @throws ApiError 400 `{"message":{"link_url":["is blocked: URI is invalid"]}}` and the like.
 */
export function validateBadge(badge: BadgeLike): void {
  const errors = badgeErrors(badge)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/**
 * `Badges::CreateService`: stores a badge of the source, both timestamps `now`.
 * @throws ApiError 400 with the model's errors when a URL is invalid.
 */
export function createBadge(db: Db, source: Source, attrs: BadgeAttributes, now: string): BadgeRecord {
  const badge = buildBadge(source, attrs)
  validateBadge(badge)
  return db.tables.badges.insert({
    type: badge.type,
    project_id: source.type === 'project' ? source.project.id : null,
    group_id: source.type === 'group' ? source.group.id : null,
    name: badge.name,
    link_url: badge.link_url,
    image_url: badge.image_url,
    created_at: now,
    updated_at: now,
  })
}

/**
 * `Badges::UpdateService`: the given attributes over the stored ones; nothing changes when the
 * result is invalid; `updated_at` moves only when a value changes.
 * @throws ApiError 400 with the model's errors when a URL is invalid.
 */
export function updateBadge(db: Db, badge: BadgeRecord, attrs: BadgeAttributes, now: string): BadgeRecord {
  const values = {
    name: attrs.name ?? badge.name,
    link_url: attrs.link_url ?? badge.link_url,
    image_url: attrs.image_url ?? badge.image_url,
  }
  validateBadge({ ...badge, ...values })
  const changed = values.name !== badge.name || values.link_url !== badge.link_url || values.image_url !== badge.image_url
  return changed ? db.tables.badges.update(badge.id, { ...values, updated_at: now }) : badge
}
