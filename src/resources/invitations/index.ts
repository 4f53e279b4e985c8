/**
 * The invitations area: `/projects/:id/invitations` and `/groups/:id/invitations` (invite by email,
 * list, update and delete pending invitations) and the `member_invitations` table. An invitation of
 * an existing user's email makes that user a member through the members area.
 * gitlab: lib/api/invitations.rb, app/services/members/invite_service.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { invitationFragment } from './invitations.scenario.js'
import { invitationTables } from './invitations.tables.js'

export type { MemberInvitationRecord } from './invitations.tables.js'
export type { InvitationFields } from './invitations.scenario.js'

/** The invitations area. */
export const invitations: Area = {
  name: 'invitations',
  load: async () => {
    const { invitationRoutes } = await import('./invitations.routes.js')
    return { api: invitationRoutes }
  },
  tables: invitationTables,
  scenario: invitationFragment,
  secrets: { bodyFields: ['invite_token'] },
}
