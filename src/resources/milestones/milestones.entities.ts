/**
 * The milestone entity, shared by group and project milestones and nested in issues and merge
 * requests (other areas present it through `milestones.public.ts`). Field order follows
 * GitLab 13.x `lib/api/entities/milestone.rb` (gitlab-behaviour.md §9; api-spec.md "Group milestone").
 * @module
 */
import { groupWebUrl, projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import type { MilestoneRecord } from './milestones.tables.js'

/**
 * `expired`: the due date lies before today (UTC). No due date → `false`, never null.
 * A milestone due today is not expired yet.
 * gitlab: app/models/concerns/milestoneish.rb (`expired? || false`, `due_date.past?`).
 * @param today `YYYY-MM-DD`.
 */
function milestoneExpired(milestone: MilestoneRecord, today: string): boolean {
  return milestone.due_date !== null && milestone.due_date < today
}

/**
 * `https://host/groups/<full_path>/-/milestones/<iid>` for a group milestone,
 * `https://host/<namespace>/<project>/-/milestones/<iid>` for a project milestone
 * (gitlab: lib/gitlab/url_builder.rb). An orphaned milestone gives the bare base URL path.
 */
function milestoneWebUrl(ctx: PresentCtx, milestone: MilestoneRecord): string {
  if (milestone.group_id !== null) {
    const group = ctx.db.tables.groups.get(milestone.group_id)
    if (group) return `${groupWebUrl(ctx, group)}/-/milestones/${milestone.iid}`
  }
  if (milestone.project_id !== null) {
    const project = ctx.db.tables.projects.get(milestone.project_id)
    if (project) return `${projectWebUrl(ctx, project)}/-/milestones/${milestone.iid}`
  }
  return `${ctx.baseUrl}/-/milestones/${milestone.iid}`
}

/**
 * `Milestone`: `{id, iid, project_id | group_id, title, description, state, created_at,
 * updated_at, due_date, start_date, expired, web_url}`. `project_id` is present only for project
 * milestones and `group_id` only for group milestones (GitLab's `expose ..., if:`).
 * `description` is null when the milestone was created without one.
 * Source: api-spec.md "Group milestone"; gitlab: lib/api/entities/milestone.rb.
 */
export function Milestone(milestone: MilestoneRecord, ctx: PresentCtx) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...(milestone.project_id !== null ? { project_id: milestone.project_id } : {}),
    ...(milestone.group_id !== null ? { group_id: milestone.group_id } : {}),
    title: milestone.title,
    description: milestone.description as string | null,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: milestoneExpired(milestone, ctx.today),
    web_url: milestoneWebUrl(ctx, milestone),
  }
}
