/**
 * What other areas may use of the repository storage moves area, which owns the snippets table:
 * the instance's snippet count (`GET /application/statistics`). Its public module: besides
 * `index.ts`, the only file of this folder another area imports.
 * @module
 */
import type { Db } from '../../db/db.js'

/** How many snippets the instance holds, personal and project ones (`Snippet.count`). */
export function snippetCount(db: Db): number {
  return db.tables.snippets.size
}
