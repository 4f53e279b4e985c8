/**
 * Project releases and their asset links. Every route first finds the project (404
 * `Project Not Found` when unreadable) and needs `read_release` (anyone who reads the project);
 * getting one release also needs `download_code` on it (403 for a guest of a private project, and
 * 403 for everybody when the tag has no release: 13.x authorizes a nil release), creating
 * one Developer+ (`create_release`), and updating or deleting one `update_release` /
 * `destroy_release` on the release itself: Developer+, and 403 for everybody when the release does
 * not exist (13.x authorizes against a nil release before looking further).
 * gitlab: lib/api/releases.rb, lib/api/release/links.rb (13.x); app/policies/release_policy.rb
 * (delegates to the project), project_policy.rb.
 * @module
 */
import { forbidden, grapeError, recordNotFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { canDownloadCode } from '../repository/repository.public.js'
import { Release, ReleaseLink, sortedLinks, type ReleaseAbilities } from './releases.entities.js'
import {
  createRelease,
  destroyRelease,
  findRelease,
  LINK_TYPES,
  linkErrors,
  linksOf,
  listReleases,
  updateRelease,
  type LinkAttributes,
} from './releases.service.js'
import type { ReleaseRecord } from './releases.tables.js'

const projectId = { id: p.string({ required: true }) }
const tagName = { tag_name: p.string({ required: true }) }

/** Developer+ (administrators always): `create_release`, `update_release`, `destroy_release`. */
function canWrite(ctx: Ctx<unknown>, project: ProjectRecord): boolean {
  return hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.DEVELOPER, ctx.today)
}

/** What the caller may see and do, for the entity. */
function abilities(ctx: Ctx<unknown>, project: ProjectRecord): ReleaseAbilities {
  return { downloadCode: canDownloadCode(ctx, project), updateRelease: canWrite(ctx, project), readMilestone: true }
}

/** `authorize! :<write>_release, release`: 403 when the release is missing or the caller below Developer. */
function writableRelease(ctx: Ctx<{ id: string; tag_name: string }>, project: ProjectRecord): ReleaseRecord {
  const release = findRelease(ctx.db, project, ctx.params.tag_name)
  if (!release || !canWrite(ctx, project)) throw forbidden()
  return release
}

/** links.rb `release`: `find_by_tag!`, 404 `{"message":"404 Not found"}` when missing. */
function linkRelease(ctx: Ctx<{ id: string; tag_name: string }>): { project: ProjectRecord; release: ReleaseRecord } {
  const project = findProject(ctx, ctx.params.id)
  const release = findRelease(ctx.db, project, ctx.params.tag_name)
  if (!release) throw recordNotFound()
  return { project, release }
}

/** links.rb `link`: `release.links.find(link_id)`, 404 `404 Not found`. */
function findLink(ctx: Ctx<{ link_id: string }>, release: ReleaseRecord) {
  const id = Number(ctx.params.link_id)
  const link = Number.isSafeInteger(id) ? ctx.db.tables.release_links.get(id) : undefined
  if (!link || link.release_id !== release.id) throw recordNotFound()
  return link
}

/**
 * POST's `assets[links][]`, as Grape validates it: an array of hashes, each with `name` and `url`,
 * `link_type` one of the link types.
 * @throws ApiError 400 `{"error":"assets[links][0][url] is missing"}` and the like.
 */
