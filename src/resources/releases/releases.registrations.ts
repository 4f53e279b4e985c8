/**
 * The releases area's hooks in the repository area, loaded by its `register` (issue 39 item 4)
 * before the first request. gitlab: lib/api/entities/tag_release.rb, lib/api/tags.rb.
 * @module
 */
import { registerTagReleaseCreator, registerTagReleaseLookup } from '../repository/repository.public.js'
import { findRelease } from './releases.service.js'
import { createReleaseOfTag } from './tag-release.routes.js'

// Tags show their release (13.x `Entities::TagRelease`): the repository area asks through this hook,
// as it may not import this area.
registerTagReleaseLookup((db, projectId, tag) => {
  const release = findRelease(db, { id: projectId }, tag)
  return release ? { tag_name: release.tag, description: release.description } : null
})
// …and `POST /projects/:id/repository/tags` makes a release from `release_description` through this one.
registerTagReleaseCreator(createReleaseOfTag)
