/**
 * What issues and merge requests share in a scenario: references to users (by username), labels
 * and milestones (by title, in the project or its groups), and open/closed timestamps that agree
 * with each other. The issues and merge requests areas both build on these, as GitLab's `Issuable`
 * concern serves both models.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import { z } from 'zod'
import { didYouMean } from '../core/did-you-mean.js'
import { items, list, str } from './entries.js'
import type { CheckContext, LoadContext, LoadParent, WrittenTimestamps } from './fragment.js'
import { at, formatPath } from './problems.js'
import { isObject, num, pick, str as importStr, titleIn, usernameIn, type ImportBuildContext, type Json } from './importer.js'
import { idSchema, iidSchema, pathSchema, timestampSchema } from './scalars.js'

/**
 * The fields issues and merge requests share: `iid` (per project), `title` and `description`
 * (faker when absent), `author`/`assignees`/`closed_by` usernames, `labels` and `milestone` titles,
 * timestamps and counters. Each area adds its `state` and its own fields.
 */
export const issuableFields = {
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  iid: iidSchema.optional().describe('Number within the project; the next free one when absent.'),
  title: z.string().min(1).optional().describe('Title; faker when absent.'),
  description: z.string().optional().describe('Description (Markdown); faker when absent.'),
  author: pathSchema.optional().describe('Username of the author; the project\'s creator when absent.'),
  assignees: z.array(pathSchema).default([]).describe('Usernames of the assignees.'),
  labels: z.array(z.string()).default([]).describe('Titles of labels of the project or its groups.'),
  milestone: z.string().nullable().optional().describe('Title of a milestone of the project or its groups; absent or null = none.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  closed_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z) (closed ones); null = open.'),
  closed_by: pathSchema.optional().describe('Username of who closed it (closed ones).'),
  upvotes: z.int().nonnegative().default(0).describe('Thumbs-up count. Default 0.'),
  downvotes: z.int().nonnegative().default(0).describe('Thumbs-down count. Default 0.'),
  user_notes_count: z.int().nonnegative().default(0).describe('Comment count. Default 0.'),
}

/** Fields naming one user each; checked on issues and merge requests alike. */
const USER_FIELDS = ['author', 'closed_by', 'merged_by']

/**
 * Checks the references of every project's issuables in `field` (`issues`): users, assignees, and,
 * when the project's namespace is known, label and milestone titles of the project or its groups.
 */
export function checkIssuableReferences(ctx: CheckContext, field: string): void {
  for (const project of ctx.model.project) {
    const namespace = ctx.index.namespace(project)
    // An unknown namespace is reported already: label and milestone lookups would only echo it.
    const scopes = namespace ? [project, ...namespace.groups] : undefined
    const name = ctx.index.fullPath(project) ?? formatPath(project.path)
    for (const item of items(project, field)) {
      for (const key of USER_FIELDS) ctx.checkUser(at(item, key), item.value[key])
      for (const [assignee, j] of list(item.value.assignees)) ctx.checkUser(at(item, 'assignees', j), assignee)
      if (!scopes) continue
      for (const [label, j] of list(item.value.labels)) {
        if (typeof label === 'string' && !ctx.index.findTitle('labels', scopes, label.trim())) {
          ctx.report(at(item, 'labels', j), `unknown label "${label}"${didYouMean(label.trim(), ctx.index.titlesIn('labels', scopes))} (not a label of project "${name}" or its groups)`)
        }
      }
      const milestone = str(item.value.milestone)
      if (milestone !== undefined && !ctx.index.findTitle('milestones', scopes, milestone)) {
        ctx.report(at(item, 'milestone'), `unknown milestone "${milestone}"${didYouMean(milestone, ctx.index.titlesIn('milestones', scopes))} (not a milestone of project "${name}" or its groups)`)
      }
    }
  }
}

