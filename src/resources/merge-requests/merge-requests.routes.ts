/**
 * Merge request routes over the scenario's merge requests: the instance, group and project lists,
 * get, update, delete, participants, closing issues, pipelines, subscribe/unsubscribe and time
 * tracking (`POST …/todo` lives in the to-dos area). Creating, merging, rebasing, `changes`,
 * `commits` and `merge_ref` read the repository: merge-requests-repository.routes.ts.
 * Reads allow anonymous callers on public projects (`authenticate_non_get!`); writes need a user.
 * Sources: issue 25 item 1; gitlab: lib/api/merge_requests.rb, lib/api/helpers/merge_requests_helpers.rb,
 * lib/api/subscriptions.rb, lib/api/time_tracking_endpoints.rb, spec/requests/api/merge_requests_spec.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, grapeError, notModified, recordNotFound, unauthorized } from '../../core/errors.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { IssuableTimeStats, type ReferenceFrom } from '../../entities/issuable.js'
import { UserBasic } from '../../entities/user.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { IssueBasic } from '../issues/issues.public.js'
import { PipelineBasic } from '../runners/runners.public.js'
import { MergeRequest, MergeRequestBasic, MergeRequestSimple, type MergeRequestOptions } from './merge-requests.entities.js'
import { divergedCommitsCount } from './merge-requests.git.js'
import { findMergeRequests, type MergeRequestListFilters, type MergeRequestListSource, type NegatableMergeRequestFilters } from './merge-requests.finder.js'
import { canAdminMergeRequest, canDestroyMergeRequest, canMergeMergeRequest, canReadMergeRequest, canReadPipelines, canReadProjectMergeRequests, canUpdateMergeRequest } from './merge-requests.policy.js'
import {
  addSpentTime,
  closesIssues,
  destroyMergeRequest,
  mergeRequestPipelines,
  participants,
  setMergeRequestSubscription,
  setTimeEstimate,
  subscribedToMergeRequest,
  updateMergeRequest,
} from './merge-requests.service.js'
import { mergeRequestByIid } from './merge-requests.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'
import { cacheClosesIssues } from './merge-requests.closing.js'

const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const

/** `merge_requests_negatable_params` (13.x). */
function negatableSpecs(): ParamSpecs {
  return {
    author_id: p.integer(),
    author_username: p.string(),
    // Grape `types: [Integer, String], integer_none_any: true`: checked in `checkNoneAny`.
    assignee_id: p.string(),
    // Grape `Array[String], check_assignees_count: true`.
    assignee_username: p.strings(),
    reviewer_username: p.string(),
    labels: p.strings(),
    milestone: p.string(),
    my_reaction_emoji: p.string(),
  }
}

/** `merge_requests_base_params` with pagination (13.x). */
function listParams(): ParamSpecs {
  return {
    ...negatableSpecs(),
    reviewer_id: p.string(),
    state: p.string({ values: ['opened', 'closed', 'locked', 'merged', 'all'] as const, default: 'all' }),
    order_by: p.string({ values: ['created_at', 'updated_at'] as const, default: 'created_at' }),
    sort: p.string({ values: ['asc', 'desc'] as const, default: 'desc' }),
    with_labels_details: p.boolean({ default: false }),
    with_merge_status_recheck: p.boolean({ default: false }),
    created_after: p.datetime(),
    created_before: p.datetime(),
    updated_after: p.datetime(),
    updated_before: p.datetime(),
    view: p.string({ values: ['simple'] as const }),
    scope: p.string({ values: SCOPES }),
    source_branch: p.string(),
    source_project_id: p.integer(),
    target_branch: p.string(),
    search: p.string(),
    in: p.string(),
    wip: p.string({ values: ['yes', 'no'] as const }),
    not: p.hash(),
    ...paginationParams,
  }
}

const listRules = {
  mutuallyExclusive: [
    ['author_id', 'author_username'],
    ['assignee_id', 'assignee_username'],
    ['reviewer_id', 'reviewer_username'],
  ],
}

/** `integer_none_any`: an integer, or `None`/`Any` in any case. */
function checkNoneAny(name: string, value: unknown, errors: string[]): number | string | undefined {
  if (value === undefined) return undefined
  const text = String(value)
  if (/^\s*[-+]?\d+\s*$/.test(text)) return Number.parseInt(text, 10)
  if (['none', 'any'].includes(text.toLowerCase())) return text
  errors.push(`${name} should be an integer, 'None' or 'Any'`)
  return undefined
}

