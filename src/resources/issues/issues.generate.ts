/**
 * Bulk issues for a project (`generate: { issues: N }` in a scenario): faker-made, deterministic by
 * the scenario's seed and the project, spread over states, types, labels, milestones, assignees,
 * due dates and confidentiality, so large lists (the 100,000-issue benchmark) can be filtered.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import type { LoadContext, LoadParent } from '../../scenario/fragment.js'
import type { Entry } from '../../scenario/entries.js'
import { isoTimestamp } from '../../scenario/iso-time.js'
import type { IssueRecord, UserAgentDetailRecord } from './issues.tables.js'

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

/** Random integers in `[0, n)`. */
type Draw = (n: number) => number

/**
 * A small fast generator (mulberry32) seeded from the scenario's faker: 100,000 issues need a few
 * million draws, and faker's own helpers would take most of the 3-second load budget.
 */
function drawFrom(f: Faker): Draw {
  let state = f.number.int({ max: 0xffffffff }) >>> 0
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n)
  }
}

function pick<T>(draw: Draw, values: readonly T[]): T | undefined {
  return values.length === 0 ? undefined : values[draw(values.length)]
}

/** A due date within 60 days either side of the reference date, or null for half the issues. */
function dueDate(draw: Draw, dates: readonly string[]): string | null {
  if (draw(2) === 0) return null
  return dates[draw(121)]!
}

/** The 121 due dates {@link dueDate} picks from, by load: they depend on the reference date only. */
const dueDateTables = new WeakMap<LoadContext, readonly string[]>()

function dueDates(ctx: LoadContext): readonly string[] {
  let dates = dueDateTables.get(ctx)
  if (!dates) {
    const reference = ctx.referenceDate.getTime()
    dates = Array.from({ length: 121 }, (_, k) => isoTimestamp(reference + (k - 60) * DAY_MS).slice(0, 10))
    dueDateTables.set(ctx, dates)
  }
  return dates
}

const DAY_MS = 86_400_000

/** `{{hacker.noun}}` and the like in faker's hacker phrase templates. */
const HACKER_PLACEHOLDER = /\{\{hacker\.([a-z]+)\}\}/

/**
 * `count` calls of `f.hacker.phrase()`, the same strings from the same faker state, and leaving
 * the faker in the same state, at a fraction of the cost: faker's `helpers.fake` re-parses the
 * template for every placeholder. `words` is the faker's `definitions.hacker` and `next` its
 * randomizer's draw in [0, 1) (`LoadContext.random`). What faker draws, in order: the template
 * (`arrayElement` of the phrases), then per placeholder one `arrayElement` of the word list that its
 * expression evaluator draws and drops (it resolves `hacker.noun` against the raw definitions too)
 * and the one that `hacker.noun()` returns; `arrayElement(list)` is `list[⌊next() × length⌋]`.
 * `test/unit/scale-load-helpers.test.ts` checks this against faker itself.
 */
export function hackerPhrases(words: Readonly<Record<string, readonly string[]>>, next: () => number, count: number): string[] {
  const pick = <T>(list: readonly T[]): T => list[list.length > 1 ? Math.floor(next() * list.length) : 0]!
  // Each template split once: text pieces at even indexes, word lists at odd ones.
  const templates = words.phrase!.map((template) =>
    template.split(HACKER_PLACEHOLDER).map((piece, k) => (k % 2 === 0 ? piece : words[piece]!)),
  )
  const out = new Array<string>(count)
  const pieces: string[] = []
  for (let n = 0; n < count; n++) {
    const template = pick(templates)
    pieces.length = 0
    for (let k = 0; k < template.length; k++) {
      const piece = template[k]!
      if (typeof piece === 'string') pieces.push(piece)
      else {
        pick(piece)
        pieces.push(pick(piece))
      }
    }
    // join, not +=, so that the title is one flat string rather than a rope of a dozen pieces.
    out[n] = pieces.join('')
  }
  return out
}

