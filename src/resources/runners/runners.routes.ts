/**
 * The runners API: the instance lists, a runner's detail, update, delete and jobs, registration and
 * the runner-token calls, and a project's and a group's runner lists (twins from one definition,
 * looped over the source type) with enable/disable in a project.
 * Every user route needs a signed-in user (`before { authenticate! }`); the runner-token routes
 * (`POST /runners`, `DELETE /runners`, `POST /runners/verify`) authenticate by their `token`
 * parameter only, whatever user token comes along.
 * Source: api-spec.md "### Runners", "Runner tokens", "Runner `status` values"; gitlab-behaviour.md
 * §2, §13, §14 items 3, 4, 12, 13, 16; gitlab: lib/api/ci/runners.rb, lib/api/ci/runner.rb (13.x).
 * @module
 */
import { AccessLevel, hasGroupAccess, hasProjectAccess } from '../../rules/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound } from '../../core/errors.js'
import { RunnerMessage } from './runners.messages.js'
import { findProject } from '../../rules/finders.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p, type RawParams } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { SOURCE_TYPES, SOURCES, type Source } from '../../rules/source.js'
import type { ProjectRecord } from '../../db/schema.js'
import { jobRelations, Runner, RunnerDetails, RunnerJob, RunnerRegistrationDetails } from './runners.entities.js'
import {
  assignRunner,
  destroyRunner,
  filterRunners,
  findRunner,
  groupRunners,
  heartbeat,
  managesRunner,
  ownedRunners,
  ownsRunner,
  projectRunners,
  registerRunner,
  registrationTarget,
  runnerByToken,
  runnerProjectIds,
  RUNNER_ACCESS_LEVELS,
  RUNNER_SCOPES,
  RUNNER_STATUSES,
  RUNNER_TYPES,
  runnerJobs,
  updateRunner,
  type RunnerFilters,
  type RunnerInfo,
} from './runners.service.js'
import type { RunnerRecord } from './runners.tables.js'

const runnerId = { id: p.integer({ required: true }) }

/** `type`, `status`, `tag_list`: the filters every list has. */
const commonFilters = {
  type: p.string({ values: RUNNER_TYPES }),
  status: p.string({ values: RUNNER_STATUSES }),
  tag_list: p.strings(),
}

/** The attributes `PUT /runners/:id` and `POST /runners` accept (`access_level` and `maximum_timeout` validated). */
const runnerAttributes = {
  description: p.string(),
  active: p.boolean(),
  tag_list: p.strings(),
  run_untagged: p.boolean(),
  locked: p.boolean(),
  access_level: p.string({ values: RUNNER_ACCESS_LEVELS }),
  maximum_timeout: p.integer(),
}

/** The instant the status filters are judged at (the injected clock, ms). */
function nowMs(ctx: Ctx<unknown>): number {
  return Date.parse(ctx.now)
}

/** The filters of a list request, as declared. */
function filtersOf(params: RunnerFilters): RunnerFilters {
  return { scope: params.scope, type: params.type, status: params.status, tag_list: params.tag_list, search: params.search }
}

/**
 * `authenticate_show_runner!` / `authenticate_update_runner!` / `authenticate_list_runners_jobs!`:
 * administrators pass, and so does anyone for an instance runner when `instanceReadable` (reading);
 * otherwise reading needs a readable runner ({@link ownsRunner}: Maintainer+ of its project or group,
 * as the spec says) and every other use a managed one ({@link managesRunner}: a group runner only
 * for an Owner of its group, issue 23 item 1).
 * @throws ApiError 403 `{"message":"403 Forbidden - No access granted"}`.
 */
function authorizeRunner(ctx: Ctx<unknown>, runner: RunnerRecord, instanceReadable: boolean): void {
  if (instanceReadable && runner.runner_type === 'instance_type') return
  const allowed = instanceReadable ? ownsRunner : managesRunner
  if (!allowed(ctx.db, ctx.currentUser, runner, ctx.today)) throw forbidden(RunnerMessage.noAccess)
}

/**
 * `authorize_admin_project` (a `before` block: runs before param validation): the project, then
 * Maintainer+ (`admin_project`).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 403 `{"message":"403 Forbidden"}`.
 */
function adminProject(ctx: Ctx<unknown>, id: unknown): ProjectRecord {
  const project = findProject(ctx, typeof id === 'string' || typeof id === 'number' ? id : '')
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
  return project
}

/**
 * The `info` hash of a registration or heartbeat: the five runner details GitLab reads from it
 * (`attributes_for_keys(%w(name version revision platform architecture), params['info'])`), and the
 * caller's address.
 */
function infoOf(ctx: Ctx<unknown>, info: Record<string, unknown> | undefined): RunnerInfo {
  const text = (key: string) => {
    const value = info?.[key]
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
  }
  return {
    name: text('name'),
    version: text('version'),
    revision: text('revision'),
    platform: text('platform'),
    architecture: text('architecture'),
    ip_address: callerIp(ctx),
  }
}

