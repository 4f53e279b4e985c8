/**
 * Project wikis: list pages (`with_content`), get, create, update, delete a page, and upload an
 * attachment. No route authenticates by itself (wikis.rb has no `authenticate!`): the project must
 * be readable (404 otherwise), then `read_wiki` (whoever reads the project, the wiki feature being
 * enabled), `create_wiki` (Developer+) for create, update and attachments, `admin_wiki`
 * (Maintainer+) for delete, each a 403 when missing, anonymous callers included.
 * Group wikis are a paid feature (GitLab Premium): not simulated (docs/spec-gaps.md).
 * gitlab: lib/api/wikis.rb, lib/api/helpers/wikis_helpers.rb, app/policies/project_policy.rb (13.12).
 * @module
 */
import { forbidden, notFound } from '../../core/errors.js'
import { p, uploadedBytes } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { WikiAttachment, WikiPage, WikiPageBasic } from './wikis.entities.js'
import { createWikiAttachment, createWikiPage, deleteWikiPage, findWikiPage, updateWikiPage, wikiPagesOf } from './wikis.service.js'
import { WIKI_FORMATS, type WikiFormat, type WikiPageRecord } from './wikis.tables.js'

const FORMATS = Object.keys(WIKI_FORMATS) as WikiFormat[]

/**
 * `find_container(:projects)` then `authorize!`: the project (404 when unreadable), and the
 * caller holding `level` in it (administrators always do); reading needs no more than the project.
 * @throws ApiError 404 `Project Not Found`, 403 `{"message":"403 Forbidden"}`.
 */
function wikiProject(ctx: Ctx<{ id: string }>, level: number | null): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (level !== null && !hasProjectAccess(ctx.db, ctx.currentUser, project, level, ctx.today)) throw forbidden()
  return project
}

/** `wiki_page`: the page, or 404 `Wiki Page Not Found`. */
function wikiPage(ctx: Ctx<unknown>, project: ProjectRecord, slug: string): WikiPageRecord {
  const page = findWikiPage(ctx.db, project, slug)
  if (!page) throw notFound('Wiki Page')
  return page
}

/** `SecureRandom.hex`: 32 lower-case hex digits, from the simulator's seeded faker. */
function secretHex(ctx: Ctx<unknown>): string {
  return ctx.faker.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' })
}

const projectId = { id: p.string({ required: true }) }
const slugParams = { ...projectId, slug: p.string({ required: true }) }
const formatParam = { format: p.string({ values: FORMATS, default: 'markdown' }) }

/** The wiki routes. */
export const wikiRoutes: Route[] = [
  route('GET /projects/:id/wikis', {
    auth: 'optional',
    params: { ...projectId, with_content: p.boolean({ default: false }) },
    handler(ctx) {
      const project = wikiProject(ctx, null)
      const pages = wikiPagesOf(ctx.db, project)
      return ok(pages.map((page) => (ctx.params.with_content ? WikiPage(page) : WikiPageBasic(page))))
    },
  }),

  route('GET /projects/:id/wikis/:slug', {
    auth: 'optional',
    params: slugParams,
    handler(ctx) {
      const project = wikiProject(ctx, null)
      return ok(WikiPage(wikiPage(ctx, project, ctx.params.slug)))
    },
  }),

  route('POST /projects/:id/wikis', {
    auth: 'optional',
    params: { ...projectId, title: p.string({ required: true }), content: p.string({ required: true }), ...formatParam, message: p.string() },
    handler(ctx) {
      const project = wikiProject(ctx, AccessLevel.DEVELOPER)
      const { title, content, format, message } = ctx.params
      return created(WikiPage(createWikiPage(ctx, project, { title, content, format: format as WikiFormat, message })))
    },
  }),

  route('PUT /projects/:id/wikis/:slug', {
    auth: 'optional',
    // `format` defaults to markdown, so `at_least_one_of :content, :title, :format` always holds.
    params: { ...slugParams, title: p.string(), content: p.string(), ...formatParam, message: p.string() },
    handler(ctx) {
      const project = wikiProject(ctx, AccessLevel.DEVELOPER)
      const page = wikiPage(ctx, project, ctx.params.slug)
      const { title, content, format, message } = ctx.params
      return ok(WikiPage(updateWikiPage(ctx, project, page, { title, content, format: format as WikiFormat, message })))
    },
  }),

  route('DELETE /projects/:id/wikis/:slug', {
    auth: 'optional',
    params: slugParams,
    handler(ctx) {
      const project = wikiProject(ctx, AccessLevel.MAINTAINER)
      deleteWikiPage(ctx, project, wikiPage(ctx, project, ctx.params.slug))
      return noContent()
    },
  }),

  route('POST /projects/:id/wikis/attachments', {
    auth: 'optional',
    params: { ...projectId, file: p.file({ required: true }), branch: p.string() },
    handler(ctx) {
      const project = wikiProject(ctx, AccessLevel.DEVELOPER)
      const file = ctx.params.file
      const name = file instanceof File ? file.name : 'blob'
      const user = ctx.currentUser!
      const attachment = createWikiAttachment({ db: ctx.db, currentUser: user, now: ctx.now, baseUrl: ctx.baseUrl }, project, name, uploadedBytes(file), ctx.params.branch ?? 'master', secretHex(ctx))
      return created(WikiAttachment(attachment))
    },
  }),
]
