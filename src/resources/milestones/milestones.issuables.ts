/**
 * The issues and merge requests of a group or project milestone: `IssuesFinder` and
 * `MergeRequestsFinder` with the group (its own projects only) or the project, the milestone's
 * title and `sort: label_priority`.
 * Sources: gitlab-behaviour.md §4.1, §9; gitlab: lib/api/milestone_responses.rb
 * (`milestone_issuables_for`), app/finders/issues_finder.rb, app/models/concerns/issuable.rb.
 * @module
 */
import { AccessLevel, canReadProject, issueVisibleTo, projectAccessLevel } from '../../rules/access.js'
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
 * What the milestone rules read and clear of issues and merge requests: the issues and merge
 * requests areas' public finders, handed in by the routes. Not imported here: those areas present
 * a nested milestone through this area's public module, so a value import back would be a cycle.
 */
export interface Issuables {
  issuesOfProject(db: Db, projectId: number): IssueRecord[]
  mergeRequestsOfProject(db: Db, projectId: number): MergeRequestRecord[]
  unsetIssuesMilestone(db: Db, milestoneId: number, now: string): void
  unsetMergeRequestsMilestone(db: Db, milestoneId: number, now: string): void
}

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
 * `label_priority`.
 */
function milestoneIssuables<T extends IssueRecord | MergeRequestRecord>(
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

/**
 * `GET /groups/:id/milestones/:milestone_id/issues` and `GET /projects/:id/milestones/:milestone_id/issues`:
 * `IssuesFinder` with the group (its own projects only, no subgroups) or the project, the milestone's title and `sort: label_priority`; all states;
 * confidential issues only for users allowed to see them.
 * gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`, `build_finder_params`).
 */
export function milestoneIssues(
  db: Db,
  issuables: Issuables,
  parent: Source,
  milestone: MilestoneRecord,
  user: UserRecord | null,
  today: string,
): IssueRecord[] {
  return milestoneIssuables(db, parent, milestone, user, today, (project) =>
    issuables.issuesOfProject(db, project.id).filter(issueVisibleTo(db, user, project, today)))
}

/**
 * Whether the user may see a project's merge requests: the feature is open to everyone who can
 * read a public or internal project, and to Reporter+ members of a private one.
 * gitlab: app/models/project_feature.rb (`PRIVATE_FEATURES_MIN_ACCESS_LEVEL`).
 */
function canReadMergeRequests(db: Db, user: UserRecord | null, project: ProjectRecord, today: string): boolean {
  if (project.visibility !== 'private') return true
  if (!user) return false
  return user.admin || projectAccessLevel(db, user, project, today) >= AccessLevel.REPORTER
}

/**
 * `GET /groups/:id/milestones/:milestone_id/merge_requests` and its project twin:
 * `MergeRequestsFinder` with the group (its own projects only) or the project, the milestone's title and `sort: label_priority`; all states.
 * gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`).
 */
export function milestoneMergeRequests(
  db: Db,
  issuables: Issuables,
  parent: Source,
  milestone: MilestoneRecord,
  user: UserRecord | null,
  today: string,
): MergeRequestRecord[] {
  return milestoneIssuables(db, parent, milestone, user, today, (project) =>
    canReadMergeRequests(db, user, project, today) ? issuables.mergeRequestsOfProject(db, project.id) : [])
}
