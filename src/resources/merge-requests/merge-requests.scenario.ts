/**
 * The merge requests part of the scenario format: `merge_requests:` of projects (the target
 * project is the enclosing one), loaded into `merge_requests`. References work as for issues;
 * `target_branch` defaults to the project's `default_branch`. A merged merge request gets
 * `merged_at` (default `updated_at`) and `merged_by` (default the author); a closed one
 * `closed_at`/`closed_by`. Every merge request has its diff's commits (`diff_refs`: `sha` as the
 * head, `base_sha`, `start_sha`), and a merged one its `merge_commit_sha` (a squashed one its
 * `squash_commit_sha` too), as GitLab always has them: a scenario may give each, else it is a
 * 40-hex SHA derived from the scenario's seed and the merge request's id and branches, so the same
 * scenario always loads the same SHAs (issue 23 item 8). A merge request may carry `notes` and
 * `discussions` (threads, resolvable with `resolved_by`): the notes area's format and loader.
 * Source: STYLE.md §10; gitlab-behaviour.md §4.3.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { checkIssuableReferences, issuableFields, issuableLabelIds, issuableMilestoneId, issuableTimes } from '../../scenario/issuable.js'
import { at, formatPath } from '../../scenario/problems.js'
import { items, list, str } from '../../scenario/entries.js'
import { iidSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import { checkScenarioNotes, loadNotes, mergeRequestDiscussionSchema, noteSchema, scenarioNoteCount } from '../notes/notes.public.js'
import { recordVersion } from './merge-requests.versions.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'
import { refProblem, scenarioRefNames } from '../repository/repository.public.js'

/** A full commit SHA: 40 hexadecimal digits, lower case. */
const shaSchema = z.string().regex(/^[0-9a-f]{40}$/, 'expected a 40-digit lower-case hex SHA')

