/**
 * The package registry's rules: who may read, write and delete a project's packages (a user's
 * role, or a deploy token's scopes), the finders of the lists, and the generic package writes.
 * gitlab (13.12): app/policies/project_policy.rb (`read_package` for Reporter+ and public access,
 * `create_package` Developer+, `destroy_package` Maintainer+), app/policies/group_policy.rb,
 * app/finders/packages/packages_finder.rb, app/finders/packages/group_packages_finder.rb,
 * app/services/packages/generic/create_package_file_service.rb, lib/api/helpers/packages_helpers.rb.
 * @module
 */
import { md5, sha1 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { recordNotFound } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { AccessLevel, canReadProject, hasGroupAccess, hasProjectAccess } from '../../rules/access.js'
import { storedBytes } from '../../rules/uploads.js'
import { deployTokenByToken, deployTokenPackageAccess, type DeployTokenRecord } from '../deploy-tokens/deploy-tokens.public.js'
import type { PackageFileRecord, PackageRecord, PackageStatus, PackageType } from './packages.tables.js'

/** The deploy token of a request (`Deploy-Token` header), when it names an active one; only for a request with no user. */
export function requestDeployToken(ctx: Ctx<unknown>): DeployTokenRecord | undefined {
  if (ctx.currentUser) return undefined
  const secret = ctx.request.header('deploy-token')
  return secret ? deployTokenByToken(ctx.db, secret, ctx.now) : undefined
}

/** What the caller may do with the project's packages. */
export interface PackageAbilities {
  read: boolean
  create: boolean
  destroy: boolean
}

/**
 * `read_package`, `create_package`, `destroy_package` on the project for the request's user, or
 * for its deploy token when it has no user (its scopes where it has access, and a public
 * project's reads).
 */
export function packageAbilities(ctx: Ctx<unknown>, project: ProjectRecord, token?: DeployTokenRecord): PackageAbilities {
  if (token) {
    const access = deployTokenPackageAccess(ctx.db, token, project)
    // A public project's packages are public to any caller (`public_access`).
    return { read: access.read || project.visibility === 'public', create: access.write, destroy: access.write }
  }
  const user = ctx.currentUser
  const at = (level: number) => hasProjectAccess(ctx.db, user, project, level, ctx.today)
  const publicAccess = project.visibility !== 'private' && canReadProject(ctx.db, user, project, ctx.today)
  return { read: publicAccess || at(AccessLevel.REPORTER), create: at(AccessLevel.DEVELOPER), destroy: at(AccessLevel.MAINTAINER) }
}

/** GroupPolicy's `read_package`: a public group, or Reporter+ in it. */
export function canReadGroupPackages(ctx: Ctx<unknown>, group: GroupRecord): boolean {
  return group.visibility === 'public' || hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.REPORTER, ctx.today)
}

/** The list filters of `GET /projects/:id/packages` and `GET /groups/:id/packages`. */
export interface PackageFilters {
  order_by: 'created_at' | 'name' | 'version' | 'type' | 'project_path'
  sort: 'asc' | 'desc'
  package_type?: PackageType | undefined
  package_name?: string | undefined
  include_versionless?: boolean | undefined
}

/** A value's sort key per `order_by`. */
function sortKey(db: Db, p: PackageRecord, by: PackageFilters['order_by']): string {
  switch (by) {
    case 'name': return p.name
    case 'version': return p.version ?? ''
    case 'type': return p.package_type
    case 'project_path': {
      const project = db.tables.projects.get(p.project_id)
      return project ? db.projectFullPath(project) : ''
    }
    default: return p.created_at
  }
}

/**
 * `PackagesFinder`'s filters and order over `packages`: versionless ones only when asked, the
 * type, the name as a case-insensitive substring (`search_by_name`), then `order_by` in `sort`
 * direction with the id breaking ties the same way.
 */
export function filterPackages(db: Db, packages: readonly PackageRecord[], f: PackageFilters): PackageRecord[] {
  let rows = packages.filter((p) => f.include_versionless || p.version !== null)
  if (f.package_type) rows = rows.filter((p) => p.package_type === f.package_type)
  if (f.package_name) {
    const needle = f.package_name.toLowerCase()
    rows = rows.filter((p) => p.name.toLowerCase().includes(needle))
  }
  const dir = f.sort === 'desc' ? -1 : 1
  return rows.sort((a, b) => {
    const x = sortKey(db, a, f.order_by)
    const y = sortKey(db, b, f.order_by)
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * dir
  })
}

