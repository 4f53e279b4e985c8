/**
 * The boards area: issue boards of projects and groups and their label lists
 * (`/projects/:id/boards`, `/groups/:id/boards` routes), the `boards` and `lists` tables, and
 * `boards:` of scenario groups and projects. gitlab: lib/api/boards.rb, lib/api/group_boards.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { boardFragment } from './boards.scenario.js'
import { boardTables } from './boards.tables.js'

export type { BoardRecord, ListRecord } from './boards.tables.js'
export type { BoardFields } from './boards.scenario.js'

/** The boards area. */
export const boards: Area = {
  name: 'boards',
  load: async () => {
    const { boardRouteList } = await import('./boards.routes.js')
    return { api: boardRouteList }
  },
  tables: boardTables,
  scenario: boardFragment,
}
