/**
 * What other areas may use of the snippets area: a snippet by id (storage moves name snippets by
 * id, whatever their visibility), every snippet, the instance's count (`Snippet.count`), and the
 * `BasicSnippet` entity a snippet storage move nests. Its public module: besides `index.ts`, the
 * only file of this folder another area imports.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { SnippetRecord } from './snippets.tables.js'
import { snippetRepository } from './snippets.repository.js'

export { BasicSnippet, Snippet } from './snippets.entities.js'
export { canReadSnippet } from './snippets.policy.js'
export type { SnippetRecord } from './snippets.tables.js'

/** The snippet with that id, personal or of a project, without access checks. */
export function snippetById(db: Db, id: number): SnippetRecord | undefined {
  return db.tables.snippets.get(id)
}

/** Every snippet, in id order. */
export function allSnippets(db: Db): SnippetRecord[] {
  return db.tables.snippets.all()
}

/** How many snippets the instance holds, personal and project ones (`Snippet.count`). */
export function snippetCount(db: Db): number {
  return db.tables.snippets.size
}

/** `Gitlab::VisibilityLevel` integers. */
const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const

/**
 * `Snippet#hook_attrs` (13.12, the model's attributes as a note hook nests them): id, title,
 * content (the first file's text), author_id, project_id, created_at, updated_at, file_name,
 * expires_at, type, visibility_level; times as `format` renders them (`hookTime`). Undefined for a
 * missing snippet. gitlab: doc/user/project/integrations/webhooks.md "Comment on a code snippet".
 */
export function snippetHookAttrs(db: Db, id: number, hookTime: (at: string) => string | null): Record<string, unknown> | undefined {
  const snippet = db.tables.snippets.get(id)
  if (!snippet) return undefined
  const first = [...snippetRepository(db, snippet).files][0]
  return {
    id: snippet.id,
    title: snippet.title,
    content: first?.[1] ?? '',
    author_id: snippet.author_id,
    project_id: snippet.project_id,
    created_at: hookTime(snippet.created_at),
    updated_at: hookTime(snippet.updated_at),
    file_name: first?.[0] ?? snippet.file_name,
    expires_at: null,
    type: snippet.project_id === null ? 'PersonalSnippet' : 'ProjectSnippet',
    visibility_level: VISIBILITY_LEVEL[snippet.visibility],
  }
}
