/**
 * The project snippet as the areas under this one see it: a noteable (notes and discussions on
 * `/projects/:id/snippets/:noteable_id`) and an awardable (award emoji on
 * `/projects/:id/snippets/:snippet_id`). Those areas name no snippet code; this module registers
 * the kind with each as the snippets area starts, as GitLab's `Snippet` includes the `Noteable`
 * and `Awardable` concerns. gitlab: app/models/snippet.rb, app/policies/project_snippet_policy.rb,
 * lib/api/notes.rb, lib/api/award_emoji.rb (13.12).
 * @module
 */
import { AccessLevel } from '../../rules/access.js'
import { registerAwardableKind } from '../award-emoji/award-emoji.public.js'
import { registerNoteableKind } from '../notes/notes.public.js'
import { canReadSnippet } from './snippets.policy.js'
import type { SnippetRecord } from './snippets.tables.js'

/** A project snippet with the facts the notes code reads (no iid, no assignees, never locked). */
interface SnippetNoteable extends SnippetRecord {
  readonly iid: null
  readonly assignee_ids: readonly number[]
  readonly discussion_locked: null
  readonly project_id: number
}

const NO_ASSIGNEES: readonly number[] = []

registerNoteableKind<SnippetNoteable>({
  type: 'Snippet',
  // `project.snippets.find(id)` through `SnippetsFinder`.
  find: (db, project, id) => {
    const snippet = typeof id === 'number' ? db.tables.snippets.get(id) : undefined
    return snippet && snippet.project_id === project.id ? { ...snippet, iid: null, assignee_ids: NO_ASSIGNEES, discussion_locked: null, project_id: project.id } : undefined
  },
  canRead: (ctx, _project, snippet) => canReadSnippet(ctx, snippet),
  // A snippet's discussion is never locked; the level is what `create_note` would keep.
  lockedDiscussionLevel: AccessLevel.GUEST,
})

registerAwardableKind<SnippetRecord>({
  type: 'Snippet',
  byIid: (db, projectId, id) => {
    const snippet = db.tables.snippets.get(id)
    return snippet && snippet.project_id === projectId ? snippet : undefined
  },
  canRead: (ctx, _project, snippet) => canReadSnippet(ctx, snippet),
  // Snippets keep no vote counters.
  countVote: () => undefined,
})
