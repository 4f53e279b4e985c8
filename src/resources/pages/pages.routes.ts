/**
 * GitLab Pages domains and unpublishing: `GET /pages/domains` (administrators), the project's
 * domains at `/projects/:id/pages/domains[/:domain]`, and `DELETE /projects/:id/pages`.
 * Every route needs a signed-in caller (401); an unreadable project is 404 before anything else
 * (`require_pages_enabled!` reads `user_project` in the `before` block); then parameter errors (400),
 * then `read_pages`/`update_pages` (Maintainer+, 403). Pages are enabled on the simulated instance.
 * gitlab: lib/api/pages_domains.rb, lib/api/pages.rb, app/policies/project_policy.rb (13.12).
 * @module
 */
import { forbidden, grapeError } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p, uploadedBytes, type RawParams } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { PagesDomain, PagesDomainBasic } from './pages.entities.js'
import { CERTIFICATE_AND_KEY } from './pages.messages.js'
import {
  createPagesDomain,
  deletePagesDomain,
  findPagesDomain,
  listAllPagesDomains,
  listPagesDomains,
  unpublishPages,
  updatePagesDomain,
} from './pages.service.js'

/** `user_project` in the `before` block: 404 for a project the caller may not read. */
function projectFirst(ctx: Ctx<RawParams>): void {
  findProject(ctx, String(ctx.params.id))
}

/**
 * The project, then `authorize! :read_pages`/`:update_pages`: both are in 13.12's maintainer block
 * of ProjectPolicy (administrators always pass).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 403 `{"message":"403 Forbidden"}`.
 */
function maintainedProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
  return project
}

/**
 * A `types: [File, String]` param (`certificate`, `key`): an upload's text or the string; undefined
 * when absent. `normalize_params_file_to_string` joins an upload's lines.
 * @throws ApiError 400 `{"error":"<name> is invalid"}` for any other value (a number, a hash).
 */
function fileOrString(ctx: Ctx<unknown>, name: string): string | undefined {
  const value = ctx.raw[name]
  if (value === undefined) return undefined
  if (typeof value === 'string') return value
  if (typeof Blob !== 'undefined' && value instanceof Blob) return new TextDecoder().decode(uploadedBytes(value))
  throw grapeError(`${name} is invalid`)
}

const projectId = { id: p.string({ required: true }) }
const domainParam = { domain: p.string({ required: true }) }

/** The Pages routes. */
export const pagesRoutes: Route[] = [
  route('GET /pages/domains', {
    auth: 'admin', // authenticated_with_can_read_all_resources!
    params: { ...paginationParams },
    handler: (ctx) => paginated(ctx, listAllPagesDomains(ctx.db), (d) => PagesDomainBasic(d, ctx)),
  }),

  route('GET /projects/:id/pages/domains', {
    before: projectFirst,
    params: { ...projectId, ...paginationParams },
    handler(ctx) {
      const project = maintainedProject(ctx)
      return paginated(ctx, listPagesDomains(ctx.db, project), (d) => PagesDomain(d, ctx))
    },
  }),

  route('GET /projects/:id/pages/domains/:domain', {
    before: projectFirst,
    params: { ...projectId, ...domainParam },
    handler(ctx) {
      const project = maintainedProject(ctx)
      return ok(PagesDomain(findPagesDomain(ctx.db, project, ctx.params.domain), ctx))
    },
  }),

  route('POST /projects/:id/pages/domains', {
    before: projectFirst,
    params: { ...projectId, ...domainParam, auto_ssl_enabled: p.boolean({ default: false, allowBlank: false }) },
    handler(ctx) {
      const certificate = fileOrString(ctx, 'certificate')
      const key = fileOrString(ctx, 'key')
      // Grape's `all_or_none_of :user_provided_certificate, :user_provided_key`.
      if ((certificate === undefined) !== (key === undefined)) throw grapeError(CERTIFICATE_AND_KEY)
      const project = maintainedProject(ctx)
      const hex = () => ctx.faker.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' })
      const domain = createPagesDomain(ctx.db, project, ctx.params.domain, { certificate, key, auto_ssl_enabled: ctx.params.auto_ssl_enabled }, ctx.now, hex)
      return created(PagesDomain(domain, ctx))
    },
  }),

  route('PUT /projects/:id/pages/domains/:domain', {
    before: projectFirst,
    params: { ...projectId, ...domainParam, auto_ssl_enabled: p.boolean() },
    handler(ctx) {
      const certificate = fileOrString(ctx, 'certificate')
      let key = fileOrString(ctx, 'key')
      const project = maintainedProject(ctx)
      const domain = findPagesDomain(ctx.db, project, ctx.params.domain)
      // "Remove empty private key if certificate is not empty": a new certificate alone keeps the key.
      if (certificate && !key) key = undefined
      return ok(PagesDomain(updatePagesDomain(ctx.db, domain, { certificate, key, auto_ssl_enabled: ctx.params.auto_ssl_enabled }, ctx.now), ctx))
    },
  }),

  route('DELETE /projects/:id/pages/domains/:domain', {
    before: projectFirst,
    params: { ...projectId, ...domainParam },
    handler(ctx) {
      const project = maintainedProject(ctx)
      deletePagesDomain(ctx.db, findPagesDomain(ctx.db, project, ctx.params.domain))
      return noContent()
    },
  }),

  // gitlab: lib/api/pages.rb: `authenticated_with_can_read_all_resources!` then `authorize! :remove_pages`.
  route('DELETE /projects/:id/pages', {
    auth: 'admin',
    params: projectId,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      unpublishPages(ctx.db, project)
      return noContent()
    },
  }),
]
