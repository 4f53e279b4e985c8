/**
 * The issues part of the scenario format: `issues:` of projects, loaded into `issues`. `author`,
 * `assignees` and `closed_by` are usernames (the author defaults to the project's creator);
 * `labels` are titles of labels of the project or its groups; `milestone` the title of a milestone
 * of the project or its groups. A closed issue gets `closed_at` (default `updated_at`) and
 * `closed_by` (default the author).
 * An issue may also carry `notes` (author, body) and `discussions` (threads of notes; the notes
 * area's format and loader, `notes.public.ts`), `award_emoji` (name, user: `thumbsup` and
 * `thumbsdown` add to `upvotes`/`downvotes`; the caller's own make `my_reaction_emoji` match) and a
 * `user_agent_detail` (by default one a browser would leave; `null` for none). The "closes" and "mentions" links are written on merge requests (`closes:`,
 * `mentions:` issue iids of the same project, which must have a written `iid`) and loaded here,
 * where the issue iids are known. `generate: { issues: N }` on a project adds N faker-made issues,
 * deterministic by seed, with ids from 1,000,000 up (issues.generate.ts).
 * Source: STYLE.md §10; gitlab-behaviour.md §4.1, §4.3.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { checkIssuableReferences, issuableFields, issuableLabelIds, issuableMilestoneId, issuableTimes } from '../../scenario/issuable.js'
import { items, list } from '../../scenario/entries.js'
import { at } from '../../scenario/problems.js'
import { dateSchema, pathSchema } from '../../scenario/scalars.js'
import { checkScenarioNotes, issueDiscussionSchema, loadNotes, noteSchema, scenarioNoteCount } from '../notes/notes.public.js'
import { defaultUserAgentDetail, generateIssues } from './issues.generate.js'
import type { IssueRecord } from './issues.tables.js'

/** An award emoji: its name (`thumbsup`) and who gave it. */
const awardSchema = z.strictObject({ name: z.string().min(1).describe('Emoji name without colons (thumbsup).'), user: pathSchema.describe('Username of who awarded it.') })

/** How the issue was submitted (administrators read it). */
const userAgentSchema = z.strictObject({
  user_agent: z.string().describe('The User-Agent the issue was created with.'),
  ip_address: z.string().describe('The IP address the issue was created from.'),
  akismet_submitted: z.boolean().default(false).describe('Whether it was submitted to Akismet as spam or ham. Default false.'),
})

/** An issue of a project. */
const issueSchema = z.strictObject({
  ...issuableFields,
  state: z.enum(['opened', 'closed']).default('opened').describe('opened or closed. Default opened.'),
  confidential: z.boolean().default(false).describe('Visible only to the author, assignees and Reporters and above. Default false.'),
  discussion_locked: z.boolean().nullable().default(null).describe('Whether only project members may comment; null = not set. Default null.'),
  issue_type: z.enum(['issue', 'incident', 'test_case']).default('issue').describe('issue, incident or test_case. Default issue.'),
  due_date: dateSchema.nullable().optional().describe('YYYY-MM-DD; absent or null = none.'),
  /** Seconds. */
  time_estimate: z.int().nonnegative().default(0).describe('Time estimate, in seconds. Default 0.'),
  /** Seconds. */
  total_time_spent: z.int().nonnegative().default(0).describe('Time spent, in seconds. Default 0.'),
  /** Higher-tier weight (GitLab Premium `Issue#weight`: 0 or more); absent or null = none. */
  weight: z
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe('The issue\'s weight (a GitLab Premium field, 0 or more): order_by=weight and milestone burndown events read it.'),
  notes: z.array(noteSchema).default([]).describe('Comments on the issue, oldest first (each a discussion of its own).'),
  discussions: z.array(issueDiscussionSchema).default([]).describe('Threads on the issue: each a list of notes, the first starting it.'),
  award_emoji: z.array(awardSchema).default([]).describe('Emoji reactions on the issue.'),
  user_agent_detail: userAgentSchema
    .nullable()
    .optional()
    .describe(
      'How the issue was submitted (GET /projects/:id/issues/:issue_iid/user_agent_detail, administrators only). ' +
        'Default: a browser user agent and an address from 198.51.100.0/24 derived from the issue id, as GitLab records ' +
        'for every issue a person creates; null: none (an imported issue), which that route answers with 404.',
    ),
})

const fields = {
  issues: z.array(issueSchema).default([]).describe('Issues of this project.'),
  /** Bulk data: `issues: N` faker-made issues for this project. */
  generate: z.strictObject({ issues: z.int().nonnegative().max(1_000_000).default(0).describe('How many faker-made issues to add after the listed ones (0 to 1000000). Default 0.') }).optional().describe('Bulk data made by faker for this project.'),
}

/** One issue, as parsed. */
type ScenarioIssue = z.output<typeof issueSchema>

/** The `issues` field of projects, as parsed. */
export type IssueFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends IssueFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The issues fragment (see the module comment). */
export const issueFragment: ScenarioFragment = {
  need: { with: { fields: ['project.merge_requests'], why: 'check reports a merge request\'s closes: or mentions: iid that no issue of the project has' } },
  fields: { project: fields },
  collections: [{ table: 'issues', field: 'issues', on: ['project'], iid: 'issues' }],
  check(ctx) {
    checkIssuableReferences(ctx, 'issues')
    checkScenarioNotes(ctx, 'issues')
    for (const project of ctx.model.project) {
      for (const issue of items(project, 'issues')) {
        for (const [award, j] of list(issue.value.award_emoji)) ctx.checkUser(at(issue, 'award_emoji', j, 'user'), (award as { user?: unknown })?.user)
      }
      const written = new Set(list(project.value.issues).map(([issue]) => (issue as { iid?: unknown })?.iid))
      for (const mr of items(project, 'merge_requests')) {
        for (const field of ['closes', 'mentions']) {
          for (const [iid, j] of list(mr.value[field])) {
            if (!written.has(iid)) ctx.report(at(mr, field, j), `no issue with iid ${JSON.stringify(iid)} written in this project (link targets need a written iid)`)
          }
        }
      }
    }
  },
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
          upvotes: it.upvotes + it.award_emoji.filter((a) => a.name === 'thumbsup').length,
          downvotes: it.downvotes + it.award_emoji.filter((a) => a.name === 'thumbsdown').length,
          user_notes_count: it.user_notes_count + scenarioNoteCount(it),
          relative_position: null,
          time_estimate: it.time_estimate,
          total_time_spent: it.total_time_spent,
          ...(it.weight !== undefined && it.weight !== null ? { weight: it.weight } : {}),
        }
        ctx.stage('issues', record)
        loadIssueExtras(ctx, it, record)
      })
      if (p.generate && p.generate.issues > 0) generateIssues(ctx, parent, p.generate.issues)
    },
  },
}

/** The notes, award emoji and user agent detail written on one issue. */
function loadIssueExtras(ctx: LoadContext, it: ScenarioIssue, record: IssueRecord): void {
  const { db } = ctx
  loadNotes(ctx, { type: 'Issue', id: record.id, project_id: record.project_id, created_at: record.created_at }, it.notes, it.discussions)
  for (const award of it.award_emoji) {
    db.tables.award_emoji.insert({ awardable_id: record.id, awardable_type: 'Issue', name: award.name, user_id: ctx.userId(award.user), created_at: record.updated_at })
  }
  if (it.user_agent_detail !== null) ctx.stage('user_agent_details', it.user_agent_detail ? { id: record.id, subject_id: record.id, subject_type: 'Issue', ...it.user_agent_detail } : defaultUserAgentDetail(record.id))
}

