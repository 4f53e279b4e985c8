/**
 * The badge entities: `BasicBadgeDetails` (the render preview) and `Badge` (every stored badge),
 * with the URLs' placeholders rendered for the project the badge is shown for.
 * gitlab: lib/api/entities/basic_badge_details.rb, lib/api/entities/badge.rb, app/models/badge.rb
 * (`rendered_link_url`, `rendered_image_url`), lib/gitlab/string_placeholder_replacer.rb.
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { ProjectRecord } from '../../db/schema.js'
import { commitIdOf } from '../repository/repository.public.js'
import { badgeErrors } from './badges.validate.js'

/** A badge to present: stored (with id and type) or only built (`GET …/badges/render`). */
export interface BadgeLike {
  id?: number
  type: 'ProjectBadge' | 'GroupBadge'
  name: string | null
  link_url: string
  image_url: string
}

/** `Badge::PLACEHOLDERS`: each placeholder's value for a project (`project.commit&.sha` may be nil). */
const PLACEHOLDERS: Record<string, (ctx: PresentCtx, project: ProjectRecord) => string | number | undefined> = {
  project_path: (ctx, project) => ctx.db.projectFullPath(project),
  project_id: (_ctx, project) => project.id,
  default_branch: (_ctx, project) => project.default_branch,
  commit_sha: (ctx, project) => commitIdOf(ctx, project, project.default_branch),
}

const PLACEHOLDER_PATTERN = /%\{(project_path|project_id|default_branch|commit_sha)\}/g

/**
 * `Badge#build_rendered_url`: the URL as stored when the badge is invalid or there is no project,
 * else with every `%{placeholder}` replaced by the project's value (nil renders as nothing, as
 * Ruby's `gsub` block does).
 */
function renderBadgeUrl(ctx: PresentCtx, badge: BadgeLike, url: string, project: ProjectRecord | null): string {
  if (!project || Object.keys(badgeErrors(badge)).length > 0) return url
  return url.replace(PLACEHOLDER_PATTERN, (_m, key: string) => String(PLACEHOLDERS[key]!(ctx, project) ?? ''))
}

/** What {@link BasicBadgeDetails} returns, in GitLab's field order. */
export interface BasicBadgeDetailsEntity {
  name: string | null
  link_url: string
  image_url: string
  rendered_link_url: string
  rendered_image_url: string
}

/**
 * `Entities::BasicBadgeDetails`: `{name, link_url, image_url, rendered_link_url,
 * rendered_image_url}`, rendered for `project` (the badge's project, or for a group's badge the
 * first project of the group the caller sees; null when none).
 */
export function BasicBadgeDetails(badge: BadgeLike, project: ProjectRecord | null, ctx: PresentCtx): BasicBadgeDetailsEntity {
  return {
    name: badge.name,
    link_url: badge.link_url,
    image_url: badge.image_url,
    rendered_link_url: renderBadgeUrl(ctx, badge, badge.link_url, project),
    rendered_image_url: renderBadgeUrl(ctx, badge, badge.image_url, project),
  }
}

/** What {@link Badge} returns: {@link BasicBadgeDetailsEntity} then `id` and `kind`. */
export interface BadgeEntity extends BasicBadgeDetailsEntity {
  id: number
  /** `project` for a `ProjectBadge`, `group` for a `GroupBadge`. */
  kind: 'project' | 'group'
}

/** `Entities::Badge < BasicBadgeDetails`: adds `id` and `kind`. */
export function Badge(badge: BadgeLike & { id: number }, project: ProjectRecord | null, ctx: PresentCtx): BadgeEntity {
  const basic = BasicBadgeDetails(badge, project, ctx)
  return {
    name: basic.name,
    link_url: basic.link_url,
    image_url: basic.image_url,
    rendered_link_url: basic.rendered_link_url,
    rendered_image_url: basic.rendered_image_url,
    id: badge.id,
    kind: badge.type === 'ProjectBadge' ? 'project' : 'group',
  }
}
