/**
 * What other areas may use of the snippets area: a snippet by id (storage moves name snippets by
 * id, whatever their visibility), every snippet, the instance's count (`Snippet.count`), and the
 * `BasicSnippet` entity a snippet storage move nests. Its public module: besides `index.ts`, the
 * only file of this folder another area imports.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { SnippetRecord } from './snippets.tables.js'

export { BasicSnippet } from './snippets.entities.js'
export type { BasicSnippetEntity } from './snippets.entities.js'
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