/**
 * The caller's address as GitLab records it for a runner (`request.ip`).
 */
function callerIp(ctx: Ctx<unknown>): string {
  // spec-gap: the MSW door has no peer address, so both doors take `X-Forwarded-For`'s first entry
  // when sent, else 127.0.0.1 (what a runner on the same machine would show).
  const forwarded = ctx.request.header('x-forwarded-for')?.split(',')[0]?.trim()
  return forwarded !== undefined && forwarded !== '' ? forwarded : '127.0.0.1'
}

/** `authenticate_runner!`: the runner whose authentication token this is. @throws ApiError 403 `{"message":"403 Forbidden"}`. */
function currentRunner(ctx: Ctx<{ token: string }>): RunnerRecord {
  const runner = runnerByToken(ctx.db, ctx.params.token)
  if (!runner) throw forbidden()
  return runner
}

/** What differs between the project and the group runner lists, by source type. */
const TWIN = {
  project: {
    // gitlab: lib/api/ci/runners.rb `resource :projects do before { authorize_admin_project }`.
    before: (ctx: Ctx<RawParams>) => void adminProject(ctx, ctx.params.id),
    /** `/projects/:id/runners` keeps the deprecated `scope` with `AVAILABLE_SCOPES`. */
    filters: { scope: p.string({ values: RUNNER_SCOPES }), ...commonFilters },
  },
  group: {
    before: undefined,
    /** `/groups/:id/runners` has no `scope`. */
    filters: { ...commonFilters },
  },
}

/** The runners of a source, for its list. */
function sourceRunners(ctx: Ctx<unknown>, source: Source): RunnerRecord[] {
  if (source.type === 'project') return projectRunners(ctx.db, source.project)
  // spec-gap: api-spec.md is silent on the role for the group list; 13.x asks `admin_group`, which
  // is Owner (gitlab-behaviour.md §14 item 12). Administrators pass.
  if (!hasGroupAccess(ctx.db, ctx.currentUser, source.group, AccessLevel.OWNER, ctx.today)) throw forbidden()
  return groupRunners(ctx.db, source.group.id)
}

const twinRoutes: Route[] = SOURCE_TYPES.map((sourceType) => {
  const source = SOURCES[sourceType]
  const twin = TWIN[sourceType]
  return route(`GET ${source.prefix}/runners`, {
    params: { id: p.string({ required: true }), ...twin.filters, ...paginationParams },
    ...(twin.before ? { before: twin.before } : {}),
    handler(ctx) {
      const parent = source.find(ctx, ctx.params.id)
      const runners = filterRunners(sourceRunners(ctx, parent), filtersOf(ctx.params as RunnerFilters), nowMs(ctx))
      return paginated(ctx, runners, (runner) => Runner(runner, ctx))
    },
  })
})

