/**
 * The packages area: the package registry's reads (a project's and a group's packages, a package's
 * files), deletes, and generic packages uploaded and downloaded; the `packages` and
 * `package_files` tables; and projects' `packages:` in the scenario.
 * gitlab (13.12): lib/api/project_packages.rb, lib/api/group_packages.rb, lib/api/package_files.rb,
 * lib/api/generic_packages.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { packageFragment } from './packages.scenario.js'
import { packageTables } from './packages.tables.js'
import type { Package as PackagePresenter, PackageFile as PackageFilePresenter } from './packages.entities.js'

export type { PackageFileRecord, PackageRecord, PackageStatus, PackageType } from './packages.tables.js'
export type { PackageFields } from './packages.scenario.js'

/** GitLab's `Package` entity, as fakelab sends it. */
export type Package = ReturnType<typeof PackagePresenter>
/** GitLab's `PackageFile` entity, as fakelab sends it. */
export type PackageFile = ReturnType<typeof PackageFilePresenter>

/** The packages area. */
export const packages: Area = {
  name: 'packages',
  load: async () => {
    const { packageRoutes } = await import('./packages.routes.js')
    return { api: packageRoutes }
  },
  tables: packageTables,
  scenario: packageFragment,
}
