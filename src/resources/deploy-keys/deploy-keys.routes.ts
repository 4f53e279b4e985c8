/**
 * Deploy key routes: the instance list (administrators) and a project's deploy keys (Maintainer+,
 * `authorize_admin_project`): list, get, add, update, enable and remove.
 * gitlab: lib/api/deploy_keys.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { SSHKey } from '../user-keys/user-keys.public.js'
import { DeployKeysProject } from './deploy-keys.entities.js'
import {
  addDeployKey,
  allDeployKeys,
  authorizeAdminProject,
  destroyLink,
  enableDeployKey,
  findProjectDeployKey,
  projectDeployKeys,
  removeDeployKey,
  updateDeployKey,
} from './deploy-keys.service.js'

const id = p.string({ required: true })
const keyId = p.integer({ required: true })

/** `user_project`, then `authorize_admin_project` (the resource's `before` block). */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  authorizeAdminProject(ctx, project)
  return project
}

/** The deploy key routes. */
export const deployKeyRoutes: Route[] = [
  route('GET /deploy_keys', {
    auth: 'admin',
    params: { ...paginationParams },
    handler(ctx) {
      return paginated(ctx, allDeployKeys(ctx.db), SSHKey)
    },
  }),

  route('GET /projects/:id/deploy_keys', {
    params: { id, ...paginationParams },
    handler(ctx) {
      const project = adminProject(ctx)
      return paginated(ctx, projectDeployKeys(ctx.db, project), ({ link, key }) => DeployKeysProject(link, key))
    },
  }),

  route('GET /projects/:id/deploy_keys/:key_id', {
    params: { id, key_id: keyId },
    handler(ctx) {
      const { link, key } = findProjectDeployKey(ctx.db, adminProject(ctx), ctx.params.key_id)
      return ok(DeployKeysProject(link, key))
    },
  }),

  route('POST /projects/:id/deploy_keys', {
    params: { id, key: p.string({ required: true }), title: p.string({ required: true }), can_push: p.boolean() },
    handler(ctx) {
      const project = adminProject(ctx)
      const { link, key } = addDeployKey(ctx, project, { key: ctx.params.key, title: ctx.params.title, can_push: ctx.params.can_push })
      return created(DeployKeysProject(link, key))
    },
  }),

  route('PUT /projects/:id/deploy_keys/:key_id', {
    params: { id, key_id: keyId, title: p.string(), can_push: p.boolean() },
    rules: { atLeastOneOf: ['title', 'can_push'] },
    handler(ctx) {
      const project = adminProject(ctx)
      const { link, key } = updateDeployKey(ctx, project, ctx.params.key_id, { title: ctx.params.title, can_push: ctx.params.can_push })
      return ok(DeployKeysProject(link, key))
    },
  }),

  route('POST /projects/:id/deploy_keys/:key_id/enable', {
    params: { id, key_id: keyId },
    handler(ctx) {
      const project = adminProject(ctx)
      return created(SSHKey(enableDeployKey(ctx, project, ctx.params.key_id)))
    },
  }),

  route('DELETE /projects/:id/deploy_keys/:key_id', {
    params: { id, key_id: keyId },
    handler(ctx) {
      const project = adminProject(ctx)
      const link = removeDeployKey(ctx, project, ctx.params.key_id)
      checkUnmodifiedSince(ctx, link.updated_at) // destroy_conditionally!
      destroyLink(ctx.db, link)
      return noContent()
    },
  }),
]
