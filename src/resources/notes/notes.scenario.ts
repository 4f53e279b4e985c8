/**
 * The notes part of the scenario format, which issues and merge requests carry: `notes:` (plain
 * comments, each a discussion of its own) and `discussions:` (threads: their first note starts the
 * discussion, the rest reply to it; a merge request's may be resolved with `resolved_by`). The
 * issues and merge requests areas put these fields in their records' schemas and call
 * {@link loadNotes} for each record (through `notes.public.ts`).
 * A note without an `id` gets the next id of the `notes` table as it loads (1, 2, … in loading
 * order); a written `id` must be unique among notes and above those (the default scenario's start
 * at 700).
 * Source: STYLE.md §10; gitlab: app/models/note.rb, app/models/discussion_note.rb,
 * app/models/concerns/resolvable_note.rb.
 * @module
 */
import { z } from 'zod'
import type { CheckContext, LoadContext } from '../../scenario/fragment.js'
import { items, list, type Rec } from '../../scenario/entries.js'
import { at } from '../../scenario/problems.js'
import { idSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import { discussionIdFor } from './notes.model.js'
import type { NoteableType, NoteRecord } from './notes.tables.js'

/** A comment: who wrote what, and when. */
export const noteSchema = z.strictObject({
  id: idSchema.optional().describe('Note id; the next free one when absent (a written one must be unique and above those).'),
  author: pathSchema.describe('Username of the note\'s author.'),
  body: z.string().min(1).describe('The note text (Markdown).'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  confidential: z.boolean().optional().describe('An internal note (visible to Reporters and above only). Default false.'),
})

/** A thread on an issue: its notes, the first starting it. */
export const issueDiscussionSchema = z.strictObject({
  notes: z.array(noteSchema).min(1).describe('The discussion\'s notes, oldest first; the first starts it.'),
})

/** A thread on a merge request, which may be resolved. */
export const mergeRequestDiscussionSchema = z.strictObject({
  notes: z.array(noteSchema).min(1).describe('The discussion\'s notes, oldest first; the first starts it.'),
  resolved_by: pathSchema.optional().describe('Username of who resolved the discussion (every note resolved); absent = unresolved.'),
  resolved_at: timestampSchema.optional().describe('When it was resolved (an ISO 8601 instant); the last note\'s creation when absent.'),
})

/** A scenario note, as parsed. */
export type ScenarioNote = z.output<typeof noteSchema>
/** A scenario discussion, as parsed (an issue's has no resolution fields). */
export type ScenarioDiscussion = z.output<typeof mergeRequestDiscussionSchema> | z.output<typeof issueDiscussionSchema>

/** The noteable a scenario record became: what its notes point at. */
export interface LoadedNoteable {
  readonly type: NoteableType
  readonly id: number
  readonly project_id: number
  /** The record's creation: generated note times come after it. */
  readonly created_at: string
}

/** How many user notes the record's `notes:` and `discussions:` hold (its `user_notes_count` grows by this). */
export function scenarioNoteCount(record: { notes: readonly unknown[]; discussions: readonly { notes: readonly unknown[] }[] }): number {
  return record.notes.length + record.discussions.reduce((n, d) => n + d.notes.length, 0)
}

/**
 * Checks the notes of every project's records in `field` (`issues`, `merge_requests`): authors and
 * `resolved_by` name users; written note ids are unique across the scenario.
 */
export function checkScenarioNotes(ctx: CheckContext, field: string): void {
  const seen = new Set<unknown>()
  const checkNote = (owner: Parameters<typeof at>[0], path: (string | number)[], note: unknown) => {
    const rec = (note ?? {}) as Rec
    ctx.checkUser(at(owner, ...path, 'author'), rec.author)
    if (rec.id === undefined) return
    if (seen.has(rec.id)) ctx.report(at(owner, ...path, 'id'), `duplicate note id ${JSON.stringify(rec.id)}`)
    seen.add(rec.id)
  }
  for (const project of ctx.model.project) {
    for (const item of items(project, field)) {
      for (const [note, j] of list(item.value.notes)) checkNote(item, ['notes', j], note)
      for (const [discussion, j] of list(item.value.discussions)) {
        const rec = (discussion ?? {}) as Rec
        if (rec.resolved_by !== undefined) ctx.checkUser(at(item, 'discussions', j, 'resolved_by'), rec.resolved_by)
        for (const [note, k] of list(rec.notes)) checkNote(item, ['discussions', j, 'notes', k], note)
      }
    }
  }
}

/**
 * Loads one record's notes: each of `notes` a plain comment, each of `discussions` a thread of
 * `DiscussionNote`s sharing the first note's discussion id (resolved as a whole when
 * `resolved_by` is written, on a merge request). Generated times fall between the record's
 * creation and the reference date. A note with a written id is staged (inserted with it when
 * loading ends), the others are inserted now.
 */
export function loadNotes(ctx: LoadContext, noteable: LoadedNoteable, notes: readonly ScenarioNote[], discussions: readonly ScenarioDiscussion[]): void {
  const { db } = ctx
  // An issue's plain notes keep the faker keys they had before merge requests had notes, so the
  // generated times of existing scenarios stay the same.
  const prefix = noteable.type === 'Issue' ? `note:${noteable.id}` : `note:${noteable.type}:${noteable.id}`
  const createdAt = (note: ScenarioNote, key: string): string => note.created_at ?? ctx.between(ctx.fake(`${prefix}:${key}`), noteable.created_at)
  const write = (note: ScenarioNote, created_at: string, extra: (id: number) => Partial<NoteRecord>): void => {
    const id = note.id ?? db.tables.notes.peekNextId()
    const row: NoteRecord = {
      id,
      noteable_id: noteable.id,
      noteable_type: noteable.type,
      project_id: noteable.project_id,
      author_id: ctx.userId(note.author),
      body: note.body,
      system: false,
      confidential: note.confidential ?? null,
      created_at,
      updated_at: created_at,
      ...extra(id),
    }
    if (note.id !== undefined) ctx.stage('notes', row)
    else db.tables.notes.insert(row)
  }
  notes.forEach((note, j) => write(note, createdAt(note, String(j)), (id) => ({ type: null, discussion_id: discussionIdFor(noteable.type, noteable.id, id) })))
  discussions.forEach((discussion, j) => {
    const times = discussion.notes.map((note, k) => createdAt(note, `discussion:${j}:${k}`))
    const resolvedBy = noteable.type === 'MergeRequest' && 'resolved_by' in discussion && discussion.resolved_by !== undefined ? ctx.userId(discussion.resolved_by) : null
    const resolvedAt = resolvedBy === null ? null : (('resolved_at' in discussion ? discussion.resolved_at : undefined) ?? [...times].sort().at(-1)!)
    let discussionId: string | undefined
    discussion.notes.forEach((note, k) =>
      write(note, times[k]!, (id) => {
        discussionId ??= discussionIdFor(noteable.type, noteable.id, id)
        return { type: 'DiscussionNote', discussion_id: discussionId, resolved_at: resolvedAt, resolved_by_id: resolvedBy }
      }),
    )
  })
}
