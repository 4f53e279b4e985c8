/**
 * The user emails area: `/user/emails` and `/users/:id/emails`, over the `emails` table the
 * notification settings area declares (and loads from a scenario's `emails:` of users).
 * gitlab: lib/api/users.rb, app/models/email.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The user emails area. */
export const userEmails: Area = {
  name: 'user-emails',
  load: async () => {
    const { userEmailRoutes } = await import('./user-emails.routes.js')
    return { api: userEmailRoutes }
  },
  writes: ['emails'],
}