/**
 * Open and finished (closed or merged) timestamps that agree: created after `since` (the project),
 * updated after created, and a finished one updated when it finished unless told otherwise.
 * @param finishedAt the written `closed_at`/`merged_at` (undefined: not written).
 */
export function issuableTimes(
  ctx: LoadContext,
  f: Faker,
  item: WrittenTimestamps,
  finished: boolean,
  finishedAt: string | null | undefined,
  since: string,
): { created_at: string; updated_at: string; finished_at: string | null } {
  const created_at = item.created_at ?? ctx.between(f, since)
  const updated_at = item.updated_at ?? (finished && finishedAt ? finishedAt : ctx.between(f, created_at))
  const finished_at = finishedAt !== undefined ? finishedAt : finished ? updated_at : null
  return { created_at, updated_at, finished_at }
}

/** Label ids of an issuable's `labels` titles (trimmed, as label titles are stored). */
export function issuableLabelIds(ctx: LoadContext, parent: LoadParent, titles: readonly string[]): number[] {
  return titles.map((title) => ctx.titleId('labels', parent, title.trim()))
}

/** The milestone id of an issuable's `milestone` title, or null. */
export function issuableMilestoneId(ctx: LoadContext, parent: LoadParent, title: string | null | undefined): number | null {
  return title === null || title === undefined ? null : ctx.titleId('milestones', parent, title)
}

/**
 * A recorded issue or merge request as a scenario record, for the two areas' cassette importers:
 * the shared fields, usernames for `author`/`assignees`/`closed_by`, and only the labels and the
 * milestone its project or the project's groups hold in the imported scenario (the others are
 * noted as left out).
 * @param extra the area's own fields, copied as they are.
 * @param allowNull fields (besides `closed_at`) whose null is kept.
 * @returns undefined when its project was not imported.
 */
export function importIssuable(ctx: ImportBuildContext, record: Json, extra: readonly string[], allowNull: readonly string[]): Json | undefined {
  const projectId = num(record.project_id)
  if (projectId === undefined || ctx.project(projectId) === undefined) return undefined
  // Labels and milestones an issuable may refer to: its project's and its ancestor groups'.
  const visibleTitles = (kind: 'labels' | 'milestones'): Set<string> => {
    const parts = (ctx.projectPath(projectId) ?? '').split('/').slice(0, -1)
    const owners = [ctx.project(projectId), ...parts.map((_, i) => ctx.group(parts.slice(0, i + 1).join('/')))]
    const key = kind === 'labels' ? 'name' : 'title'
    return new Set(owners.flatMap((o) => ((o?.[kind] as Json[] | undefined) ?? []).map((x) => String(x[key]))))
  }
  const out: Json = pick(record, ['id', 'iid', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'upvotes', 'downvotes', 'user_notes_count', ...extra], ['closed_at', ...allowNull])
  const author = usernameIn(record.author)
  if (author) out.author = author
  const assignees = (Array.isArray(record.assignees) ? record.assignees : []).map(usernameIn).filter((u): u is string => u !== undefined)
  if (assignees.length > 0) out.assignees = assignees
  const closedBy = usernameIn(record.closed_by)
  if (closedBy) out.closed_by = closedBy
  const labelTitles = visibleTitles('labels')
  const labels = (Array.isArray(record.labels) ? record.labels : []).map((l) => (isObject(l) ? importStr(l.name) : importStr(l))).filter((l): l is string => l !== undefined)
  const kept = labels.filter((l) => labelTitles.has(l))
  if (kept.length < labels.length) ctx.note(`${String(record.web_url ?? record.id)}: labels ${labels.filter((l) => !labelTitles.has(l)).join(', ')} were never listed; left out`)
  if (kept.length > 0) out.labels = kept
  const milestone = titleIn(record.milestone)
  if (milestone && visibleTitles('milestones').has(milestone)) out.milestone = milestone
  else if (milestone) ctx.note(`${String(record.web_url ?? record.id)}: milestone ${milestone} was never listed; left out`)
  return out
}
