/**
 * The issues part of the scenario format: `issues:` of projects, loaded into `issues`. `author`,
 * `assignees` and `closed_by` are usernames (the author defaults to the project's creator);
 * `labels` are titles of labels of the project or its groups; `milestone` the title of a milestone
 * of the project or its groups. A closed issue gets `closed_at` (default `updated_at`) and
 * `closed_by` (default the author). Source: STYLE.md §10; gitlab-behaviour.md §4.1.
 * @module
 */
import { z } from 'zod'
import type { FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { checkIssuableReferences, issuableFields, issuableLabelIds, issuableMilestoneId, issuableTimes } from '../../scenario/issuable.js'
import { dateSchema } from '../../scenario/scalars.js'
import type { IssueRecord } from './issues.tables.js'

/** An issue of a project. */
const issueSchema = z.strictObject({
  ...issuableFields,
  state: z.enum(['opened', 'closed']).default('opened'),
  confidential: z.boolean().default(false),
  discussion_locked: z.boolean().nullable().default(null),
  issue_type: z.enum(['issue', 'incident', 'test_case']).default('issue'),
  due_date: dateSchema.nullable().optional(),
  /** Seconds. */
  time_estimate: z.int().nonnegative().default(0),
  /** Seconds. */
  total_time_spent: z.int().nonnegative().default(0),
})

const fields = { issues: z.array(issueSchema).default([]) }

/** The `issues` field of projects, as parsed. */
export type IssueFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends IssueFields {}
}

/** The issues fragment (see the module comment). The issue routes will join it in this area. */
export const issueFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'issues', field: 'issues', on: ['project'], iid: 'issues' }],
  check: (ctx) => checkIssuableReferences(ctx, 'issues'),
  load: {
    project(ctx, p, parent) {
      const project = ctx.row('project', parent.entry)
      const iids = ctx.iids('issues', parent, p.issues)
      p.issues.forEach((it, i) => {
        const f = ctx.fake(`issue:${parent.key}:${i}`)
        const closed = it.state === 'closed'
        const times = issuableTimes(ctx, f, it, closed, it.closed_at, project.created_at)
        const author_id = it.author !== undefined ? ctx.userId(it.author) : project.creator_id
        const record: IssueRecord = {
          id: ctx.idOf(it),
          iid: iids[i]!,
          project_id: project.id,
          title: it.title ?? f.hacker.phrase().replace(/\.$/, ''),
          description: it.description ?? f.lorem.paragraph(),
          state: it.state,
          author_id,
          assignee_ids: it.assignees.map((u) => ctx.userId(u)),
          label_ids: issuableLabelIds(ctx, parent, it.labels),
          milestone_id: issuableMilestoneId(ctx, parent, it.milestone),
          confidential: it.confidential,
          discussion_locked: it.discussion_locked,
          issue_type: it.issue_type,
          due_date: it.due_date ?? null,
          created_at: times.created_at,
          updated_at: times.updated_at,
          closed_at: times.finished_at,
          closed_by_id: it.closed_by !== undefined ? ctx.userId(it.closed_by) : closed ? author_id : null,
          moved_to_id: null,
          upvotes: it.upvotes,
          downvotes: it.downvotes,
          user_notes_count: it.user_notes_count,
          relative_position: null,
          time_estimate: it.time_estimate,
          total_time_spent: it.total_time_spent,
        }
        ctx.stage('issues', record)
      })
    },
  },
}
