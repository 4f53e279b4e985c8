/**
 * The events area's subscribers: what `EventCreateService` writes, hung off the domain-event
 * channel. An opened, closed or reopened issue or merge request, a merged merge request, a user's
 * note (`commented`, target the note) and every ref of a push (`pushed`, with its push payload)
 * make one contribution event each; a push of more than three refs of one kind and action makes one
 * bulk event for them (`push_event_activities_limit`, 3 by default). An approval writes `approved`;
 * a project member added or removed `joined`/`left`/`expired` (authored by the member); a new
 * project `created`; a project milestone created, closed, reopened or destroyed; a wiki page
 * created, updated or destroyed. Facts without an acting user
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

function write(db: Db, header: DomainEventHeader, projectId: number, action: EventAction, target: { type: EventTargetType; id: number; title?: string } | null, pushData: PushEventPayloadRecord | null = null, authorId: number | null = header.actorId): void {
  if (authorId === null) return
  const row: Omit<EventRecord, 'id'> = {
    project_id: projectId,
    author_id: authorId,
    action,
    target_type: target?.type ?? null,
    target_id: target?.id ?? null,
    created_at: header.at,
    push_data: pushData,
    ...(target?.title !== undefined ? { target_title: target.title } : {}),
  }
  db.tables.events.insert(row)
}

/** The issuable actions that are contribution events (an edit is not one). */
const ISSUABLE_ACTIONS: Readonly<Record<string, EventAction>> = { open: 'created', close: 'closed', reopen: 'reopened', merge: 'merged' }

/** A merge request's actions: the issuable ones and `approved` (`EventCreateService#approve_mr`; taking an approval back writes none). */
const MERGE_REQUEST_ACTIONS: Readonly<Record<string, EventAction>> = { ...ISSUABLE_ACTIONS, approved: 'approved' }

subscribe('issue', (db, event) => {
  const action = ISSUABLE_ACTIONS[event.action]
  if (action) write(db, event, event.issue.project_id, action, { type: 'Issue', id: event.issue.id })
})

subscribe('merge_request', (db, event) => {
  const action = MERGE_REQUEST_ACTIONS[event.action]
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

// ProjectMember#post_create_hook / post_destroy_hook: `join_project` (unless the member owns the
// project: a personal project's namespace user), `leave_project`, or `expired_leave_project` for a
// membership past its expiry; authored by the member, no target. Group memberships write none.
subscribe('member', (db, event) => {
  const { member } = event
  if (member.source_type !== 'project' || event.action === 'update') return
  const project = db.tables.projects.get(member.source_id)
  if (!project) return
  if (event.action === 'create') {
    const owner = project.namespace_type === 'user' && project.namespace_id === member.user_id
    if (!owner) write(db, event, project.id, 'joined', null, null, member.user_id)
    return
  }
  write(db, event, project.id, event.expired ? 'expired' : 'left', null, null, member.user_id)
})

// Projects::CreateService#after_create_actions: `event_service.create_project` (no target).
subscribe('project', (db, event) => {
  if (event.action === 'create') write(db, event, event.project.id, 'created', null)
})

// Milestones::CreateService, CloseService, ReopenService, DestroyService: project milestones only
// (`milestone.project_milestone?`), target the milestone.
const MILESTONE_ACTIONS: Readonly<Record<string, EventAction>> = { create: 'created', close: 'closed', reopen: 'reopened', destroy: 'destroyed' }
subscribe('milestone', (db, event) => {
  const action = MILESTONE_ACTIONS[event.action]
  if (action && event.milestone.project_id !== null) write(db, event, event.milestone.project_id, action, { type: 'Milestone', id: event.milestone.id })
})

// WikiPages::{Create,Update,Destroy}Service#create_wiki_event: `created`, `updated`, `destroyed`,
// target the page's `WikiPage::Meta` (here the page row), whose title outlives the page.
const WIKI_ACTIONS: Readonly<Record<string, EventAction>> = { create: 'created', update: 'updated', delete: 'destroyed' }
subscribe('wiki_page', (db, event) => {
  const action = WIKI_ACTIONS[event.action]
  if (action) write(db, event, event.project.id, action, { type: 'WikiPage::Meta', id: event.page.id, title: event.title })
})