/** `check_assignees_count`: the community edition allows one username. */
function checkAssigneeUsername(name: string, value: unknown, errors: string[]): void {
  if (Array.isArray(value) && value.length > 1) errors.push(`${name} allows one value, but found ${value.length}: ${value.join(', ')}`)
}

/** The `not` hash: its declared keys, typed as the top-level ones (an integer key that is not one: `not[key] is invalid`). */
function negated(raw: unknown, errors: string[]): NegatableMergeRequestFilters {
  if (raw === undefined || raw === null || typeof raw !== 'object') return {}
  const given = raw as Record<string, unknown>
  const out: NegatableMergeRequestFilters = {}
  const str = (key: string) => (given[key] === undefined ? undefined : String(given[key]))
  for (const key of ['author_id', 'reviewer_id'] as const) {
    const value = str(key)
    if (value === undefined) continue
    if (!/^\s*[-+]?\d+\s*$/.test(value)) errors.push(`not[${key}] is invalid`)
    else out[key] = Number.parseInt(value, 10)
  }
  if (str('author_username') !== undefined) out.author_username = str('author_username')
  out.assignee_id = checkNoneAny('not[assignee_id]', given.assignee_id, errors)
  if (out.assignee_id === undefined) delete out.assignee_id
  const names = given.assignee_username
  if (names !== undefined) {
    const list = Array.isArray(names) ? names.map(String) : String(names).split(',')
    checkAssigneeUsername('not[assignee_username]', list, errors)
    out.assignee_username = list
  }
  if (str('reviewer_username') !== undefined) out.reviewer_username = str('reviewer_username')
  const labels = given.labels
  if (labels !== undefined) out.labels = Array.isArray(labels) ? labels.map(String) : String(labels).split(',')
  if (str('milestone') !== undefined) out.milestone = str('milestone')
  if (str('my_reaction_emoji') !== undefined) out.my_reaction_emoji = str('my_reaction_emoji')
  return out
}

/**
 * `find_merge_requests` and `serializer_options_for`: finds, sorts, paginates and presents a list
 * (`MergeRequestBasic`, or `MergeRequestSimple` with `view=simple`).
 * @throws ApiError 400 `{"error":"assignee_id should be an integer, 'None' or 'Any'"}` and the like.
 */
function listReply(ctx: Ctx<Record<string, unknown>>, source: MergeRequestListSource, from: ReferenceFrom): Reply {
  const params = ctx.params
  const errors: string[] = []
  const assignee_id = checkNoneAny('assignee_id', params.assignee_id, errors)
  const reviewer_id = checkNoneAny('reviewer_id', params.reviewer_id, errors)
  checkAssigneeUsername('assignee_username', params.assignee_username, errors)
  const not = negated(params.not, errors)
  if (errors.length > 0) throw grapeError(errors.join(', '))
  const filters = {
    ...(params as unknown as MergeRequestListFilters),
    assignee_id,
    reviewer_id,
    scope: params.scope === undefined ? undefined : String(params.scope).replace(/-/g, '_'),
    not,
  }
  const page = paginate(ctx as never, findMergeRequests(ctx, source, filters))
  const simple = params.view === 'simple'
  const body = page.rows.map((mr) => (simple ? MergeRequestSimple(mr, ctx) : MergeRequestBasic(mr, ctx, { from })))
  return { status: 200, body, headers: page.headers }
}

const projectId = { id: p.string({ required: true }) }
const mrIid = { ...projectId, merge_request_iid: p.integer({ required: true }) }

type MrCtx = Ctx<{ id: string; merge_request_iid: number }>

/**
 * `find_merge_request_with_access(iid)`: `user_project`, `merge_requests.find_by!(iid:)`, then
 * `authorize! :read_merge_request`.
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 404 `{"message":"404 Not found"}`,
 *   403 `{"message":"403 Forbidden"}`.
 */
function findWithAccess(ctx: MrCtx, can: (project: ProjectRecord, mr: MergeRequestRecord) => boolean = (project, mr) => canReadMergeRequest(ctx, project, mr)) {
  const project = findProject(ctx, ctx.params.id)
  const mr = mergeRequestByIid(ctx.db, project.id, ctx.params.merge_request_iid)
  if (!mr) throw recordNotFound()
  if (!can(project, mr)) throw forbidden()
  return { project, mr }
}

