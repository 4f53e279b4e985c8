/**
 * The releases area: `/projects/:id/releases` and their asset links, the `releases` and
 * `release_links` tables, and `releases:` of scenario projects. A release is on a tag of the
 * project's repository (the repository area's public module); creating one on a missing tag makes
 * the tag from `ref`, deleting one leaves the tag. Also the tags API's deprecated release notes.
 * gitlab: lib/api/releases.rb, lib/api/release/links.rb, lib/api/tags.rb (13.x).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { registerTagReleaseCreator, registerTagReleaseLookup } from '../repository/repository.public.js'
import type { Release as ReleasePresenter, ReleaseLink as ReleaseLinkPresenter } from './releases.entities.js'
import { releaseFragment } from './releases.scenario.js'
import { findRelease } from './releases.service.js'
import { releaseTables } from './releases.tables.js'
import { createReleaseOfTag } from './tag-release.routes.js'

export type { ReleaseLinkRecord, ReleaseRecord } from './releases.tables.js'
export type { ReleaseFields } from './releases.scenario.js'

/** GitLab's `Release` entity, as fakelab sends it. */
export type Release = ReturnType<typeof ReleasePresenter>
/** GitLab's `Releases::Link` entity, as fakelab sends it. */
export type ReleaseLink = ReturnType<typeof ReleaseLinkPresenter>

// Tags show their release (13.x `Entities::TagRelease`): the repository area asks through this hook,
// as it may not import this area.
registerTagReleaseLookup((db, projectId, tag) => {
  const release = findRelease(db, { id: projectId }, tag)
  return release ? { tag_name: release.tag, description: release.description } : null
})
// …and `POST /projects/:id/repository/tags` makes a release from `release_description` through this one.
registerTagReleaseCreator(createReleaseOfTag)

/** The releases area. */
export const releases: Area = {
  name: 'releases',
  load: async () => {
    const [{ releaseRoutes }, { tagReleaseRoutes }] = await Promise.all([import('./releases.routes.js'), import('./tag-release.routes.js')])
    return { api: [...releaseRoutes, ...tagReleaseRoutes] }
  },
  tables: releaseTables,
  scenario: releaseFragment,
}
