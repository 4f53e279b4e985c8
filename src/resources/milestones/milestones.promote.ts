/**
 * `Milestones::PromoteService`: a project milestone becomes a group milestone of the project's
 * group. The group milestone is a copy (title, description, dates; active, as the copy's
 * `state_event` is nil) saved without validation; every milestone with that title in the group's
 * own projects (closed ones too) hands its issues and merge requests to it and is deleted.
 * Source: gitlab: app/services/milestones/promote_service.rb (13.x).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { GroupRecord } from '../../db/schema.js'
import { milestonesOfProject } from './milestones.public.js'
import { createMilestone, destroyMilestone } from './milestones.service.js'
import type { MilestoneRecord } from './milestones.tables.js'

/**
 * Promotes `milestone` (of a project in `group`) and returns the new group milestone.
 * GitLab then checks `group_milestone.valid?`, but the title uniqueness check runs only when the
 * title changed (`if: :title_changed?`) and the copy was already saved, so the promotion succeeds
 * even when the group has a milestone of that title: both then exist.
 * `update_all` leaves the issues' and merge requests' `updated_at` alone.
 * @param now the group milestone's timestamps.
 */
export function promoteMilestone(db: Db, group: GroupRecord, milestone: MilestoneRecord, now: string): MilestoneRecord {
  const groupMilestone = createMilestone(db, { type: 'group', group }, {
    title: milestone.title,
    description: milestone.description,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
  }, now, { validate: false })
  // `milestone_ids_for_merge`: MilestonesFinder with the title, the group's own projects, all states.
  const projects = db.tables.projects.where('namespace_id', group.id).filter((project) => project.namespace_type === 'group')
  const merged = projects.flatMap((project) => milestonesOfProject(db, project.id).filter((m) => m.title === groupMilestone.title))
  const mergedIds = new Set(merged.map((m) => m.id))
  const projectIds = new Set(projects.map((project) => project.id))
  // `update_children`: issues of those projects, merge requests whose source project is one of them.
  for (const issue of db.tables.issues.filter((i) => projectIds.has(i.project_id) && i.milestone_id !== null && mergedIds.has(i.milestone_id))) {
    db.tables.issues.update(issue.id, { milestone_id: groupMilestone.id })
  }
  for (const mr of db.tables.merge_requests.filter((m) => projectIds.has(m.source_project_id) && m.milestone_id !== null && mergedIds.has(m.milestone_id))) {
    db.tables.merge_requests.update(mr.id, { milestone_id: groupMilestone.id })
  }
  // Their issues and merge requests have moved, so deleting them unassigns nothing (GitLab calls
  // `destroy` on them, not the service: no `milestone` fact).
  for (const old of merged) destroyMilestone(db, old)
  return groupMilestone
}
