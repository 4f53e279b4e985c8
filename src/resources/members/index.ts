/**
 * The members area: project and group member routes from one definition (lib/api/members.rb),
 * the group-only override and billable-member routes (EE), and `members:` of scenario groups and
 * projects, with groups' `ldap_group_links` (their table is this area's). The `members` table
 * itself is core's: every access check reads it.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { memberImporter } from './members.import.js'
import { memberFragment } from './members.scenario.js'
import { ldapTables } from './ldap.tables.js'
import type { Member as MemberPresenter, BillableMember as BillableMemberPresenter, BillableMembership as BillableMembershipPresenter } from './members.entities.js'

export type { LdapGroupLinkRecord } from './ldap.tables.js'
export type { GroupMemberFields, ProjectMemberFields, ScenarioMember } from './members.scenario.js'

/** GitLab's `Member` entity, as fakelab sends it. */
export type Member = ReturnType<typeof MemberPresenter>
/** GitLab's `BillableMember` entity, as fakelab sends it. */
export type BillableMember = ReturnType<typeof BillableMemberPresenter>
/** GitLab's `BillableMembership` entity, as fakelab sends it. */
export type BillableMembership = ReturnType<typeof BillableMembershipPresenter>
export type { MemberFact } from './members.events.js'

/** The members area. */
export const members: Area = {
  name: 'members',
  load: async () => {
    const { memberRoutes } = await import('./members.routes.js')
    return { api: memberRoutes }
  },
  tables: ldapTables,
  scenario: memberFragment,
  importer: memberImporter,
}
