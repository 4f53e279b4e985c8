/**
 * The events area's subscribers: what `EventCreateService` writes, hung off the domain-event
 * channel. An opened, closed or reopened issue or merge request, a merged merge request, a user's
 * note (`commented`, target the note) and every ref of a push (`pushed`, with its push payload)
 * make one contribution event each; a push of more than three refs of one kind and action makes one
 * bulk event for them (`push_event_activities_limit`, 3 by default). Facts without an acting user
 * (a runner, a scheduled move) make none, as GitLab's services need an author.
 * gitlab: app/services/event_create_service.rb, app/services/git/process_ref_changes_service.rb,
 * app/services/push_event_payload_service.rb, lib/gitlab/data_builder/push.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import { subscribe, type DomainEventHeader } from '../../rules/events.js'
import { pushedCommits } from '../repository/repository.public.js'
import type { EventAction, EventRecord, EventTargetType, PushEventPayloadRecord } from './events.tables.js'

/** `Gitlab::CurrentSettings.push_event_activities_limit`'s default: more refs than this in one push make a bulk event. */
const PUSH_EVENT_ACTIVITIES_LIMIT = 3

function write(db: Db, header: DomainEventHeader, projectId: number, action: EventAction, target: { type: EventTargetType; id: number } | null, pushData: PushEventPayloadRecord | null = null): void {
  if (header.actorId === null) return
  const row: Omit<EventRecord, 'id'> = {
    project_id: projectId,
    author_id: header.actorId,
    action,
    target_type: target?.type ?? null,
    target_id: target?.id ?? null,
    created_at: header.at,
    push_data: pushData,
  }
  db.tables.events.insert(row)
}

/** The issuable actions that are contribution events (an edit is not one). */
const ISSUABLE_ACTIONS: Readonly<Record<string, EventAction>> = { open: 'created', close: 'closed', reopen: 'reopened', merge: 'merged' }

subscribe('issue', (db, event) => {
  const action = ISSUABLE_ACTIONS[event.action]
  if (action) write(db, event, event.issue.project_id, action, { type: 'Issue', id: event.issue.id })
})

subscribe('merge_request', (db, event) => {
  const action = ISSUABLE_ACTIONS[event.action]
  if (action) write(db, event, event.mergeRequest.project_id, action, { type: 'MergeRequest', id: event.mergeRequest.id })
})

subscribe('note', (db, event) => {
  write(db, event, event.note.project_id, 'commented', { type: 'Note', id: event.note.id })
})

subscribe('push', (db, event) => {
  const { project, repository, previous } = event
  // Git::ProcessRefChangesService groups the changes by ref type and action; a group larger than
  // the limit is one bulk event, the others one event per ref.
  const groups = new Map<string, PushEventPayloadRecord[]>()
  for (const update of event.refs) {
    const tag = update.ref.startsWith('refs/tags/')
    const action = update.before === null ? 'created' : update.after === null ? 'removed' : 'pushed'
    const commits = pushedCommits(project, update, repository, previous)
    const head = commits.at(-1)
    const title = head === undefined ? null : (repository.objects.commit(head)?.message.split('\n')[0] ?? null)
    const payload: PushEventPayloadRecord = {
      commit_count: commits.length,
      action,
      ref_type: tag ? 'tag' : 'branch',
      commit_from: update.before,
      commit_to: update.after,
      ref: update.ref.replace(/^refs\/(heads|tags)\//, ''),
      // PushEventPayloadService#commit_title: the title, truncated to 70 characters.
      commit_title: title === null ? null : title.length > 70 ? `${title.slice(0, 67)}...` : title,
      ref_count: null,
    }
    const key = `${payload.ref_type} ${action}`
    groups.set(key, [...(groups.get(key) ?? []), payload])
  }
  for (const payloads of groups.values()) {
    if (payloads.length > PUSH_EVENT_ACTIVITIES_LIMIT) {
      const first = payloads[0]!
      write(db, event, project.id, 'pushed', null, { commit_count: 0, action: first.action, ref_type: first.ref_type, commit_from: null, commit_to: null, ref: null, commit_title: null, ref_count: payloads.length })
    } else {
      for (const payload of payloads) write(db, event, project.id, 'pushed', null, payload)
    }
  }
})
