/**
 * The remote mirrors area: a project's push mirrors (`/projects/:id/remote_mirrors`) as a store,
 * the `remote_mirrors` table and `remote_mirrors:` of scenario projects. No mirroring happens.
 * gitlab: lib/api/remote_mirrors.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { remoteMirrorFragment } from './remote-mirrors.scenario.js'
import { remoteMirrorTables } from './remote-mirrors.tables.js'

export type { RemoteMirrorRecord } from './remote-mirrors.tables.js'
export type { RemoteMirrorFields } from './remote-mirrors.scenario.js'
export type { RemoteMirrorEntity } from './remote-mirrors.entities.js'

/** The remote mirrors area. */
export const remoteMirrors: Area = {
  name: 'remote-mirrors',
  load: async () => {
    const { remoteMirrorRoutes } = await import('./remote-mirrors.routes.js')
    return { api: remoteMirrorRoutes }
  },
  tables: remoteMirrorTables,
  scenario: remoteMirrorFragment,
}
