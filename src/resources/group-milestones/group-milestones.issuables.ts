/**
 * The issues and merge requests of a group milestone: `IssuesFinder` and `MergeRequestsFinder`
 * with the group (its own projects only), the milestone's title and `sort: label_priority`.
 * Sources: gitlab-behaviour.md §4.1, §9; gitlab: lib/api/milestone_responses.rb
 * (`milestone_issuables_for`), app/finders/issues_finder.rb, app/models/concerns/issuable.rb.
 * @module
 */
import { AccessLevel, canReadProject, issueVisibleTo, projectAccessLevel } from '../../rules/access.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { issuesOfProject } from '../issues/issues.public.js'
import { labelPrioritiesOfProject } from '../labels/labels.public.js'
import { mergeRequestsOfProject } from '../merge-requests/merge-requests.public.js'
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

/** The projects directly in the group (subgroups' projects excluded) that the user can read. */
function groupProjects(db: Db, group: GroupRecord, user: UserRecord | null, today: string): ProjectRecord[] {
  return db.tables.projects
    .where('namespace_id', group.id)
    .filter((project) => project.namespace_type === 'group' && canReadProject(db, user, project, today))
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
 * `GET /groups/:id/milestones/:milestone_id/issues`: `IssuesFinder` with the group (its own
 * projects only, no subgroups), the milestone's title and `sort: label_priority`; all states;
 * confidential issues only for users allowed to see them.
 * gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`, `build_finder_params`).
 */
export function milestoneIssues(db: Db, group: GroupRecord, milestone: MilestoneRecord, user: UserRecord | null, today: string): IssueRecord[] {
  const rows: IssueRecord[] = []
  for (const project of groupProjects(db, group, user, today)) {
    const visible = issueVisibleTo(db, user, project, today)
    for (const issue of issuesOfProject(db, project.id)) {
      if (!milestoneTitleMatches(db, issue.milestone_id, milestone.title)) continue
      if (!visible(issue)) continue
      rows.push(issue)
    }
  }
  return byLabelPriority(db, rows)
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
 * `GET /groups/:id/milestones/:milestone_id/merge_requests`: `MergeRequestsFinder` with the group
 * (its own projects only), the milestone's title and `sort: label_priority`; all states.
 * gitlab: lib/api/milestone_responses.rb (`milestone_issuables_for`).
 */
export function milestoneMergeRequests(
  db: Db,
  group: GroupRecord,
  milestone: MilestoneRecord,
  user: UserRecord | null,
  today: string,
): MergeRequestRecord[] {
  const rows: MergeRequestRecord[] = []
  for (const project of groupProjects(db, group, user, today)) {
    if (!canReadMergeRequests(db, user, project, today)) continue
    for (const mergeRequest of mergeRequestsOfProject(db, project.id)) {
      if (milestoneTitleMatches(db, mergeRequest.milestone_id, milestone.title)) rows.push(mergeRequest)
    }
  }
  return byLabelPriority(db, rows)
}