function parseLinks(assets: Record<string, unknown> | undefined): LinkAttributes[] {
  const raw = assets?.links
  if (raw === undefined) return []
  if (!Array.isArray(raw)) throw grapeError('assets[links] is invalid')
  return raw.map((item, i) => {
    const at = (field: string) => `assets[links][${i}][${field}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw grapeError(`${at('name')} is missing, ${at('url')} is missing`)
    const a = item as Record<string, unknown>
    const str = (field: string) => (typeof a[field] === 'string' ? (a[field] as string) : typeof a[field] === 'number' ? String(a[field]) : undefined)
    const missing = ['name', 'url'].filter((f) => str(f) === undefined).map((f) => `${at(f)} is missing`)
    if (missing.length > 0) throw grapeError(missing.join(', '))
    const linkType = str('link_type')
    if (linkType !== undefined && !(LINK_TYPES as readonly string[]).includes(linkType)) throw grapeError(`${at('link_type')} does not have a valid value`)
    return { name: str('name'), url: str('url'), filepath: str('filepath'), link_type: linkType as LinkAttributes['link_type'] }
  })
}

/** The release and link routes (`/projects/:id/releases[/:tag_name[/assets/links[/:link_id]]]`). */
export const releaseRoutes: Route[] = [
  route('GET /projects/:id/releases', {
    auth: 'optional',
    params: {
      ...projectId,
      order_by: p.string({ values: ['released_at', 'created_at'], default: 'released_at' }),
      sort: p.string({ values: ['asc', 'desc'], default: 'desc' }),
      include_html_description: p.boolean(),
      ...paginationParams,
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const can = abilities(ctx, project)
      const options = { includeHtmlDescription: ctx.params.include_html_description === true }
      return paginated(ctx, listReleases(ctx.db, project, ctx.params.order_by, ctx.params.sort), (r) => Release(r, project, ctx, can, options))
    },
  }),

  route('GET /projects/:id/releases/:tag_name', {
    auth: 'optional',
    params: { ...projectId, ...tagName, include_html_description: p.boolean() },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize_download_code!` is `authorize! :download_code, release`: 13.x asks the policy of a
      // nil release, so a tag without a release is 403 like a caller without download_code (GitLab's
      // spec/requests/api/releases_spec.rb expects forbidden), never 404.
      const release = findRelease(ctx.db, project, ctx.params.tag_name)
      if (!release || !canDownloadCode(ctx, project)) throw forbidden()
      return ok(Release(release, project, ctx, abilities(ctx, project), { includeHtmlDescription: ctx.params.include_html_description === true }))
    },
  }),

  route('POST /projects/:id/releases', {
    params: {
      ...projectId,
      ...tagName,
      name: p.string(),
      description: p.string(),
      ref: p.string(),
      assets: p.hash(),
      milestones: p.strings(),
      released_at: p.datetime(),
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canWrite(ctx, project)) throw forbidden()
      const links = parseLinks(ctx.params.assets)
      const { tag_name, name, description, ref, milestones, released_at } = ctx.params
      const release = createRelease(ctx, project, { tag: tag_name, name, description, ref, milestones, released_at, links })
      return created(Release(release, project, ctx, abilities(ctx, project)))
    },
  }),

  route('PUT /projects/:id/releases/:tag_name', {
    params: { ...projectId, ...tagName, name: p.string(), description: p.string(), released_at: p.datetime(), milestones: p.strings() },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const release = writableRelease(ctx, project)
      const { name, description, released_at, milestones } = ctx.params
      return ok(Release(updateRelease(ctx, project, release, { name, description, released_at, milestones }), project, ctx, abilities(ctx, project)))
    },
  }),

  route('DELETE /projects/:id/releases/:tag_name', {
    params: { ...projectId, ...tagName },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const release = writableRelease(ctx, project)
      return ok(Release(destroyRelease(ctx, project, release), project, ctx, abilities(ctx, project)))
    },
  }),

  // gitlab: lib/api/release/links.rb
  route('GET /projects/:id/releases/:tag_name/assets/links', {
    auth: 'optional',
    params: { ...projectId, ...tagName, ...paginationParams },
    handler(ctx) {
      const { project, release } = linkRelease(ctx)
      return paginated(ctx, sortedLinks(linksOf(ctx.db, release)), (l) => ReleaseLink(l, release, project, ctx))
    },
  }),

  route('GET /projects/:id/releases/:tag_name/assets/links/:link_id', {
    auth: 'optional',
    params: { ...projectId, ...tagName, link_id: p.string({ required: true }) },
    handler(ctx) {
      const { project, release } = linkRelease(ctx)
      return ok(ReleaseLink(findLink(ctx, release), release, project, ctx))
    },
  }),

  route('POST /projects/:id/releases/:tag_name/assets/links', {
    params: {
      ...projectId,
      ...tagName,
      name: p.string({ required: true }),
      url: p.string({ required: true }),
      filepath: p.string(),
      link_type: p.string({ values: LINK_TYPES, default: 'other' }),
    },
    handler(ctx) {
      const { project, release } = linkRelease(ctx)
      if (!canWrite(ctx, project)) throw forbidden()
      const { name, url, filepath, link_type } = ctx.params
      const errors = linkErrors({ name, url, filepath }, linksOf(ctx.db, release))
      if (Object.keys(errors).length > 0) throw validationFailed(errors)
      const link = ctx.db.tables.release_links.insert({
        release_id: release.id,
        name,
        url,
        filepath: filepath || null,
        link_type,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      return created(ReleaseLink(link, release, project, ctx))
    },
  }),

  route('PUT /projects/:id/releases/:tag_name/assets/links/:link_id', {
    params: {
      ...projectId,
      ...tagName,
      link_id: p.string({ required: true }),
      name: p.string(),
      url: p.string(),
      filepath: p.string(),
      link_type: p.string({ values: LINK_TYPES }),
    },
    rules: { atLeastOneOf: ['name', 'url'] },
    handler(ctx) {
      const { project, release } = linkRelease(ctx)
      if (!canWrite(ctx, project)) throw forbidden()
      const link = findLink(ctx, release)
      const next = {
        name: ctx.params.name ?? link.name,
        url: ctx.params.url ?? link.url,
        filepath: ctx.params.filepath ?? link.filepath ?? undefined,
      }
      const errors = linkErrors(next, linksOf(ctx.db, release).filter((l) => l.id !== link.id))
      if (Object.keys(errors).length > 0) throw validationFailed(errors)
      const updated = ctx.db.tables.release_links.update(link.id, {
        name: next.name,
        url: next.url,
        filepath: next.filepath || null,
        link_type: ctx.params.link_type ?? link.link_type,
        updated_at: ctx.now,
      })
      return ok(ReleaseLink(updated, release, project, ctx))
    },
  }),

  route('DELETE /projects/:id/releases/:tag_name/assets/links/:link_id', {
    params: { ...projectId, ...tagName, link_id: p.string({ required: true }) },
    handler(ctx) {
      const { project, release } = linkRelease(ctx)
      if (!canWrite(ctx, project)) throw forbidden()
      const link = findLink(ctx, release)
      ctx.db.tables.release_links.delete(link.id)
      return ok(ReleaseLink(link, release, project, ctx))
    },
  }),
]