/** A project's packages, in id order. */
export function projectPackages(db: Db, project: ProjectRecord): PackageRecord[] {
  return db.tables.packages.where('project_id', project.id)
}

/** The group and, unless `excludeSubgroups`, its descendants' ids. */
function groupIds(db: Db, group: GroupRecord, excludeSubgroups: boolean): Set<number> {
  const ids = new Set([group.id])
  if (excludeSubgroups) return ids
  let grew = true
  while (grew) {
    grew = false
    for (const g of db.tables.groups.all()) {
      if (g.parent_id !== null && ids.has(g.parent_id) && !ids.has(g.id)) {
        ids.add(g.id)
        grew = true
      }
    }
  }
  return ids
}

/**
 * `GroupPackagesFinder`: the packages of the group's projects (and its subgroups' unless
 * `excludeSubgroups`) whose packages the caller may read.
 */
export function groupPackages(ctx: Ctx<unknown>, group: GroupRecord, excludeSubgroups: boolean): PackageRecord[] {
  const ids = groupIds(ctx.db, group, excludeSubgroups)
  const projects = ctx.db.tables.projects.all().filter((p) => p.namespace_type === 'group' && ids.has(p.namespace_id) && packageAbilities(ctx, p).read)
  return projects.flatMap((p) => projectPackages(ctx.db, p))
}

/**
 * `Packages::PackageFinder`: the project's package with that id.
 * @throws ApiError 404 `{"message":"404 Not found"}`.
 */
export function findPackage(db: Db, project: ProjectRecord, id: number): PackageRecord {
  const pkg = Number.isSafeInteger(id) ? db.tables.packages.get(id) : undefined
  if (!pkg || pkg.project_id !== project.id) throw recordNotFound()
  return pkg
}

/** A package's files, in id order. */
export function packageFiles(db: Db, pkg: PackageRecord): PackageFileRecord[] {
  return db.tables.package_files.where('package_id', pkg.id)
}

/** Deletes a package and its files. */
export function destroyPackage(db: Db, pkg: PackageRecord): void {
  for (const file of packageFiles(db, pkg)) db.tables.package_files.delete(file.id)
  db.tables.packages.delete(pkg.id)
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** A package file's stored fields for `bytes` (its size, digests and base64 content). */
export function packageFileFields(fileName: string, bytes: Uint8Array): Pick<PackageFileRecord, 'file_name' | 'size' | 'file_md5' | 'file_sha1' | 'file_sha256' | 'content'> {
  return { file_name: fileName, size: bytes.length, file_md5: hex(md5(bytes)), file_sha1: hex(sha1(bytes)), file_sha256: hex(sha256(bytes)), content: storedBytes(bytes) }
}

/** What `PUT /projects/:id/packages/generic/...` stores. */
export interface GenericUpload {
  name: string
  version: string
  fileName: string
  status?: PackageStatus | undefined
  bytes: Uint8Array
}

/**
 * `Packages::Generic::CreatePackageFileService`: finds or creates the generic package of that
 * name and version (`FindOrCreatePackageService`), sets its status when one is given, and adds
 * the file (a file of the same name again is another file: 13.12 refuses no duplicate; downloads
 * take the newest).
 * @returns the new package file.
 */
export function createGenericPackageFile(db: Db, project: ProjectRecord, upload: GenericUpload, now: string): PackageFileRecord {
  let pkg = projectPackages(db, project).find((p) => p.package_type === 'generic' && p.name === upload.name && p.version === upload.version)
  if (!pkg) {
    pkg = db.tables.packages.insert({ project_id: project.id, name: upload.name, version: upload.version, package_type: 'generic', status: upload.status ?? 'default', created_at: now, updated_at: now })
  } else if (upload.status && upload.status !== pkg.status) {
    pkg = db.tables.packages.update(pkg.id, { status: upload.status, updated_at: now })
  }
  return db.tables.package_files.insert({ package_id: pkg.id, ...packageFileFields(upload.fileName, upload.bytes), created_at: now, updated_at: now })
}

/**
 * `PackageFileFinder#execute!` for a generic download: the newest file of that name of the
 * project's generic package of that name and version.
 * @throws ApiError 404 `{"message":"404 Not found"}` when the package or the file is missing.
 */
export function findGenericFile(db: Db, project: ProjectRecord, name: string, version: string, fileName: string): PackageFileRecord {
  const pkg = projectPackages(db, project).find((p) => p.package_type === 'generic' && p.name === name && p.version === version)
  if (!pkg) throw recordNotFound()
  const file = packageFiles(db, pkg).filter((f) => f.file_name === fileName).at(-1)
  if (!file) throw recordNotFound()
  return file
}
