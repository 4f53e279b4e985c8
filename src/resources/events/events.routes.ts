/**
 * The events API: a user's contribution events (`GET /events`, `GET /users/:id/events`) and a
 * project's (`GET /projects/:id/events`), newest first unless `sort=asc`, filtered by `action`,
 * `target_type`, `before` and `after` (dates: before the day begins, after the day ends), each event
 * shown only to whoever may read its target now (`Event#visible_to_user?`): a push to whoever may
 * download the code, an issue, merge request or note to whoever may read it; an event whose target
 * is gone is shown to nobody. `scope=all` on `/events` lists the events of every project the user
 * is a member of instead of the user's own. A private profile's events are an empty list to others.
 * gitlab: lib/api/events.rb, lib/api/helpers/events_helpers.rb, lib/api/projects.rb
 * (`GET :id/events`), app/finders/events_finder.rb, app/models/event.rb (13.12).
 * @module
 */
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, canReadProject, issueVisibleTo, projectLevels, seesAllConfidentialIssues, type ProjectLevels } from '../../rules/access.js'
import { findProject, findUser } from '../../rules/finders.js'
import { issueById } from '../issues/issues.public.js'
import { canReadMergeRequest, mergeRequestById } from '../merge-requests/merge-requests.public.js'
import { canDownloadCode } from '../repository/repository.public.js'
import { Event, eventTarget, type EventTarget } from './events.entities.js'
import { EVENT_ACTIONS, type EventRecord } from './events.tables.js'

/** `Event::TARGET_TYPES` keys (13.12): the `target_type` filter's values. */
const TARGET_TYPES = ['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user', 'wiki', 'design'] as const

const filterParams = {
  action: p.string({ values: EVENT_ACTIONS }),
  target_type: p.string({ values: TARGET_TYPES }),
  before: p.date(),
  after: p.date(),
  sort: p.string({ values: ['asc', 'desc'], default: 'desc' }),
  ...paginationParams,
}

type FilterParams = { action?: string; target_type?: string; before?: string; after?: string; sort: string }

/** The classes `Event::TARGET_TYPES` maps a filter to where its name is not the filter camelised. */
const TARGET_CLASSES: Readonly<Record<string, string>> = { wiki: 'WikiPage::Meta', design: 'DesignManagement::Design' }

/** `target_type`'s column value: `Event::TARGET_TYPES[type].name` (`merge_request` → `MergeRequest`, `wiki` → `WikiPage::Meta`). */
function camelize(type: string): string {
  return TARGET_CLASSES[type] ?? type.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())
}

/** Whether `user` may see the event now (`Event#visible_to_user?`). */
function visible(ctx: Ctx<unknown>, levels: ProjectLevels, event: EventRecord, target: EventTarget | null | undefined): boolean {
  if (event.project_id === null) return true
  const project = ctx.db.tables.projects.get(event.project_id)
  if (!project || !canReadProject(ctx.db, ctx.currentUser, project, ctx.today, levels)) return false
  if (event.action === 'pushed') return canDownloadCode(ctx, project)
  if (target === undefined) return true
  if (target === null) return false
  return targetVisible(ctx, levels, project, target)
}

function targetVisible(ctx: Ctx<unknown>, levels: ProjectLevels, project: ProjectRecord, target: EventTarget): boolean {
  const user = ctx.currentUser
  if (target.note?.record.confidential === true && target.note.record.author_id !== user?.id && !seesAllConfidentialIssues(ctx.db, user, project, ctx.today, levels)) return false
  const on = target.issuable
  if (on.kind === 'Issue') {
    const issue = issueById(ctx.db, on.id)
    return issue !== undefined && issueVisibleTo(ctx.db, user, project, ctx.today, levels)(issue)
  }
  if (on.kind === 'MergeRequest') {
    const mr = mergeRequestById(ctx.db, on.id)
    return mr !== undefined && canReadMergeRequest(ctx, project, mr)
  }
  if (on.kind === 'Commit') return canDownloadCode(ctx, project)
  return true
}

/** EventsFinder's filters, the visibility check and the sort, then a page of `Entities::Event`. */
function present(ctx: Ctx<FilterParams & Record<string, unknown>>, rows: EventRecord[]) {
  const q = ctx.params
  const type = q.target_type === undefined ? undefined : camelize(q.target_type)
  const levels = projectLevels(ctx.db, ctx.currentUser, ctx.today)
  const shown: { event: EventRecord; target: EventTarget | null | undefined }[] = []
  for (const event of rows) {
    if (q.action !== undefined && event.action !== q.action) continue
    if (type !== undefined && event.target_type !== type) continue
    // by_created_at_before: before the day begins; by_created_at_after: after the day ends.
    if (q.before !== undefined && event.created_at.slice(0, 10) >= q.before) continue
    if (q.after !== undefined && event.created_at.slice(0, 10) <= q.after) continue
    const target = eventTarget(ctx, event)
    if (visible(ctx, levels, event, target)) shown.push({ event, target })
  }
  shown.sort((a, b) => (q.sort === 'asc' ? a.event.id - b.event.id : b.event.id - a.event.id))
  return paginated(ctx as never, shown, ({ event, target }) => Event(event, ctx, target))
}

/** `read_user_profile`: a private profile is readable by its owner and administrators only. */
function readsProfile(viewer: UserRecord | null, user: UserRecord): boolean {
  return !user.private_profile || (viewer !== null && (viewer.id === user.id || viewer.admin))
}

/** The events routes. */
export const eventRoutes: Route[] = [
  route('GET /events', {
    scopes: ['read_user'],
    params: { scope: p.string(), ...filterParams },
    handler(ctx) {
      const user = ctx.currentUser!
      if (ctx.params.scope === 'all') {
        // EventCollection over the user's authorized projects: every event of a project they are a member of.
        const levels = projectLevels(ctx.db, user, ctx.today)
        const projectIds = new Set(ctx.db.tables.projects.all().filter((project) => levels(project) >= AccessLevel.GUEST).map((project) => project.id))
        return present(ctx, ctx.db.tables.events.all().filter((event) => event.project_id !== null && projectIds.has(event.project_id)))
      }
      return present(ctx, ctx.db.tables.events.where('author_id', user.id))
    },
  }),

  route('GET /users/:id/events', {
    auth: 'optional',
    scopes: ['read_user'],
    params: { id: p.string({ required: true }), ...filterParams },
    handler(ctx) {
      const user = findUser(ctx, ctx.params.id)
      if (!readsProfile(ctx.currentUser, user)) return present(ctx, [])
      return present(ctx, ctx.db.tables.events.where('author_id', user.id))
    },
  }),

  route('GET /projects/:id/events', {
    auth: 'optional',
    params: { id: p.string({ required: true }), ...filterParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      return present(ctx, ctx.db.tables.events.where('project_id', project.id))
    },
  }),
]
