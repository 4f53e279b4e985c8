/**
 * The merge requests part of the scenario format: `merge_requests:` of projects (the target
 * project is the enclosing one), loaded into `merge_requests`. References work as for issues;
 * `target_branch` defaults to the project's `default_branch`. A merged merge request gets
 * `merged_at` (default `updated_at`) and `merged_by` (default the author); a closed one
 * `closed_at`/`closed_by`. Source: STYLE.md §10; gitlab-behaviour.md §4.3.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { checkIssuableReferences, issuableFields, issuableLabelIds, issuableMilestoneId, issuableTimes } from '../../scenario/issuable.js'
import { iidSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** A merge request of a project. */
const mergeRequestSchema = z.strictObject({
  ...issuableFields,
  state: z.enum(['opened', 'closed', 'merged', 'locked']).default('opened').describe('opened, closed, merged or locked. Default opened.'),
  source_branch: z.string().min(1).optional().describe('Source branch; faker when absent.'),
  target_branch: z.string().min(1).optional().describe('Target branch; the project\'s default branch when absent.'),
  draft: z.boolean().default(false).describe('A draft merge request. Default false.'),
  sha: z.string().min(1).optional().describe('Head commit sha of the source branch; faker when absent.'),
  merge_status: z
    .enum(['unchecked', 'checking', 'can_be_merged', 'cannot_be_merged', 'cannot_be_merged_recheck'])
    .default('can_be_merged').describe('unchecked, checking, can_be_merged, cannot_be_merged or cannot_be_merged_recheck. Default can_be_merged.'),
  merged_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z) (merged ones); faker when absent.'),
  merged_by: pathSchema.optional().describe('Username of who merged it (merged ones).'),
  /** Iids of issues of this project the merge request closes when merged (loaded by the issues area). */
  closes: z.array(iidSchema).default([]).describe('Iids of issues of this project the merge request closes when merged.'),
  /** Iids of issues of this project it mentions without closing them (related merge requests). */
  mentions: z.array(iidSchema).default([]).describe('Iids of issues of this project it mentions without closing them (related merge requests).'),
})

const fields = { merge_requests: z.array(mergeRequestSchema).default([]).describe('Merge requests of this project.') }

/** The `merge_requests` field of projects, as parsed. */
export type MergeRequestFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends MergeRequestFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The merge requests fragment (see the module comment). The merge request routes will join it here. */
export const mergeRequestFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'merge_requests', field: 'merge_requests', on: ['project'], iid: 'merge_requests' }],
  check: (ctx) => checkIssuableReferences(ctx, 'merge_requests'),
  load: {
    project(ctx, p, parent) {
      const project = ctx.row('project', parent.entry)
      const iids = ctx.iids('merge_requests', parent, p.merge_requests)
      p.merge_requests.forEach((mr, i) => {
        const f = ctx.fake(`merge_request:${parent.key}:${i}`)
        const merged = mr.state === 'merged'
        const closed = mr.state === 'closed'
        const times = issuableTimes(ctx, f, mr, merged || closed, merged ? mr.merged_at : mr.closed_at, project.created_at)
        const author_id = mr.author !== undefined ? ctx.userId(mr.author) : project.creator_id
        const record: MergeRequestRecord = {
          id: ctx.idOf(mr),
          iid: iids[i]!,
          project_id: project.id,
          source_project_id: project.id,
          title: mr.title ?? f.git.commitMessage(),
          description: mr.description ?? f.lorem.paragraph(),
          state: mr.state,
          author_id,
          assignee_ids: mr.assignees.map((u) => ctx.userId(u)),
          label_ids: issuableLabelIds(ctx, parent, mr.labels),
          milestone_id: issuableMilestoneId(ctx, parent, mr.milestone),
          source_branch: mr.source_branch ?? f.git.branch(),
          target_branch: mr.target_branch ?? project.default_branch,
          draft: mr.draft,
          sha: mr.sha ?? f.git.commitSha(),
          merge_status: mr.merge_status,
          created_at: times.created_at,
          updated_at: times.updated_at,
          merged_at: merged ? times.finished_at : (mr.merged_at ?? null),
          merged_by_id: mr.merged_by !== undefined ? ctx.userId(mr.merged_by) : merged ? author_id : null,
          closed_at: closed ? times.finished_at : (mr.closed_at ?? null),
          closed_by_id: mr.closed_by !== undefined ? ctx.userId(mr.closed_by) : closed ? author_id : null,
          upvotes: mr.upvotes,
          downvotes: mr.downvotes,
          user_notes_count: mr.user_notes_count,
        }
        ctx.stage('merge_requests', record)
      })
    },
  },
}
