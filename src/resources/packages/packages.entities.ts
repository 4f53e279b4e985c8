/**
 * The package registry's entities, in GitLab 13.12's field order.
 * gitlab: lib/api/entities/package.rb, lib/api/entities/package_version.rb,
 * lib/api/entities/package_file.rb.
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { PackageFileRecord, PackageRecord } from './packages.tables.js'

/** GitLab's `PackageVersion` entity: another version of the same package. */
function PackageVersion(pkg: PackageRecord) {
  return { id: pkg.id, version: pkg.version, created_at: pkg.created_at, tags: [] as string[] }
}

/** What {@link Package} needs beside the record. */
export interface PackageOptions {
  /** Whether the caller may delete it (`delete_api_path` is shown only then). */
  canDestroy: boolean
  /** Listed for a group (`project_id` and `project_path` are shown). */
  group?: boolean
  /** The project's other versions of the same name and type, in version order. */
  versions: readonly PackageRecord[]
}

/**
 * `{id, name, version, package_type, _links: {web_path, delete_api_path}, created_at,
 * [project_id, project_path], tags, versions}`. `tags` is always empty (fakelab keeps no package
 * tags); `pipeline` is never shown (no package carries build info).
 */
export function Package(pkg: PackageRecord, ctx: PresentCtx, options: PackageOptions) {
  const project = ctx.db.tables.projects.get(pkg.project_id)!
  const fullPath = ctx.db.projectFullPath(project)
  return {
    id: pkg.id,
    name: pkg.name,
    version: pkg.version,
    package_type: pkg.package_type,
    _links: {
      web_path: `/${fullPath}/-/packages/${pkg.id}`,
      ...(options.canDestroy ? { delete_api_path: `${ctx.baseUrl}/api/v4/projects/${project.id}/packages/${pkg.id}` } : {}),
    },
    created_at: pkg.created_at,
    ...(options.group ? { project_id: project.id, project_path: fullPath } : {}),
    tags: [] as string[],
    versions: options.versions.map(PackageVersion),
  }
}

/** GitLab's `PackageFile` entity: `{id, package_id, created_at, file_name, size, file_md5, file_sha1}`. */
export function PackageFile(file: PackageFileRecord) {
  return {
    id: file.id,
    package_id: file.package_id,
    created_at: file.created_at,
    file_name: file.file_name,
    size: file.size,
    file_md5: file.file_md5,
    file_sha1: file.file_sha1,
  }
}
