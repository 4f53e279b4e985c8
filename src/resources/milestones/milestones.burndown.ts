/**
 * A group milestone's burndown events (GitLab Premium `Burndown`): for each issue of the milestone
 * the caller can see, created before the chart's end, a `created` event at its creation and a
 * `closed` event when it was closed, each with the issue's weight.
 * Source: api-spec.md "Group milestones" (`burndown_events`, higher-tier); gitlab-behaviour.md §14
 * item 24; issue 23 item 10; gitlab: ee/lib/ee/api/group_milestones.rb,
 * ee/lib/ee/api/milestone_responses.rb (`milestone_burndown_events_for`), ee/app/models/burndown.rb,
 * app/models/milestone.rb (`issues_visible_to_user`).
 * @module
 */
import { canReadProject, issueVisibleTo } from '../../rules/access.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, Tables, UserRecord } from '../../db/schema.js'
import type { MilestoneRecord } from './milestones.tables.js'

/** The issues area's record (areas read each other's tables, never each other's code). */
type IssueRecord = Tables['issues']

/** One burndown event: `{created_at, weight, action}` (GitLab also has `reopened`, which fakelab cannot tell). */
export interface BurndownEvent {
  created_at: string
  weight: number | null
  action: 'created' | 'closed'
}

/**
 * `Burndown.new(milestone.issues_visible_to_user(user), start_date, due_date).as_json`:
 * - `[]` unless the milestone has both a start and a due date (`valid?`);
 * - the chart ends at the due date, or today when there is none or it is still ahead;
 * - issues: the milestone's (by id) in the group and its subgroups' projects the user can read,
 *   confidential ones only for those who may see them, created by the end of the last day; newest
 *   first (`IssuesFinder`'s `id DESC`);
 * - per issue: `created` at `created_at`, then `closed` at `closed_at` when it was closed by the
 *   end; a closed issue without such an event is shown closed at the start date's midnight (UTC).
 * spec-gap: fakelab keeps no event history, so a closed issue's close is its `closed_at` and no
 * `reopened` events appear.
 * @param today the injected clock's date (`YYYY-MM-DD`), GitLab's `Date.today`.
 */
export function burndownEvents(db: Db, group: GroupRecord, milestone: MilestoneRecord, user: UserRecord | null, today: string): BurndownEvent[] {
  if (milestone.start_date === null || milestone.due_date === null) return []
  const endDate = milestone.due_date > today ? today : milestone.due_date
  const endOfDay = `${endDate}T23:59:59.999Z`
  const issues: IssueRecord[] = []
  for (const g of [group, ...db.groupDescendants(group)]) {
    for (const project of db.tables.projects.where('namespace_id', g.id)) {
      if (project.namespace_type !== 'group' || !canReadProject(db, user, project, today)) continue
      const visible = issueVisibleTo(db, user, project, today)
      for (const issue of db.tables.issues.where('project_id', project.id)) {
        if (issue.milestone_id === milestone.id && visible(issue) && issue.created_at <= endOfDay) issues.push(issue)
      }
    }
  }
  issues.sort((a, b) => b.id - a.id)
  const events: BurndownEvent[] = []
  for (const issue of issues) {
    const weight = issue.weight ?? null
    events.push({ created_at: issue.created_at, weight, action: 'created' })
    if (issue.state !== 'closed') continue
    const closedInTime = issue.closed_at !== null && issue.closed_at <= endOfDay
    events.push({ created_at: closedInTime ? issue.closed_at! : `${milestone.start_date}T00:00:00.000Z`, weight, action: 'closed' })
  }
  return events
}