/** `present merge_request, with: Entities::MergeRequest, current_user:, project:` (and the GET's `include_*` options). */
function presentMergeRequest(ctx: Ctx<unknown>, project: ProjectRecord, mr: MergeRequestRecord, extra: Pick<MergeRequestOptions, 'includeRebaseInProgress' | 'divergedCommitsCount'> = {}) {
  return MergeRequest(mr, ctx, {
    ...extra,
    from: { project },
    canMerge: canMergeMergeRequest(ctx, project, mr),
    subscribed: subscribedToMergeRequest(ctx.db, mr, ctx.currentUser),
    withHeadPipeline: canReadPipelines(ctx, project),
  })
}

/** Subscribe or unsubscribe (lib/api/subscriptions.rb): 201 with the merge request, 304 when unchanged. */
function subscription(ctx: MrCtx, subscribe: boolean): Reply {
  const { project, mr } = findWithAccess(ctx)
  if (subscribedToMergeRequest(ctx.db, mr, ctx.currentUser) === subscribe) throw notModified()
  setMergeRequestSubscription(ctx.db, mr, ctx.currentUser!, subscribe)
  return created(presentMergeRequest(ctx, project, mr))
}

/** The merge request for a time tracking write: `authorize! :admin_merge_request` (Developer+). */
function adminMergeRequest(ctx: MrCtx) {
  const found = findWithAccess(ctx)
  if (!canAdminMergeRequest(ctx, found.project)) throw forbidden()
  return found
}

/** `update_params_at_least_one_of` (13.x). */
const UPDATE_AT_LEAST_ONE_OF = [
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'description',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'remove_source_branch',
  'allow_collaboration',
  'allow_maintainer_to_push',
  'squash',
  'target_branch',
  'title',
  'state_event',
  'discussion_locked',
]

