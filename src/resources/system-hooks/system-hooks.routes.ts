/**
 * System hooks (administrators only): list, add, test and delete. A test answers GitLab's sample
 * `project_create` payload and publishes `system_hook_test`, whose delivery the collaboration area
 * makes. gitlab: lib/api/system_hooks.rb, lib/api/entities/hook.rb, app/models/hooks/system_hook.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { notFound, recordNotFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { Hook } from '../../entities/hook.js'
import { publish } from '../../rules/events.js'
import { urlBlockerProblem } from '../../rules/url-blocker.js'
import './system-hooks.events.js'

/** `public_url` for a system hook (local addresses allowed): the URL's problem, or undefined when it is valid. */
function urlProblem(url: string): string | undefined {
  if (url.trim() === '') return "can't be blank"
  return urlBlockerProblem(url, ['http', 'https'])
}

/** The route's sample payload (`GET /hooks/:id`). */
const TEST_DATA = { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' } as const

/** The system hook routes. */
export const systemHookRoutes: Route[] = [
  route('GET /hooks', {
    auth: 'admin',
    params: { ...paginationParams },
    handler(ctx) {
      return paginated(ctx, ctx.db.tables.system_hooks.all().sort((a, b) => a.id - b.id), Hook)
    },
  }),

  route('POST /hooks', {
    auth: 'admin',
    params: {
      url: p.string({ required: true }),
      token: p.string(),
      push_events: p.boolean(),
      tag_push_events: p.boolean(),
      merge_requests_events: p.boolean(),
      repository_update_events: p.boolean(),
      enable_ssl_verification: p.boolean(),
    },
    handler(ctx) {
      const q = ctx.params
      const problem = urlProblem(q.url)
      if (problem) throw validationFailed({ url: [problem] })
      const hook = ctx.db.tables.system_hooks.insert({
        url: q.url,
        token: q.token ?? null,
        // SystemHook's defaults: no push or merge request events, repository updates on.
        push_events: q.push_events ?? false,
        tag_push_events: q.tag_push_events ?? false,
        merge_requests_events: q.merge_requests_events ?? false,
        repository_update_events: q.repository_update_events ?? true,
        enable_ssl_verification: q.enable_ssl_verification ?? true,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      return created(Hook(hook))
    },
  }),

  route('GET /hooks/:id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const hook = ctx.db.tables.system_hooks.get(ctx.params.id)
      if (!hook) throw recordNotFound()
      const data = { ...TEST_DATA }
      publish(ctx.db, 'system_hook_test', { hook, data, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
      return ok(data)
    },
  }),

  // 13.12's test: `post ":id"` executes the hook with the sample payload and answers it (201).
  route('POST /hooks/:id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const hook = ctx.db.tables.system_hooks.get(ctx.params.id)
      if (!hook) throw recordNotFound()
      const data = { ...TEST_DATA }
      publish(ctx.db, 'system_hook_test', { hook, data, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
      return created(data)
    },
  }),

  route('DELETE /hooks/:id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      const hook = ctx.db.tables.system_hooks.get(ctx.params.id)
      if (!hook) throw notFound('System hook')
      checkUnmodifiedSince(ctx, hook.updated_at)
      ctx.db.tables.system_hooks.delete(hook.id)
      return noContent()
    },
  }),
]
