/**
 * The package registry's tables: packages and their files.
 * gitlab: db/structure.sql (`packages_packages`, `packages_package_files`), app/models/packages/package.rb,
 * app/models/packages/package_file.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** The package types of 13.12 (`Packages::Package.package_types`), in enum order. */
export const PACKAGE_TYPES = ['maven', 'npm', 'conan', 'nuget', 'pypi', 'composer', 'generic', 'golang', 'debian', 'rubygems'] as const

/** One of {@link PACKAGE_TYPES}. */
export type PackageType = (typeof PACKAGE_TYPES)[number]

/** A package's `status`: `default`, or `hidden` (not listed by installers), as the generic API sets it. */
export type PackageStatus = 'default' | 'hidden'

/** A package of a project (`packages_packages`): a name and version of one type. */
export interface PackageRecord extends Row {
  project_id: number
  name: string
  /** null for a versionless package (`include_versionless`). */
  version: string | null
  package_type: PackageType
  status: PackageStatus
  created_at: Timestamp
  updated_at: Timestamp
}

/** A file of a package (`packages_package_files`): its bytes stored base64, with their digests. */
export interface PackageFileRecord extends Row {
  package_id: number
  file_name: string
  /** Bytes. */
  size: number
  file_md5: string
  file_sha1: string
  file_sha256: string
  /** The file's bytes, standard base64. */
  content: string
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    packages: PackageRecord
    package_files: PackageFileRecord
  }
}

/** The tables and their indexes: packages by project, files by package. */
export const packageTables = {
  packages: table<PackageRecord>(['project_id']),
  package_files: table<PackageFileRecord>(['package_id']),
}
