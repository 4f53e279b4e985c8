/**
 * The tags API's release notes, deprecated since 11.7 and still in 13.x:
 * `POST /projects/:id/repository/tags/:tag_name/release` and `PUT …/release`, both answering
 * `Entities::TagRelease` `{tag_name, description}`. POST needs `download_code` then
 * `create_release` (Developer+), and the tag (404 `Tag Not Found`: the legacy API makes no tag),
 * then runs the create service (409 `Release already exists`); PUT needs `update_release` on the
 * tag's release (403 when there is none), then runs the update service. Also the release
 * `POST /projects/:id/repository/tags` makes from `release_description` (registered with the
 * repository area). gitlab: lib/api/tags.rb, app/services/releases/{create,update}_service.rb (13.x).
 * @module
 */
import { ApiError, forbidden, notFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { created, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { canDownloadCode, repositoryOf } from '../repository/repository.public.js'
import { createRelease, findRelease, updateRelease } from './releases.service.js'
import type { ReleaseRecord } from './releases.tables.js'

const params = { id: p.string({ required: true }), tag_name: p.string({ required: true }), description: p.string({ required: true }) }

/** `Entities::TagRelease`. */
function TagRelease(release: ReleaseRecord) {
  return { tag_name: release.tag, description: release.description }
}

/** `create_release` / `update_release`: Developer+ (administrators always). */
function canWrite(ctx: Ctx<unknown>, project: ProjectRecord): boolean {
  return hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.DEVELOPER, ctx.today)
}

/** tags.rb's `before { authorize! :download_code, user_project }`. */
function readableProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canDownloadCode(ctx, project)) throw forbidden()
  return project
}

/**
 * `Releases::CreateService` for a tag that exists, named after it; a refusal is ignored (what
 * tags.rb does with `release_description`).
 */
export function createReleaseOfTag(ctx: Ctx<unknown>, project: ProjectRecord, tag: string, description: string): void {
  try {
    createRelease(ctx, project, { tag, name: tag, description, links: [] })
  } catch (error) {
    // The service's only refusal for an existing tag is a release already there; it writes nothing first.
    if (!(error instanceof ApiError)) throw error
  }
}

/** The two deprecated routes. */
export const tagReleaseRoutes: Route[] = [
  route('POST /projects/:id/repository/tags/:tag_name/release', {
    params,
    handler(ctx) {
      const project = readableProject(ctx)
      if (!canWrite(ctx, project)) throw forbidden()
      if (!repositoryOf(ctx.db, project).tags.has(ctx.params.tag_name)) throw notFound('Tag')
      const release = createRelease(ctx, project, { tag: ctx.params.tag_name, name: ctx.params.tag_name, description: ctx.params.description, links: [] })
      return created(TagRelease(release))
    },
  }),

  route('PUT /projects/:id/repository/tags/:tag_name/release', {
    params,
    handler(ctx) {
      const project = readableProject(ctx)
      const release = findRelease(ctx.db, project, ctx.params.tag_name)
      if (!release || !canWrite(ctx, project)) throw forbidden()
      return ok(TagRelease(updateRelease(ctx, project, release, { description: ctx.params.description })))
    },
  }),
]
