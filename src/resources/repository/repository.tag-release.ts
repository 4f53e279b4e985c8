/**
 * The release note a tag shows (`Tag` entity's `release`, 13.x `Entities::TagRelease`
 * `{tag_name, description}`), and the release `POST /projects/:id/repository/tags` makes from its
 * deprecated `release_description`. Releases are another area, which imports this one; so that the
 * repository area needs no import of it (no cycle), the releases area registers its lookup and its
 * create service here when it loads (`registerTagReleaseLookup`, `registerTagReleaseCreator`); a
 * tag shows `release: null` without one, and `release_description` is then not kept.
 * gitlab: lib/api/entities/tag.rb, tag_release.rb, lib/api/tags.rb (13.x).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'

/** `Entities::TagRelease`: a tag's release, as the tags API nests it. */
export interface TagRelease {
  tag_name: string
  description: string | null
}

/** Finds the release of a project's tag, or null. Must only read the store. */
export type TagReleaseLookup = (db: Db, projectId: number, tag: string) => TagRelease | null

let lookup: TagReleaseLookup | null = null

/** Sets where tags find their release (the releases area calls this once, as it loads). */
export function registerTagReleaseLookup(next: TagReleaseLookup): void {
  lookup = next
}

/** The release of the project's tag `tag`, or null (no release, or no releases area loaded). */
export function tagRelease(db: Db, projectId: number, tag: string): TagRelease | null {
  return lookup ? lookup(db, projectId, tag) : null
}

/**
 * Makes the release of an existing tag (`Releases::CreateService` with `tag`, `name: tag` and
 * `description`); a refusal (a release already there) is ignored, as tags.rb ignores the result.
 */
export type TagReleaseCreator = (ctx: Ctx<unknown>, project: ProjectRecord, tag: string, description: string) => void

let creator: TagReleaseCreator | null = null

/** Sets how `release_description` makes a release (the releases area calls this once, as it loads). */
export function registerTagReleaseCreator(next: TagReleaseCreator): void {
  creator = next
}

/** Makes the release of `tag` from `release_description` (nothing without a releases area). */
export function createTagRelease(ctx: Ctx<unknown>, project: ProjectRecord, tag: string, description: string): void {
  creator?.(ctx, project, tag, description)
}