/** Every runner route. */
export const runnerRoutes: Route[] = [
  route('GET /runners', {
    params: {
      // spec-gap: `scope` on `/runners` takes the statuses only (13.x `AVAILABLE_STATUSES`), as the spec says.
      scope: p.string({ values: RUNNER_STATUSES }),
      ...commonFilters,
      // spec-gap: api-spec.md gives `/runners` a `search` (full token or partial description); 13.x had
      // none. The spec names it, so it is here, with `Ci::Runner.search`'s matching.
      search: p.string(),
      ...paginationParams,
    },
    handler(ctx) {
      const runners = filterRunners(ownedRunners(ctx.db, ctx.currentUser!, ctx.today), filtersOf(ctx.params as RunnerFilters), nowMs(ctx))
      return paginated(ctx, runners, (runner) => Runner(runner, ctx))
    },
  }),

  route('GET /runners/all', {
    params: { scope: p.string({ values: RUNNER_SCOPES }), ...commonFilters, ...paginationParams },
    handler(ctx) {
      // gitlab: lib/api/ci/runners.rb calls `authenticated_as_admin!` in the endpoint, after validation.
      if (!ctx.currentUser?.admin) throw forbidden()
      const runners = filterRunners(ctx.db.tables.runners.all(), filtersOf(ctx.params as RunnerFilters), nowMs(ctx))
      return paginated(ctx, runners, (runner) => Runner(runner, ctx))
    },
  }),

  route('GET /runners/:id', {
    params: runnerId,
    handler(ctx) {
      const runner = findRunner(ctx.db, ctx.params.id)
      authorizeRunner(ctx, runner, true)
      return ok(RunnerDetails(runner, ctx))
    },
  }),

  route('PUT /runners/:id', {
    params: { ...runnerId, ...runnerAttributes },
    rules: { atLeastOneOf: Object.keys(runnerAttributes) },
    handler(ctx) {
      const runner = findRunner(ctx.db, ctx.params.id)
      authorizeRunner(ctx, runner, false)
      const { id: _id, ...attrs } = ctx.params
      return ok(RunnerDetails(updateRunner(ctx.db, runner, attrs, ctx.now), ctx))
    },
  }),

  route('DELETE /runners/:id', {
    params: runnerId,
    handler(ctx) {
      const runner = findRunner(ctx.db, ctx.params.id)
      if (!ctx.currentUser?.admin) {
        // gitlab: lib/api/ci/runners.rb `authenticate_delete_runner!`: the project count comes first.
        if (runnerProjectIds(ctx.db, runner).length > 1) throw forbidden(RunnerMessage.inSeveralProjects)
        authorizeRunner(ctx, runner, false)
      }
      checkUnmodifiedSince(ctx, runner.updated_at) // destroy_conditionally!
      destroyRunner(ctx.db, runner)
      return noContent()
    },
  }),

  route('GET /runners/:id/jobs', {
    params: {
      ...runnerId,
      // spec-gap: api-spec.md lists the `status` values running, success, failed, canceled; 13.x took
      // every CI status. The spec names the values, so those four.
      status: p.string({ values: ['running', 'success', 'failed', 'canceled'] }),
      order_by: p.string({ values: ['id'] }),
      sort: p.string({ values: ['asc', 'desc'], default: 'desc' }),
      ...paginationParams,
    },
    handler(ctx) {
      const runner = findRunner(ctx.db, ctx.params.id)
      authorizeRunner(ctx, runner, false)
      const page = paginate(ctx, runnerJobs(ctx.db, runner, ctx.params))
      const rel = jobRelations(ctx, runner, page.rows)
      return ok(page.rows.map((job) => RunnerJob(job, ctx, rel)), page.headers)
    },
  }),

  route('POST /runners', {
    auth: 'none',
    params: { token: p.string({ required: true }), ...runnerAttributes, info: p.hash() },
    handler(ctx) {
      const target = registrationTarget(ctx.db, ctx.params.token)
      if (!target) throw forbidden()
      const { token: _token, info, ...attrs } = ctx.params
      const runner = registerRunner(
        ctx.db,
        target,
        attrs,
        infoOf(ctx, info),
        ctx.faker.string.alphanumeric(20),
        ctx.now,
      )
      return created(RunnerRegistrationDetails(runner))
    },
  }),

  route('DELETE /runners', {
    auth: 'none',
    params: { token: p.string({ required: true }) },
    handler(ctx) {
      const runner = currentRunner(ctx)
      checkUnmodifiedSince(ctx, runner.updated_at) // destroy_conditionally!
      destroyRunner(ctx.db, runner)
      return noContent()
    },
  }),

  route('POST /runners/verify', {
    auth: 'none',
    params: { token: p.string({ required: true }), info: p.hash() },
    handler(ctx) {
      const runner = currentRunner(ctx)
      heartbeat(ctx.db, runner, infoOf(ctx, ctx.params.info), ctx.now)
      // gitlab: lib/api/ci/runner.rb (13.x) `status 200; body "200"`, JSON-encoded: the string "200".
      return ok('200')
    },
  }),

  ...twinRoutes,

  route('POST /projects/:id/runners', {
    params: { id: p.string({ required: true }), runner_id: p.integer({ required: true }) },
    before: (ctx) => void adminProject(ctx, ctx.params.id),
    handler(ctx) {
      const project = adminProject(ctx, ctx.params.id)
      const runner = findRunner(ctx.db, ctx.params.runner_id)
      // gitlab: lib/api/ci/runners.rb `authenticate_enable_runner!`, in this order.
      if (runner.runner_type === 'group_type') throw forbidden(RunnerMessage.isGroupRunner)
      if (!ctx.currentUser?.admin) {
        if (runner.locked) throw forbidden(RunnerMessage.isLocked)
        authorizeRunner(ctx, runner, false)
      }
      return created(Runner(assignRunner(ctx.db, runner, project, ctx.now), ctx))
    },
  }),

  route('DELETE /projects/:id/runners/:runner_id', {
    params: { id: p.string({ required: true }), runner_id: p.integer({ required: true }) },
    before: (ctx) => void adminProject(ctx, ctx.params.id),
    handler(ctx) {
      const project = adminProject(ctx, ctx.params.id)
      const link = ctx.db.tables.runner_projects.where('project_id', project.id).find((l) => l.runner_id === ctx.params.runner_id)
      if (!link) throw notFound('Runner')
      const runner = findRunner(ctx.db, link.runner_id)
      // spec-gap: the spec says only "an error is returned"; GitLab 13.x answers 403 (§14 item 16).
      if (runnerProjectIds(ctx.db, runner).length === 1) throw forbidden(RunnerMessage.onlyProject)
      checkUnmodifiedSince(ctx, link.created_at) // destroy_conditionally!(runner_project)
      ctx.db.tables.runner_projects.delete(link.id)
      return noContent()
    },
  }),
]
