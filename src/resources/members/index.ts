/**
 * The members area: so far `members:` of scenario groups and projects (the `members` table is
 * core's: every access check reads it); the member routes (lib/api/members.rb, project and group
 * twins from one definition) are to come here.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { memberFragment } from './members.scenario.js'

export type { GroupMemberFields, ProjectMemberFields, ScenarioMember } from './members.scenario.js'

/** The members area. */
export const members: Area = { name: 'members', routes: [], scenario: memberFragment }
