/**
 * The release note a tag shows (`Tag` entity's `release`, 13.x `Entities::TagRelease`
 * `{tag_name, description}`). Releases are another area, which imports this one; so that the
 * repository area needs no import of it (no cycle), the releases area registers its lookup here
 * when it loads (`registerTagReleaseLookup`), and a tag shows `release: null` without one.
 * gitlab: lib/api/entities/tag.rb, tag_release.rb (13.x).
 * @module
 */
import type { Db } from '../../db/db.js'

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
