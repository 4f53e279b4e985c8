/**
 * What the issues and merge requests of a group or project milestone have in common:
 * `IssuesFinder` and `MergeRequestsFinder` with the group (its own projects only) or the project,
 * the milestone's title and `sort: label_priority`. The issues and merge requests areas serve the
 * two lists (`GET …/milestones/:milestone_id/issues`, `…/merge_requests`) through this area's public
 * module, handing in the rows of a project they show.
 * Sources: gitlab-behaviour.md §4.1, §9; gitlab: lib/api/milestone_responses.rb
 * (`milestone_issuables_for`), app/finders/issues_finder.rb, app/models/concerns/issuable.rb.
 * @module
 */
import { canReadProject } from '../../rules/access.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import type { Source } from '../../rules/source.js'
import { labelPrioritiesOfProject } from '../labels/labels.public.js'
import type { MilestoneRecord } from './milestones.tables.js'

/** The issues area's record (areas read each other's tables, never each other's code). */
type IssueRecord = Tables['issues']
/** The merge requests area's record. */
type MergeRequestRecord = Tables['merge_requests']

/**
 * `IssuableFinder#by_milestone` with `milestone_title`: `None`/`No Milestone` mean "no milestone",
 * `Any`/`Any Milestone` mean "some milestone", anything else matches issuables whose milestone (of
 * any group or project) has exactly that title.
 * spec-gap: the `#upcoming` and `#started` pseudo-titles are matched as plain titles.
 */
function milestoneTitleMatches(db: Db, milestoneId: number | null, title: string): boolean {
  const lower = title.toLowerCase()
  if (lower === 'none' || title === 'No Milestone') return milestoneId === null
  if (lower === 'any' || title === 'Any Milestone') return milestoneId !== null
  if (milestoneId === null) return false
  return db.tables.milestones.get(milestoneId)?.title === title
}

/**
 * The finder's projects that the user can read: a group's (directly in it, subgroups' projects
 * excluded; `group_id` without `include_subgroups`), or the project itself (`project_id`).
 */
function parentProjects(db: Db, parent: Source, user: UserRecord | null, today: string): ProjectRecord[] {
  const projects = parent.type === 'project'
    ? [parent.project]
    : db.tables.projects.where('namespace_id', parent.group.id).filter((project) => project.namespace_type === 'group')
  return projects.filter((project) => canReadProject(db, user, project, today))
}

/**
 * The highest priority (lowest number) the issuable's labels have in its project, or null.
 * gitlab: app/models/concerns/issuable.rb (`highest_label_priority`).
 */
function highestLabelPriority(db: Db, projectId: number, labelIds: readonly number[]): number | null {
  let best: number | null = null
  for (const priority of labelPrioritiesOfProject(db, projectId)) {
    if (labelIds.includes(priority.label_id) && (best === null || priority.priority < best)) best = priority.priority
  }
  return best
}

/** `sort: 'label_priority'`: highest label priority ascending, nulls last, then id descending. */
function byLabelPriority<T extends IssueRecord | MergeRequestRecord>(db: Db, rows: T[]): T[] {
  const keyed = rows.map((row) => ({ row, priority: highestLabelPriority(db, row.project_id, row.label_ids) }))
  keyed.sort((a, b) => {
    if (a.priority !== b.priority) {
      if (a.priority === null) return 1
      if (b.priority === null) return -1
      return a.priority - b.priority
    }
    return b.row.id - a.row.id
  })
  return keyed.map((k) => k.row)
}

/**
 * `milestone_issuables_for`'s finder over the parent's projects the user can read: each project's
 * rows the user may see (`seen`), those whose milestone has the milestone's title, sorted
 * `label_priority`. gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`,
 * `build_finder_params`).
 * @param seen a project's issues or merge requests the user may see, from the area that owns them.
 */
export function milestoneIssuables<T extends IssueRecord | MergeRequestRecord>(
  db: Db,
  parent: Source,
  milestone: MilestoneRecord,
  user: UserRecord | null,
  today: string,
  seen: (project: ProjectRecord) => T[],
): T[] {
  const rows: T[] = []
  for (const project of parentProjects(db, parent, user, today)) {
    for (const row of seen(project)) if (milestoneTitleMatches(db, row.milestone_id, milestone.title)) rows.push(row)
  }
  return byLabelPriority(db, rows)
}