/** A merge request of a project. */
const mergeRequestSchema = z.strictObject({
  ...issuableFields,
  state: z.enum(['opened', 'closed', 'merged', 'locked']).default('opened').describe('opened, closed, merged or locked. Default opened.'),
  source_branch: z.string().min(1).optional().describe('Source branch; faker when absent.'),
  target_branch: z.string().min(1).optional().describe('Target branch; the project\'s default branch when absent.'),
  draft: z.boolean().default(false).describe('A draft merge request. Default false.'),
  /** Users asked to review, by username. */
  reviewers: z.array(pathSchema).default([]).describe('Usernames of the users asked to review.'),
  sha: z.string().min(1).optional().describe('Head commit sha of the source branch; derived from the seed when absent.'),
  base_sha: shaSchema.optional().describe('diff_refs.base_sha (40 hex); derived from the seed when absent.'),
  start_sha: shaSchema.optional().describe('diff_refs.start_sha (40 hex); derived from the seed when absent.'),
  /** Only on a merged merge request (GitLab sets it when merging). */
  merge_commit_sha: shaSchema.nullable().optional().describe('The merge commit (merged ones only); derived from the seed when absent.'),
  squash_commit_sha: shaSchema.nullable().optional().describe('The squash commit (merged squashed ones only).'),
  changes_count: z.int().nonnegative().optional().describe('The changed files answered as changes_count when the project\'s repository has no diff for it (a recording\'s figure, kept by fakelab import); default 0 without a diff.'),
  squash: z.boolean().default(false).describe('Squash commits when merging. Default false.'),
  discussion_locked: z.boolean().nullable().default(null).describe('Discussion locked to project members. Default null (never set).'),
  /** `remove_source_branch` of the API (the merge request's `force_remove_source_branch`). */
  force_remove_source_branch: z.boolean().nullable().default(null).describe('The API\'s remove_source_branch. Default null.'),
  /** Seconds. */
  time_estimate: z.int().default(0).describe('Time estimate in seconds. Default 0.'),
  /** Seconds. */
  total_time_spent: z.int().nonnegative().default(0).describe('Time spent in seconds. Default 0.'),
  merge_status: z
    .enum(['unchecked', 'checking', 'can_be_merged', 'cannot_be_merged', 'cannot_be_merged_recheck'])
    .default('can_be_merged').describe('unchecked, checking, can_be_merged, cannot_be_merged or cannot_be_merged_recheck. Default can_be_merged.'),
  merged_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z) (merged ones); faker when absent.'),
  merged_by: pathSchema.optional().describe('Username of who merged it (merged ones).'),
  /** Iids of issues of this project the merge request closes when merged (linked once the project's issues are staged). */
  closes: z.array(iidSchema).default([]).describe('Iids of issues of this project the merge request closes when merged.'),
  /** Iids of issues of this project it mentions without closing them (related merge requests). */
  mentions: z.array(iidSchema).default([]).describe('Iids of issues of this project it mentions without closing them (related merge requests).'),
  notes: z.array(noteSchema).default([]).describe('Comments on the merge request, oldest first (each a discussion of its own).'),
  discussions: z.array(mergeRequestDiscussionSchema).default([]).describe('Threads on the merge request: each a list of notes, the first starting it; resolved_by resolves it.'),
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
  check: (ctx) => {
    checkIssuableReferences(ctx, 'merge_requests')
    checkScenarioNotes(ctx, 'merge_requests')
    for (const project of ctx.model.project) {
      const refs = scenarioRefNames(project)
      const name = ctx.index.fullPath(project) ?? formatPath(project.path)
      for (const item of items(project, 'merge_requests')) {
        for (const [reviewer, j] of list(item.value.reviewers)) ctx.checkUser(at(item, 'reviewers', j), reviewer)
        // With a repository, an open merge request's branches must be in it (issue 38 item 2): a
        // typo would show `can_be_merged` with no changes. A merged or closed one's source branch
        // may be gone (removed on merge), as in GitLab.
        const state = str(item.value.state) ?? 'opened'
        if (!refs || (state !== 'opened' && state !== 'locked')) continue
        for (const field of ['source_branch', 'target_branch']) {
          const branch = str(item.value[field])
          const problem = branch === undefined ? undefined : refProblem('branch', branch, refs, name)
          if (problem) ctx.report(at(item, field), problem)
        }
      }
    }
  },
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
        const id = ctx.idOf(mr)
        // The faker's draws in their original order (title, description, branch, head SHA), so
        // values made before the derived SHAs existed stay the same.
        const title = mr.title ?? f.git.commitMessage()
        const description = mr.description ?? f.lorem.paragraph()
        const source_branch = mr.source_branch ?? f.git.branch()
        const sha = mr.sha ?? f.git.commitSha()
        const target_branch = mr.target_branch ?? project.default_branch
        // Each derived SHA has its own seed, keyed by what names the merge request's diff (this
        // reseeds the shared faker, so it comes after every use of `f`).
        const derived = (kind: string): string => ctx.fake(`merge_request_sha:${id}:${source_branch}:${target_branch}:${kind}`).git.commitSha()
        const record: MergeRequestRecord = {
          id,
          iid: iids[i]!,
          project_id: project.id,
          source_project_id: project.id,
          title,
          description,
          state: mr.state,
          author_id,
          assignee_ids: mr.assignees.map((u) => ctx.userId(u)),
          reviewer_ids: mr.reviewers.map((u) => ctx.userId(u)),
          label_ids: issuableLabelIds(ctx, parent, mr.labels),
          milestone_id: issuableMilestoneId(ctx, parent, mr.milestone),
          source_branch,
          target_branch,
          draft: mr.draft,
          sha,
          base_sha: mr.base_sha ?? derived('base'),
          start_sha: mr.start_sha ?? derived('start'),
          merge_commit_sha: mr.merge_commit_sha !== undefined ? mr.merge_commit_sha : merged ? derived('merge') : null,
          squash_commit_sha: mr.squash_commit_sha !== undefined ? mr.squash_commit_sha : merged && mr.squash ? derived('squash') : null,
          merge_status: mr.merge_status,
          squash: mr.squash,
          discussion_locked: mr.discussion_locked,
          force_remove_source_branch: mr.force_remove_source_branch,
          time_estimate: mr.time_estimate,
          total_time_spent: mr.total_time_spent,
          created_at: times.created_at,
          updated_at: times.updated_at,
          merged_at: merged ? times.finished_at : (mr.merged_at ?? null),
          merged_by_id: mr.merged_by !== undefined ? ctx.userId(mr.merged_by) : merged ? author_id : null,
          closed_at: closed ? times.finished_at : (mr.closed_at ?? null),
          closed_by_id: mr.closed_by !== undefined ? ctx.userId(mr.closed_by) : closed ? author_id : null,
          upvotes: mr.upvotes,
          downvotes: mr.downvotes,
          user_notes_count: mr.user_notes_count + scenarioNoteCount(mr),
          ...(mr.changes_count !== undefined ? { changes_count: mr.changes_count } : {}),
        }
        ctx.stage('merge_requests', record)
        loadNotes(ctx, { type: 'MergeRequest', id, project_id: project.id, created_at: record.created_at }, mr.notes, mr.discussions)
      })
      loadIssueLinks(ctx, project.id, p.merge_requests)
    },
    // Every merge request has its first diff version, made when it was (its branches as they are
    // now when both exist, else the SHAs of its row).
    root(ctx) {
      for (const mr of ctx.db.tables.merge_requests.all()) recordVersion(ctx.db, mr, mr.created_at)
    },
  },
}

/**
 * The project's merge requests' `closes:` and `mentions:` links, by issue iid: the issues area,
 * loaded earlier for the same project, has staged its issues.
 */
function loadIssueLinks(ctx: LoadContext, projectId: number, mergeRequests: readonly MergeRequestFields['merge_requests'][number][]): void {
  const issueIdByIid = new Map(ctx.stagedRows('issues').filter((issue) => issue.project_id === projectId).map((issue) => [issue.iid, issue.id]))
  for (const mr of mergeRequests) {
    const merge_request_id = ctx.idOf(mr)
    for (const iid of mr.closes) ctx.db.tables.merge_requests_closing_issues.insert({ merge_request_id, issue_id: issueIdByIid.get(iid)! })
    for (const iid of mr.mentions) ctx.db.tables.merge_request_mentions.insert({ merge_request_id, issue_id: issueIdByIid.get(iid)! })
  }
}
