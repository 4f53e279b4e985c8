/**
 * A project's remote (push) mirrors: list, get, create, update (delete came in 14.10). The `before` block: `unauthorized! unless can?(current_user, :admin_remote_mirror,
 * user_project)`, so an unreadable project is 404 and every caller below Maintainer, anonymous or
 * signed in, gets 401 `{"message":"401 Unauthorized"}` (not 403).
 * gitlab: lib/api/remote_mirrors.rb, app/policies/project_policy.rb (13.12).
 * @module
 */
import { unauthorized } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p, type RawParams } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { rubyToI } from '../../core/ruby.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { RemoteMirror } from './remote-mirrors.entities.js'
import { createRemoteMirror, findRemoteMirror, listRemoteMirrors, updateRemoteMirror } from './remote-mirrors.service.js'

/**
 * `user_project` (404 when unreadable), then `admin_remote_mirror` (Maintainer+; administrators pass).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 401 `{"message":"401 Unauthorized"}`.
 */
function mirroredProject(ctx: Ctx<unknown>, id: string): ProjectRecord {
  const project = findProject(ctx, id)
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw unauthorized()
  return project
}

function before(ctx: Ctx<RawParams>): void {
  mirroredProject(ctx, String(ctx.params.id))
}

const projectId = { id: p.string({ required: true }) }
const settings = { enabled: p.boolean(), only_protected_branches: p.boolean(), keep_divergent_refs: p.boolean() }

/** The remote mirror routes. */
export const remoteMirrorRoutes: Route[] = [
  route('GET /projects/:id/remote_mirrors', {
    auth: 'optional',
    before,
    params: { ...projectId, ...paginationParams },
    handler(ctx) {
      const project = mirroredProject(ctx, ctx.params.id)
      return paginated(ctx, listRemoteMirrors(ctx.db, project), (m) => RemoteMirror(m, ctx))
    },
  }),

  // spec-gap: docs/coverage.md's 13.12 route list (read from a later remote_mirrors.rb) has this route;
  // 13.12's doc/api/remote_mirrors.md may not. Served as the later code does.
  route('GET /projects/:id/remote_mirrors/:mirror_id', {
    auth: 'optional',
    before,
    params: { ...projectId, mirror_id: p.string({ required: true }) },
    handler(ctx) {
      const project = mirroredProject(ctx, ctx.params.id)
      return ok(RemoteMirror(findRemoteMirror(ctx.db, project, rubyToI(ctx.params.mirror_id)), ctx))
    },
  }),

  route('POST /projects/:id/remote_mirrors', {
    auth: 'optional',
    before,
    params: { ...projectId, url: p.string({ required: true }), ...settings },
    handler(ctx) {
      const project = mirroredProject(ctx, ctx.params.id)
      const { url, enabled, only_protected_branches, keep_divergent_refs } = ctx.params
      return created(RemoteMirror(createRemoteMirror(ctx.db, project, url, { enabled, only_protected_branches, keep_divergent_refs }, ctx.now), ctx))
    },
  }),

  route('PUT /projects/:id/remote_mirrors/:mirror_id', {
    auth: 'optional',
    before,
    // `requires :mirror_id, type: String`, then `find`: ActiveRecord reads `12abc` as 12.
    params: { ...projectId, mirror_id: p.string({ required: true }), ...settings },
    handler(ctx) {
      const project = mirroredProject(ctx, ctx.params.id)
      const mirror = findRemoteMirror(ctx.db, project, rubyToI(ctx.params.mirror_id))
      const { enabled, only_protected_branches, keep_divergent_refs } = ctx.params
      return ok(RemoteMirror(updateRemoteMirror(ctx.db, mirror, { enabled, only_protected_branches, keep_divergent_refs }, ctx.now), ctx))
    },
  }),
]
