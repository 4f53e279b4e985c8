/**
 * The notes area: notes on issues and merge requests (list, get, create with quick actions, edit,
 * delete), their discussions (list, get, start, reply, edit, delete, resolve on merge requests),
 * and the `notes` table. Scenario issues and merge requests carry `notes:` and `discussions:`,
 * which this area's loader writes (`notes.public.ts`); award emoji on notes live in the award
 * emoji area. gitlab: lib/api/notes.rb, lib/api/discussions.rb, lib/api/helpers/notes_helpers.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { noteTables } from './notes.tables.js'
import type { Discussion as DiscussionPresenter, Note as NotePresenter } from './notes.entities.js'

export type { NoteRecord, NoteableType } from './notes.tables.js'
export type { NoteFact } from './notes.events.js'

/** GitLab's `Note` entity, as fakelab sends it. */
export type Note = ReturnType<typeof NotePresenter>
/** GitLab's `Discussion` entity, as fakelab sends it. */
export type Discussion = ReturnType<typeof DiscussionPresenter>

/** The notes area. */
export const notes: Area = {
  name: 'notes',
  load: async () => {
    const [{ noteRoutes }, { discussionRoutes }] = await Promise.all([import('./notes.routes.js'), import('./discussions.routes.js')])
    return { api: [...noteRoutes, ...discussionRoutes] }
  },
  register: async () => {
    await import('./notes.registrations.js')
  },
  // A deleted user's notes move to the ghost user (`author_id`) and `resolved_by_id` is cleared,
  // by the shared conventions (rules/cascade.ts); a deleted issue or merge request takes its notes.
  tables: noteTables,
}
