/**
 * The commit as a noteable: its discussions (the notes area's `…/repository/commits/:commit_id/discussions`)
 * and its comments (this area's `…/commits/:sha/comments`) are notes on it. The notes area names no
 * repository code; this module registers the commit kind there as the repository area loads.
 * A commit is found by sha or ref (`project.commit(id)`) and read with `read_commit`, which
 * `CommitPolicy` delegates to the project's `download_code`; it has no iid, no user author, no
 * counters and no lock.
 * gitlab: app/finders/notes_finder.rb, app/policies/commit_policy.rb, lib/api/helpers/notes_helpers.rb (13.x).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel } from '../../rules/access.js'
import { registerNoteableKind, type Noteable, type NoteableFacts } from '../notes/notes.public.js'
import { repositoryOf } from './repository.build.js'
import { canDownloadCode } from './repository.helpers.js'
import { resolveCommit } from './repository.service.js'

/** The commit a sha or ref names in the project's repository, as the notes code reads it, or undefined. */
export function commitNoteable(db: Db, project: ProjectRecord, revision: string): NoteableFacts | undefined {
  const sha = resolveCommit(repositoryOf(db, project), revision, project.default_branch)
  if (sha === undefined) return undefined
  return { id: null, iid: null, commit_id: sha, project_id: project.id, author_id: null, assignee_ids: [], discussion_locked: null }
}

/** The commit with its project, as the note services take a noteable. */
export function asNoteable(project: ProjectRecord, commit: NoteableFacts): Noteable {
  return { type: 'Commit', project, record: commit }
}

registerNoteableKind({
  type: 'Commit',
  find: (db, project, key) => commitNoteable(db, project, String(key)),
  canRead: (ctx, project) => canDownloadCode(ctx, project),
  notFoundName: 'Commit',
  // A commit's discussion is never locked.
  lockedDiscussionLevel: AccessLevel.GUEST,
})
