/**
 * `Entities::Event` and `Entities::PushEventPayload` (13.12), and the reading of an event's target
 * (its title, iid, note) from the areas that own it.
 * gitlab: lib/api/entities/event.rb, push_event_payload.rb, app/models/event.rb (`action_name`,
 * `target_title`, `target_iid`), app/models/note.rb (a note's title is its noteable's).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import { UserBasic } from '../../entities/user.js'
import { issueById } from '../issues/issues.public.js'
import { mergeRequestById } from '../merge-requests/merge-requests.public.js'
import { milestoneById } from '../milestones/milestones.public.js'
import { Note, noteById } from '../notes/notes.public.js'
import type { EventRecord } from './events.tables.js'

type NoteRecord = NonNullable<ReturnType<typeof noteById>>

/** What an event's target reads as now: null when it is gone (a deleted issue, note…). */
export interface EventTarget {
  /** The target's class as the `target_type` column holds it (`DiscussionNote` for a discussion's note). */
  readonly type: string
  readonly iid: number | null
  readonly title: string | null
  /** The project the target lives in. */
  readonly projectId: number
  /** What {@link eventVisible} checks: the issue, merge request, or the note's noteable. */
  readonly issuable: { kind: 'Issue' | 'MergeRequest'; id: number } | { kind: 'Commit' | 'Other' }
  /** The note, when the target is one, and its noteable's iid (null on a commit's). */
  readonly note?: { readonly record: NoteRecord; readonly noteableIid: number | null }
}

/** The target of an event with one, read live; undefined for no target, null for a vanished one. */
export function eventTarget(ctx: PresentCtx, event: EventRecord): EventTarget | null | undefined {
  if (event.target_type === null || event.target_id === null) return undefined
  const { db } = ctx
  switch (event.target_type) {
    case 'Issue': {
      const issue = issueById(db, event.target_id)
      return issue ? { type: 'Issue', iid: issue.iid, title: issue.title, projectId: issue.project_id, issuable: { kind: 'Issue', id: issue.id }} : null
    }
    case 'MergeRequest': {
      const mr = mergeRequestById(db, event.target_id)
      return mr ? { type: 'MergeRequest', iid: mr.iid, title: mr.title, projectId: mr.project_id, issuable: { kind: 'MergeRequest', id: mr.id }} : null
    }
    case 'Note': {
      const note = noteById(db, event.target_id)
      if (!note) return null
      const noteable =
        note.noteable_type === 'Issue' && note.noteable_id !== null
          ? issueById(db, note.noteable_id)
          : note.noteable_type === 'MergeRequest' && note.noteable_id !== null
            ? mergeRequestById(db, note.noteable_id)
            : undefined
      const issuable =
        noteable && (note.noteable_type === 'Issue' || note.noteable_type === 'MergeRequest')
          ? { kind: note.noteable_type, id: noteable.id }
          : { kind: note.noteable_type === 'Commit' ? ('Commit' as const) : ('Other' as const) }
      return { type: note.type ?? 'Note', iid: null, title: noteable?.title ?? null, projectId: note.project_id, issuable, note: { record: note, noteableIid: noteable?.iid ?? null } }
    }
    case 'Milestone': {
      // A milestone event stays visible after the milestone is gone (`read_milestone` on the
      // project), its title and iid then null.
      const milestone = milestoneById(db, event.target_id)
      return { type: 'Milestone', iid: milestone?.iid ?? null, title: milestone?.title ?? null, projectId: event.project_id ?? 0, issuable: { kind: 'Other' } }
    }
    case 'WikiPage::Meta':
      // `WikiPage::Meta` outlives its page: the title the event recorded; `read_wiki` on the project.
      return { type: 'WikiPage::Meta', iid: null, title: event.target_title ?? null, projectId: event.project_id ?? 0, issuable: { kind: 'Other' } }
    default:
      return null
  }
}

/** `Event#action_name`: a push's by its payload, `accepted` for a merge, `opened` for a creation or a reopening. */
function actionName(event: EventRecord): string {
  switch (event.action) {
    case 'pushed':
      return event.push_data?.action === 'created' ? 'pushed new' : event.push_data?.action === 'removed' ? 'deleted' : 'pushed to'
    case 'closed':
    case 'joined':
    case 'left':
    case 'destroyed':
    case 'approved':
      return event.action
    case 'merged':
      return 'accepted'
    case 'expired':
      return 'removed due to membership expiration from'
    case 'commented':
      return 'commented on'
    case 'created':
      // A project's creation (no target) and a wiki page's read `created`; an issuable's or a milestone's `opened`.
      return event.target_type === null || event.target_type === 'WikiPage::Meta' ? 'created' : 'opened'
    case 'updated':
      return event.target_type === 'WikiPage::Meta' ? 'updated' : 'opened'
    default:
      return 'opened'
  }
}

/**
 * `Entities::Event`: `{id, project_id, action_name, target_id, target_iid, target_type, author_id,
 * target_title, created_at, [note], author, [push_data], author_username}`.
 * @param target the event's {@link eventTarget} (undefined: it has none).
 */
export function Event(event: EventRecord, ctx: PresentCtx, target: EventTarget | null | undefined) {
  const author = ctx.db.tables.users.get(event.author_id)
  return {
    id: event.id,
    project_id: event.project_id,
    action_name: actionName(event),
    target_id: event.target_id,
    target_iid: target?.iid ?? null,
    target_type: target?.type ?? event.target_type,
    author_id: event.author_id,
    target_title: target?.title ?? null,
    created_at: event.created_at,
    ...(target?.note ? { note: Note(target.note.record, ctx, target.note.noteableIid) } : {}),
    ...(author ? { author: UserBasic(author, ctx) } : {}),
    ...(event.push_data ? { push_data: PushEventPayload(event.push_data) } : {}),
    author_username: author?.username ?? null,
  }
}

/** `Entities::PushEventPayload`. */
function PushEventPayload(data: NonNullable<EventRecord['push_data']>) {
  return {
    commit_count: data.commit_count,
    action: data.action,
    ref_type: data.ref_type,
    commit_from: data.commit_from,
    commit_to: data.commit_to,
    ref: data.ref,
    commit_title: data.commit_title,
    ref_count: data.ref_count,
  }
}
