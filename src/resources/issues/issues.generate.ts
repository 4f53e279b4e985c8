/**
 * Bulk issues for a project (`generate: { issues: N }` in a scenario): faker-made, deterministic by
 * the scenario's seed and the project, spread over states, types, labels, milestones, assignees,
 * due dates and confidentiality, so large lists (the 100,000-issue benchmark) can be filtered.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { LoadContext, LoadParent } from '../../scenario/fragment.js'
import type { Entry } from '../../scenario/entries.js'
import type { IssueRecord } from './issues.tables.js'

/** Generated issues take ids from here up, so they never meet written ids. */
export const GENERATED_ID_BASE = 1_000_000

/** The next generated id per load (several projects may generate). */
const nextGeneratedId = new WeakMap<LoadContext, number>()

/** Ids of the records in `field` (labels, milestones) of the project and its groups. */
function idsOf(ctx: LoadContext, owners: readonly Entry[], field: string): number[] {
  const ids: number[] = []
  for (const owner of owners) {
    const records = owner.value[field]
    if (Array.isArray(records)) for (const record of records) ids.push(ctx.idOf(record as object))
  }
  return ids
}

/** User ids of the members of the project and its groups, plus the creator. */
function memberIds(ctx: LoadContext, owners: readonly Entry[], creatorId: number): number[] {
  const ids = new Set<number>([creatorId])
  for (const owner of owners) {
    const members = owner.value.members
    if (!Array.isArray(members)) continue
    for (const member of members) ids.add(ctx.userId((member as { user: string }).user))
  }
  return [...ids]
}

function pick<T>(f: Faker, values: readonly T[]): T | undefined {
  return values.length === 0 ? undefined : values[f.number.int({ max: values.length - 1 })]
}

/** A due date within 60 days either side of the reference date, or null for half the issues. */
function dueDate(f: Faker, reference: Date): string | null {
  if (f.number.int({ max: 1 }) === 0) return null
  const offset = f.number.int({ min: -60, max: 60 })
  return new Date(reference.getTime() + offset * 86_400_000).toISOString().slice(0, 10)
}

/**
 * Stages `count` generated issues for the project: iids after the written ones; ids from
 * {@link GENERATED_ID_BASE} up, continuing across projects.
 */
export function generateIssues(ctx: LoadContext, parent: LoadParent, count: number): void {
  const project = ctx.row('project', parent.entry)
  const owners = [parent.entry, ...(ctx.index.namespace(parent.entry)?.groups ?? [])]
  const labels = idsOf(ctx, owners, 'labels')
  const milestones = idsOf(ctx, owners, 'milestones')
  const users = memberIds(ctx, owners, project.creator_id)
  const f = ctx.fake(`issues:generate:${parent.key}`)
  const iids = ctx.iids('issues', parent, Array.from({ length: count }, () => ({})))
  let id = nextGeneratedId.get(ctx) ?? GENERATED_ID_BASE
  const titles = Array.from({ length: 64 }, () => f.hacker.phrase().replace(/\.$/, ''))
  for (let i = 0; i < count; i++) {
    const closed = f.number.int({ max: 2 }) === 0
    const created_at = ctx.between(f, project.created_at)
    const updated_at = ctx.between(f, created_at)
    const author_id = pick(f, users)!
    const labelIds = labels.filter(() => f.number.int({ max: 3 }) === 0)
    const assignee = f.number.int({ max: 2 }) === 0 ? [] : [pick(f, users)!]
    const record: IssueRecord = {
      id: id++,
      iid: iids[i]!,
      project_id: project.id,
      title: `${titles[i % titles.length]} ${i + 1}`,
      description: f.number.int({ max: 4 }) === 0 ? `- [x] triage\n- [ ] fix` : '',
      state: closed ? 'closed' : 'opened',
      author_id,
      assignee_ids: assignee,
      label_ids: labelIds,
      milestone_id: f.number.int({ max: 2 }) === 0 ? null : (pick(f, milestones) ?? null),
      confidential: f.number.int({ max: 9 }) === 0,
      discussion_locked: null,
      issue_type: f.number.int({ max: 19 }) === 0 ? 'incident' : 'issue',
      due_date: dueDate(f, ctx.referenceDate),
      created_at,
      updated_at,
      closed_at: closed ? updated_at : null,
      closed_by_id: closed ? author_id : null,
      moved_to_id: null,
      upvotes: f.number.int({ max: 5 }),
      downvotes: f.number.int({ max: 1 }),
      user_notes_count: 0,
      relative_position: null,
      time_estimate: 0,
      total_time_spent: 0,
    }
    ctx.stage('issues', record)
  }
  nextGeneratedId.set(ctx, id)
}
