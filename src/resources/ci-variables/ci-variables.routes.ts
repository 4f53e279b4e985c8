/**
 * Instance CI variables (`/admin/ci/variables`): list (paginated), get, create, update, delete by
 * key, administrators only (`authenticated_as_admin!`: anonymous 401, others 403).
 * gitlab: lib/api/admin/ci/variables.rb (13.12), spec/requests/api/admin/ci/variables_spec.rb.
 * @module
 */
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { InstanceVariable } from './ci-variables.entities.js'
import {
  createInstanceVariable,
  deleteInstanceVariable,
  findInstanceVariable,
  listInstanceVariables,
  updateInstanceVariable,
} from './ci-variables.service.js'

const VARIABLE_TYPES = ['env_var', 'file'] as const

/** The instance variable routes. */
export const ciVariableRoutes: Route[] = [
  route('GET /admin/ci/variables', {
    auth: 'admin',
    params: { ...paginationParams },
    handler: (ctx) => paginated(ctx, listInstanceVariables(ctx.db), InstanceVariable),
  }),

  route('GET /admin/ci/variables/:key', {
    auth: 'admin',
    params: { key: p.string({ required: true }) },
    handler: (ctx) => ok(InstanceVariable(findInstanceVariable(ctx.db, ctx.params.key))),
  }),

  route('POST /admin/ci/variables', {
    auth: 'admin',
    params: {
      key: p.string({ required: true }),
      value: p.string({ required: true }),
      protected: p.boolean(),
      masked: p.boolean(),
      variable_type: p.string({ values: VARIABLE_TYPES }),
    },
    handler(ctx) {
      const { key, value } = ctx.params
      const variable = createInstanceVariable(ctx.db, {
        key,
        value,
        variable_type: ctx.params.variable_type ?? 'env_var',
        protected: ctx.params.protected ?? false,
        masked: ctx.params.masked ?? false,
      })
      return created(InstanceVariable(variable))
    },
  }),

  route('PUT /admin/ci/variables/:key', {
    auth: 'admin',
    params: {
      key: p.string({ required: true }),
      value: p.string(),
      protected: p.boolean(),
      masked: p.boolean(),
      variable_type: p.string({ values: VARIABLE_TYPES }),
    },
    handler(ctx) {
      const variable = findInstanceVariable(ctx.db, ctx.params.key)
      const patch: Parameters<typeof updateInstanceVariable>[2] = {}
      if (ctx.params.value !== undefined) patch.value = ctx.params.value
      if (ctx.params.protected !== undefined) patch.protected = ctx.params.protected
      if (ctx.params.masked !== undefined) patch.masked = ctx.params.masked
      if (ctx.params.variable_type !== undefined) patch.variable_type = ctx.params.variable_type
      return ok(InstanceVariable(updateInstanceVariable(ctx.db, variable, patch)))
    },
  }),

  route('DELETE /admin/ci/variables/:key', {
    auth: 'admin',
    params: { key: p.string({ required: true }) },
    handler(ctx) {
      deleteInstanceVariable(ctx.db, findInstanceVariable(ctx.db, ctx.params.key))
      return noContent()
    },
  }),
]
