/**
 * What other areas may use of the milestones (this area's `milestones` table holds group and
 * project milestones): the `Milestone` entity and finders, as GitLab's `MilestonesFinder` and
 * associations serve other models. Its public module: besides `index.ts`, the only file of this
 * folder another area imports. Nothing here imports another area.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { PresentCtx } from '../../entities/urls.js'
import { Milestone } from './milestones.entities.js'
import type { MilestoneRecord } from './milestones.tables.js'

export { Milestone } from './milestones.entities.js'
export { findParentMilestone } from './milestones.finder.js'
export { milestoneIssuables } from './milestones.issuables.js'

/** The milestone with this id, if any. */
export function milestoneById(db: Db, id: number): MilestoneRecord | undefined {
  return db.tables.milestones.get(id)
}

/** Every milestone, of every project and group, in id order. */
export function allMilestones(db: Db): MilestoneRecord[] {
  return db.tables.milestones.all()
}

/** A project's own milestones, in id order. */
export function milestonesOfProject(db: Db, projectId: number): MilestoneRecord[] {
  return db.tables.milestones.where('project_id', projectId)
}

/** A group's own milestones (not its ancestors'), in id order. */
export function milestonesOfGroup(db: Db, groupId: number): MilestoneRecord[] {
  return db.tables.milestones.where('group_id', groupId)
}

/** The write counter of `milestones` (`Collection.version`), for caches of milestone orders. */
export function milestonesVersion(db: Db): number {
  return db.tables.milestones.version
}

/** The nested `milestone` of an issuable: `Milestone` or null. */
export function issuableMilestone(ctx: PresentCtx, milestoneId: number | null) {
  const milestone = milestoneId === null ? undefined : ctx.db.tables.milestones.get(milestoneId)
  return milestone ? Milestone(milestone, ctx) : null
}
