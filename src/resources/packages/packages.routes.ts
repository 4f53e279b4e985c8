/**
 * The package registry's routes: a project's packages listed, read and deleted, their files
 * listed, a group's packages listed, and generic packages uploaded and downloaded. Every route
 * reads the project (404 `{"message":"404 Project Not Found"}` when unreadable) and then the
 * caller's ability (403 `{"message":"403 Forbidden"}`). The generic routes also take a deploy
 * token (`Deploy-Token` header) with `read_package_registry` / `write_package_registry`.
 * gitlab (13.12): lib/api/project_packages.rb, lib/api/group_packages.rb, lib/api/package_files.rb,
 * lib/api/generic_packages.rb, lib/api/helpers/packages_helpers.rb.
 * @module
 */
import { base64ToUint8Array } from 'uint8array-extras'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, grapeError, notFound, unauthorized } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p, type RawParams } from '../../core/params.js'
import { noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { contentDisposition } from '../../rules/uploads.js'
import type { DeployTokenRecord } from '../deploy-tokens/deploy-tokens.public.js'
import { Package, PackageFile } from './packages.entities.js'
import { GENERIC_NAME, GENERIC_VERSION } from './packages.rules.js'
import {
  canReadGroupPackages,
  createGenericPackageFile,
  destroyPackage,
  filterPackages,
  findGenericFile,
  findPackage,
  groupPackages,
  packageAbilities,
  packageFiles,
  projectPackages,
  requestDeployToken,
  type PackageAbilities,
} from './packages.service.js'
import { PACKAGE_TYPES, type PackageRecord } from './packages.tables.js'

const projectId = { id: p.string({ required: true }) }

const listParams = {
  ...paginationParams,
  sort: p.string({ values: ['asc', 'desc'], default: 'asc' }),
  package_type: p.string({ values: PACKAGE_TYPES }),
  package_name: p.string(),
}

/**
 * The project for the request's user, or for its deploy token: a token that may read the
 * project's packages sees it whatever its visibility (`authorized_user_project`).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`.
 */
function packageProject(ctx: Ctx<{ id: string }>, token: DeployTokenRecord | undefined): ProjectRecord {
  if (token) {
    const key = ctx.params.id
    const project = /^\d+$/.test(key) ? ctx.db.tables.projects.get(Number(key)) : ctx.db.findProjectByFullPath(key)
    if (!project || !packageAbilities(ctx, project, token).read) throw notFound('Project')
    return project
  }
  return findProject(ctx, ctx.params.id)
}

/** `authorize_packages_access!(user_project)`: the project, then `read_package`. @throws ApiError 404, then 403. */
function readableProject(ctx: Ctx<{ id: string }>): { project: ProjectRecord; abilities: PackageAbilities } {
  const project = findProject(ctx, ctx.params.id)
  const abilities = packageAbilities(ctx, project)
  if (!abilities.read) throw forbidden()
  return { project, abilities }
}

/** The other versions of a package's name and type in its project, in version order (`package.versions`). */
function versionsOf(ctx: Ctx<unknown>, pkg: PackageRecord): PackageRecord[] {
  return ctx.db.tables.packages
    .where('project_id', pkg.project_id)
    .filter((o) => o.id !== pkg.id && o.name === pkg.name && o.package_type === pkg.package_type && o.version !== null && o.version !== pkg.version)
    .sort((a, b) => ((a.version ?? '') < (b.version ?? '') ? -1 : (a.version ?? '') > (b.version ?? '') ? 1 : a.id - b.id))
}

/**
 * Grape's checks of the generic path's params in their declared order (`regexp`, then
 * `file_path`): `"<param> is invalid"`, `"<param> should be a valid file path"`.
 * @throws ApiError 400 `{"error":"package_name is invalid"}` and the like.
 */
function checkGenericPath(raw: RawParams): void {
  const checks: [string, RegExp][] = [['package_name', GENERIC_NAME], ['package_version', GENERIC_VERSION], ['file_name', GENERIC_NAME]]
  for (const [name, regexp] of checks) {
    const value = typeof raw[name] === 'string' ? raw[name] : ''
    if (!regexp.test(value)) throw grapeError(`${name} is invalid`)
    // `file_path: true` (Gitlab::Utils.check_path_traversal!): a lone `..` within the segment.
    if (name !== 'package_version' && value === '..') throw grapeError(`${name} should be a valid file path`)
  }
}

const genericParams = {
  ...projectId,
  package_name: p.string({ required: true }),
  package_version: p.string({ required: true }),
  file_name: p.string({ required: true }),
}

/** The package registry's routes. */
export const packageRoutes: Route[] = [
  route('GET /projects/:id/packages', {
    auth: 'optional',
    params: {
      ...projectId,
      ...listParams,
      order_by: p.string({ values: ['created_at', 'name', 'version', 'type'], default: 'created_at' }),
      include_versionless: p.boolean({ default: false }),
    },
    handler(ctx) {
      const { project, abilities } = readableProject(ctx)
      const { order_by, sort, package_type, package_name, include_versionless } = ctx.params
      const rows = filterPackages(ctx.db, projectPackages(ctx.db, project), { order_by, sort, package_type, package_name, include_versionless })
      return paginated(ctx, rows, (pkg) => Package(pkg, ctx, { canDestroy: abilities.destroy, versions: versionsOf(ctx, pkg) }))
    },
  }),

  route('GET /projects/:id/packages/:package_id', {
    auth: 'optional',
    params: { ...projectId, package_id: p.integer({ required: true }) },
    handler(ctx) {
      const { project, abilities } = readableProject(ctx)
      const pkg = findPackage(ctx.db, project, ctx.params.package_id)
      return ok(Package(pkg, ctx, { canDestroy: abilities.destroy, versions: versionsOf(ctx, pkg) }))
    },
  }),

  route('DELETE /projects/:id/packages/:package_id', {
    auth: 'optional',
    params: { ...projectId, package_id: p.integer({ required: true }) },
    handler(ctx) {
      const { project, abilities } = readableProject(ctx)
      // `authorize_destroy_package!` (Maintainer+), before the package is looked for.
      if (!abilities.destroy) throw forbidden()
      const pkg = findPackage(ctx.db, project, ctx.params.package_id)
      checkUnmodifiedSince(ctx, pkg.updated_at)
      destroyPackage(ctx.db, pkg)
      return noContent()
    },
  }),

  route('GET /projects/:id/packages/:package_id/package_files', {
    auth: 'optional',
    params: { ...projectId, package_id: p.integer({ required: true }), ...paginationParams },
    handler(ctx) {
      const { project } = readableProject(ctx)
      const pkg = findPackage(ctx.db, project, ctx.params.package_id)
      return paginated(ctx, packageFiles(ctx.db, pkg), PackageFile)
    },
  }),

  route('GET /groups/:id/packages', {
    auth: 'optional',
    params: {
      ...projectId,
      ...listParams,
      exclude_subgroups: p.boolean({ default: false }),
      order_by: p.string({ values: ['created_at', 'name', 'version', 'type', 'project_path'], default: 'created_at' }),
    },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      if (!canReadGroupPackages(ctx, group)) throw forbidden()
      const { order_by, sort, package_type, package_name, exclude_subgroups } = ctx.params
      const rows = filterPackages(ctx.db, groupPackages(ctx, group, exclude_subgroups), { order_by, sort, package_type, package_name })
      return paginated(ctx, rows, (pkg) => {
        const project = ctx.db.tables.projects.get(pkg.project_id)!
        return Package(pkg, ctx, { canDestroy: packageAbilities(ctx, project).destroy, group: true, versions: versionsOf(ctx, pkg) })
      })
    },
  }),

  route('PUT /projects/:id/packages/generic/:package_name/:package_version/:file_name', {
    auth: 'optional',
    jobTokenAllowed: true,
    rawBody: true,
    params: {
      ...genericParams,
      status: p.string({ values: ['default', 'hidden'] }),
      select: p.string({ values: ['package_file'] }),
    },
    before(ctx) {
      // `authenticate_non_get!`, then the path's params.
      if (!ctx.currentUser && !requestDeployToken(ctx)) throw unauthorized()
      checkGenericPath(ctx.raw)
    },
    handler(ctx) {
      const token = requestDeployToken(ctx)
      const project = packageProject(ctx, token)
      // `authorize_upload!`: `create_package` (Developer+, or a write_package_registry token).
      if (!packageAbilities(ctx, project, token).create) throw forbidden()
      const { package_name, package_version, file_name, status } = ctx.params
      const file = createGenericPackageFile(ctx.db, project, { name: package_name, version: package_version, fileName: file_name, status, bytes: ctx.body ?? new Uint8Array() }, ctx.now)
      if (ctx.params.select === 'package_file') return ok(PackageFile(file))
      return { status: 201, body: { message: '201 Created' } }
    },
  }),

  route('GET /projects/:id/packages/generic/:package_name/:package_version/:file_name', {
    auth: 'optional',
    jobTokenAllowed: true,
    params: genericParams,
    before(ctx) {
      checkGenericPath(ctx.raw)
    },
    handler(ctx) {
      const token = requestDeployToken(ctx)
      const project = packageProject(ctx, token)
      // `authorize_read_package!`.
      if (!packageAbilities(ctx, project, token).read) throw forbidden()
      const { package_name, package_version, file_name } = ctx.params
      const file = findGenericFile(ctx.db, project, package_name, package_version, file_name)
      // `present_carrierwave_file!` → `present_disk_file!`: the bytes as an attachment.
      return {
        status: 200,
        bytes: base64ToUint8Array(file.content),
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': contentDisposition('attachment', file.file_name),
          'content-transfer-encoding': 'binary',
        },
      }
    },
  }),
]