/** An instant between `from` and `to` (ms), in ms. */
function between(draw: Draw, from: number, to: number): number {
  return from + Math.floor((draw(1_000_000) / 1_000_000) * Math.max(0, to - from))
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
  const hacker = f.definitions.hacker as unknown as Readonly<Record<string, readonly string[]>>
  const titles = hackerPhrases(hacker, ctx.random(), 64).map((title) => title.replace(/\.$/, ''))
  const draw = drawFrom(f)
  const iids = ctx.iids('issues', parent, Array.from({ length: count }, () => ({})))
  const since = Date.parse(project.created_at)
  const until = ctx.referenceDate.getTime()
  const dates = dueDates(ctx)
  let id = nextGeneratedId.get(ctx) ?? GENERATED_ID_BASE
  for (let i = 0; i < count; i++) {
    const closed = draw(3) === 0
    const createdMs = between(draw, since, until)
    const created_at = isoTimestamp(createdMs)
    const updated_at = isoTimestamp(between(draw, createdMs, until))
    const author_id = pick(draw, users)!
    const labelIds = labels.filter(() => draw(4) === 0)
    const assignee = draw(3) === 0 ? [] : [pick(draw, users)!]
    const record: IssueRecord = {
      id: id++,
      iid: iids[i]!,
      project_id: project.id,
      title: `${titles[i % titles.length]} ${i + 1}`,
      description: draw(5) === 0 ? `- [x] triage\n- [ ] fix` : '',
      state: closed ? 'closed' : 'opened',
      author_id,
      assignee_ids: assignee,
      label_ids: labelIds,
      milestone_id: draw(3) === 0 ? null : (pick(draw, milestones) ?? null),
      confidential: draw(10) === 0,
      discussion_locked: null,
      issue_type: draw(20) === 0 ? 'incident' : 'issue',
      due_date: dueDate(draw, dates),
      created_at,
      updated_at,
      closed_at: closed ? updated_at : null,
      closed_by_id: closed ? author_id : null,
      moved_to_id: null,
      upvotes: draw(6),
      downvotes: draw(2),
      user_notes_count: 0,
      relative_position: null,
      time_estimate: 0,
      total_time_spent: 0,
    }
    ctx.stage('issues', record)
  }
  nextGeneratedId.set(ctx, id)
}

/** The browser GitLab records for a scenario issue that names none (Firefox of the scenarios' spring 2021). */
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:87.0) Gecko/20100101 Firefox/87.0'

/**
 * The user agent detail of a scenario issue that names none: GitLab's `UserAgentDetailService`
 * records one for every issue a person creates (gitlab 13.x: app/services/issues/create_service.rb
 * `user_agent_detail_service.create` after create, app/services/user_agent_detail_service.rb).
 * Deterministic: the address is one of RFC 5737's documentation range 198.51.100.1-254, from the
 * issue id. Generated issues keep no row: the route derives theirs (100,000 rows would cost the
 * load a few hundred milliseconds), see {@link userAgentDetailOf}.
 */
export function defaultUserAgentDetail(issueId: number): UserAgentDetailRecord {
  // One detail per issue: the issue's id serves as the detail's, so scenario rows can be staged.
  return { id: issueId, subject_id: issueId, subject_type: 'Issue', user_agent: DEFAULT_USER_AGENT, ip_address: `198.51.100.${1 + (issueId % 254)}`, akismet_submitted: false }
}

/**
 * The user agent detail of an issue: its row, else for a generated issue (ids from
 * {@link GENERATED_ID_BASE} up, which keep no row) the default one; undefined when it has none.
 * Issues created through the API always have a row (the request's user agent and address).
 */
export function userAgentDetailOf(rows: readonly UserAgentDetailRecord[], issueId: number): UserAgentDetailRecord | undefined {
  return rows.find((row) => row.subject_type === 'Issue') ?? (issueId >= GENERATED_ID_BASE ? defaultUserAgentDetail(issueId) : undefined)
}
