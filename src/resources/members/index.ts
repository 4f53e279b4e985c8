/**
 * The members area: project and group member routes from one definition (lib/api/members.rb),
 * the group-only override and billable-member routes (EE), and `members:` of scenario groups and
 * projects. The `members` table itself is core's: every access check reads it.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { memberImporter } from './members.import.js'
import { memberRoutes } from './members.routes.js'
import { memberFragment } from './members.scenario.js'

export type { GroupMemberFields, ProjectMemberFields, ScenarioMember } from './members.scenario.js'

/** The members area. */
export const members: Area = { name: 'members', routes: memberRoutes, scenario: memberFragment, importer: memberImporter }