/** The merge request routes (see the module comment). */
export const mergeRequestRoutes: Route[] = [
  route('GET /merge_requests', {
    auth: 'optional',
    params: { ...listParams(), scope: p.string({ values: SCOPES, default: 'created_by_me' }) },
    rules: listRules,
    handler(ctx) {
      // `authenticate! unless params[:scope] == 'all'`.
      if (ctx.params.scope !== 'all' && !ctx.currentUser) throw unauthorized()
      return listReply(ctx as unknown as Ctx<Record<string, unknown>>, { kind: 'global' }, null)
    },
  }),

  route('GET /groups/:id/merge_requests', {
    auth: 'optional',
    params: { id: p.string({ required: true }), ...listParams() },
    rules: listRules,
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id as string)
      return listReply(ctx as unknown as Ctx<Record<string, unknown>>, { kind: 'group', group }, { group })
    },
  }),

  route('GET /projects/:id/merge_requests', {
    auth: 'optional',
    params: { ...projectId, ...listParams(), iids: p.integers() },
    rules: listRules,
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id as string)
      // `authorize! :read_merge_request, user_project`.
      if (!canReadProjectMergeRequests(ctx, project)) throw forbidden()
      return listReply(ctx as unknown as Ctx<Record<string, unknown>>, { kind: 'project', project }, { project })
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid', {
    auth: 'optional',
    params: { ...mrIid, render_html: p.boolean(), include_diverged_commits_count: p.boolean(), include_rebase_in_progress: p.boolean() },
    handler(ctx) {
      const { project, mr } = findWithAccess(ctx)
      return ok(presentMergeRequest(ctx, project, mr, {
        includeRebaseInProgress: ctx.params.include_rebase_in_progress === true,
        ...(ctx.params.include_diverged_commits_count ? { divergedCommitsCount: divergedCommitsCount(ctx.db, mr) } : {}),
      }))
    },
  }),

  route('PUT /projects/:id/merge_requests/:merge_request_iid', {
    params: {
      ...mrIid,
      title: p.string({ allowBlank: false }),
      target_branch: p.string({ allowBlank: false }),
      state_event: p.string({ values: ['close', 'reopen'] as const }),
      discussion_locked: p.boolean(),
      description: p.string(),
      assignee_id: p.integer(),
      assignee_ids: p.integers(),
      reviewer_ids: p.integers(),
      milestone_id: p.integer(),
      labels: p.strings(),
      add_labels: p.strings(),
      remove_labels: p.strings(),
      remove_source_branch: p.boolean(),
      allow_collaboration: p.boolean(),
      allow_maintainer_to_push: p.boolean(),
      squash: p.boolean(),
    },
    rules: { atLeastOneOf: UPDATE_AT_LEAST_ONE_OF },
    handler(ctx) {
      // `find_merge_request_with_access(iid, :update_merge_request)`.
      const { project, mr } = findWithAccess(ctx, (project, mr) => canUpdateMergeRequest(ctx, project, mr))
      // spec-gap: `allow_collaboration` applies to merge requests from forks only, which the
      // simulator has none of; it is accepted and changes nothing, as GitLab does for same-project ones.
      const updated = updateMergeRequest(ctx, ctx.currentUser!, project, mr, ctx.params)
      // `UpdateService#after_update`: the issues it closes, read again from its text.
      cacheClosesIssues(ctx, project, updated, ctx.currentUser!)
      return ok(presentMergeRequest(ctx, project, updated))
    },
  }),

  route('DELETE /projects/:id/merge_requests/:merge_request_iid', {
    params: mrIid,
    handler(ctx) {
      // `find_project_merge_request` (no read check), then `authorize!(:destroy_merge_request)`.
      const { mr } = findWithAccess(ctx, (project) => canDestroyMergeRequest(ctx, project))
      checkUnmodifiedSince(ctx, mr.updated_at)
      destroyMergeRequest(ctx.db, mr)
      return noContent()
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/participants', {
    auth: 'optional',
    params: { ...mrIid, ...paginationParams },
    handler(ctx) {
      const { project, mr } = findWithAccess(ctx)
      return paginated(ctx, participants(ctx, project, mr), (user) => UserBasic(user, ctx))
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/closes_issues', {
    auth: 'optional',
    params: { ...mrIid, ...paginationParams },
    handler(ctx) {
      const { mr } = findWithAccess(ctx)
      return paginated(ctx, closesIssues(ctx, mr), (issue) => IssueBasic(issue, ctx))
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/pipelines', {
    auth: 'optional',
    params: { ...mrIid, ...paginationParams },
    handler(ctx) {
      // `authorize! :read_pipeline, user_project`, then the merge request with access.
      const project = findProject(ctx, ctx.params.id)
      if (!canReadPipelines(ctx, project)) throw forbidden()
      const { mr } = findWithAccess(ctx)
      return paginated(ctx, mergeRequestPipelines(ctx.db, mr), (pipeline) => PipelineBasic(pipeline, ctx))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/subscribe', {
    params: mrIid,
    handler: (ctx) => subscription(ctx, true),
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe', {
    params: mrIid,
    handler: (ctx) => subscription(ctx, false),
  }),

  // ---- time tracking (lib/api/time_tracking_endpoints.rb) ---------------------------------------

  route('POST /projects/:id/merge_requests/:merge_request_iid/time_estimate', {
    params: { ...mrIid, duration: p.string({ required: true }) },
    handler(ctx) {
      const { mr } = adminMergeRequest(ctx)
      return ok(IssuableTimeStats(setTimeEstimate(ctx, mr, ctx.params.duration)))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', {
    params: mrIid,
    handler(ctx) {
      const { mr } = adminMergeRequest(ctx)
      return ok(IssuableTimeStats(setTimeEstimate(ctx, mr, null)))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/add_spent_time', {
    params: { ...mrIid, duration: p.string({ required: true }) },
    handler(ctx) {
      const { mr } = adminMergeRequest(ctx)
      return created(IssuableTimeStats(addSpentTime(ctx, mr, ctx.params.duration)))
    },
  }),

  route('POST /projects/:id/merge_requests/:merge_request_iid/reset_spent_time', {
    params: mrIid,
    handler(ctx) {
      const { mr } = adminMergeRequest(ctx)
      return ok(IssuableTimeStats(addSpentTime(ctx, mr, null)))
    },
  }),

  route('GET /projects/:id/merge_requests/:merge_request_iid/time_stats', {
    auth: 'optional',
    params: mrIid,
    handler(ctx) {
      return ok(IssuableTimeStats(findWithAccess(ctx).mr))
    },
  }),
]
