/**
 * The releases area: `/projects/:id/releases` and their asset links, the `releases` and
 * `release_links` tables, and `releases:` of scenario projects. A release is on a tag of the
 * project's repository (the repository area's public module); creating one on a missing tag makes
 * the tag from `ref`, deleting one leaves the tag. Also the tags API's deprecated release notes.
 * gitlab: lib/api/releases.rb, lib/api/release/links.rb, lib/api/tags.rb (13.x).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import type { Release as ReleasePresenter, ReleaseLink as ReleaseLinkPresenter } from './releases.entities.js'
import { releaseFragment } from './releases.scenario.js'
import { releaseTables } from './releases.tables.js'

export type { ReleaseLinkRecord, ReleaseRecord } from './releases.tables.js'
export type { ReleaseFields } from './releases.scenario.js'

/** GitLab's `Release` entity, as fakelab sends it. */
export type Release = ReturnType<typeof ReleasePresenter>
/** GitLab's `Releases::Link` entity, as fakelab sends it. */
export type ReleaseLink = ReturnType<typeof ReleaseLinkPresenter>

/** The releases area. */
export const releases: Area = {
  name: 'releases',
  load: async () => {
    const [{ releaseRoutes }, { tagReleaseRoutes }] = await Promise.all([import('./releases.routes.js'), import('./tag-release.routes.js')])
    return { api: [...releaseRoutes, ...tagReleaseRoutes] }
  },
  register: async () => {
    await import('./releases.registrations.js')
  },
  tables: releaseTables,
  scenario: releaseFragment,
}
