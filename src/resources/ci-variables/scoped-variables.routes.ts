/**
 * Project and group CI variables: list (paginated), get, create, update, delete by key, with the
 * `filter[environment_scope]` rule (several variables of one key in different scopes: without the
 * filter a get, update or delete answers 409). Project variables need `admin_build` on the
 * project (Maintainer+), group variables `admin_build` on the group (Maintainer+); a project or
 * group the caller cannot see is 404, one seen without the right 403, anonymous 401.
 * gitlab: lib/api/variables.rb, lib/api/group_variables.rb, lib/api/helpers/variables_helpers.rb
 * (13.12), doc/api/project_level_variables.md, doc/api/group_level_variables.md.
 * @module
 */
import { forbidden, notFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { AccessLevel, groupAccessLevel, projectAccessLevel } from '../../rules/access.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { ScopedVariable } from './ci-variables.entities.js'
import {
  createGroupVariable,
  createProjectVariable,
  deleteGroupVariable,
  deleteProjectVariable,
  findScopedVariable,
  listGroupVariables,
  listProjectVariables,
  updateGroupVariable,
  updateProjectVariable,
  type ScopedVariableFields,
  type VariableFields,
  type VariablePatch,
} from './ci-variables.service.js'

const VARIABLE_TYPES = ['env_var', 'file'] as const

const idParam = { id: p.string({ required: true }) }
const keyParam = { key: p.string({ required: true }) }
/** `optional :filter, type: Hash` (`filter[environment_scope]=production`). */
const filterParam = { filter: p.hash() }

/** The project of `:id` when the caller may administer its CI (`admin_build`: Maintainer+). @throws ApiError 404, 403. */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  const user = ctx.currentUser!
  if (!user.admin && projectAccessLevel(ctx.db, user, project, ctx.today) < AccessLevel.MAINTAINER) throw forbidden()
  return project
}

/** The group of `:id` when the caller may administer its CI (`admin_build`: Maintainer+). @throws ApiError 404, 403. */
function adminGroup(ctx: Ctx<{ id: string }>): GroupRecord {
  const group = findGroup(ctx, ctx.params.id)
  const user = ctx.currentUser!
  if (!user.admin && groupAccessLevel(ctx.db, user, group, ctx.today) < AccessLevel.MAINTAINER) throw forbidden()
  return group
}

/** `params[:filter][:environment_scope]` as a string, or undefined. */
function scopeFilter(filter: Record<string, unknown> | undefined): string | undefined {
  const scope = filter?.environment_scope
  return typeof scope === 'string' ? scope : undefined
}

/** The declared fields of a write, the absent ones left out (`declared_params(include_missing: false)`). */
function patchOf(params: { key?: string | undefined; value?: string | undefined; protected?: boolean | undefined; masked?: boolean | undefined; variable_type?: string | undefined; environment_scope?: string | undefined }): VariablePatch<ScopedVariableFields> {
  const patch: VariablePatch<ScopedVariableFields> = {}
  if (params.key !== undefined) patch.key = params.key
  if (params.value !== undefined) patch.value = params.value
  if (params.protected !== undefined) patch.protected = params.protected
  if (params.masked !== undefined) patch.masked = params.masked
  if (params.variable_type !== undefined) patch.variable_type = params.variable_type as VariableFields['variable_type']
  if (params.environment_scope !== undefined) patch.environment_scope = params.environment_scope
  return patch
}

/** The fields of a new variable: the given ones over the column defaults. */
function newFields(params: { key: string; value: string; protected?: boolean | undefined; masked?: boolean | undefined; variable_type?: string | undefined; environment_scope?: string | undefined }): ScopedVariableFields {
  return {
    key: params.key,
    value: params.value,
    variable_type: (params.variable_type ?? 'env_var') as VariableFields['variable_type'],
    protected: params.protected ?? false,
    masked: params.masked ?? false,
    environment_scope: params.environment_scope ?? '*',
  }
}

const writeParams = {
  protected: p.boolean(),
  masked: p.boolean(),
  variable_type: p.string({ values: VARIABLE_TYPES }),
}

/** The project and group variable routes. */
export const scopedVariableRoutes: Route[] = [
  route('GET /projects/:id/variables', {
    params: { ...idParam, ...paginationParams },
    handler(ctx) {
      const project = adminProject(ctx)
      return paginated(ctx, listProjectVariables(ctx.db, project), ScopedVariable)
    },
  }),

  route('GET /projects/:id/variables/:key', {
    params: { ...idParam, ...keyParam, ...filterParam },
    handler(ctx) {
      const project = adminProject(ctx)
      const variable = findScopedVariable(listProjectVariables(ctx.db, project), ctx.params.key, scopeFilter(ctx.params.filter))
      if (!variable) throw notFound('Variable')
      return ok(ScopedVariable(variable))
    },
  }),

  route('POST /projects/:id/variables', {
    params: { ...idParam, ...keyParam, value: p.string({ required: true }), ...writeParams, environment_scope: p.string() },
    handler(ctx) {
      const project = adminProject(ctx)
      return created(ScopedVariable(createProjectVariable(ctx.db, project, newFields(ctx.params))))
    },
  }),

  route('PUT /projects/:id/variables/:key', {
    params: { ...idParam, ...keyParam, value: p.string(), ...writeParams, environment_scope: p.string(), ...filterParam },
    handler(ctx) {
      const project = adminProject(ctx)
      const variable = findScopedVariable(listProjectVariables(ctx.db, project), ctx.params.key, scopeFilter(ctx.params.filter))
      if (!variable) throw notFound('Variable')
      // `declared_params(include_missing: false).except(:key, :filter)`: the path's key stays.
      const patch = patchOf({ ...ctx.params, key: undefined })
      return ok(ScopedVariable(updateProjectVariable(ctx.db, variable, patch)))
    },
  }),

  route('DELETE /projects/:id/variables/:key', {
    params: { ...idParam, ...keyParam, ...filterParam },
    handler(ctx) {
      const project = adminProject(ctx)
      const variable = findScopedVariable(listProjectVariables(ctx.db, project), ctx.params.key, scopeFilter(ctx.params.filter))
      if (!variable) throw notFound('Variable')
      deleteProjectVariable(ctx.db, variable)
      return noContent()
    },
  }),

  route('GET /groups/:id/variables', {
    params: { ...idParam, ...paginationParams },
    handler(ctx) {
      const group = adminGroup(ctx)
      return paginated(ctx, listGroupVariables(ctx.db, group), ScopedVariable)
    },
  }),

  route('GET /groups/:id/variables/:key', {
    params: { ...idParam, ...keyParam },
    handler(ctx) {
      const group = adminGroup(ctx)
      const variable = findScopedVariable(listGroupVariables(ctx.db, group), ctx.params.key, undefined)
      if (!variable) throw notFound('GroupVariable')
      return ok(ScopedVariable(variable))
    },
  }),

  route('POST /groups/:id/variables', {
    params: { ...idParam, ...keyParam, value: p.string({ required: true }), ...writeParams },
    handler(ctx) {
      const group = adminGroup(ctx)
      const { environment_scope: _scope, ...fields } = newFields(ctx.params)
      return created(ScopedVariable(createGroupVariable(ctx.db, group, fields)))
    },
  }),

  route('PUT /groups/:id/variables/:key', {
    params: { ...idParam, ...keyParam, value: p.string(), ...writeParams },
    handler(ctx) {
      const group = adminGroup(ctx)
      const variable = findScopedVariable(listGroupVariables(ctx.db, group), ctx.params.key, undefined)
      if (!variable) throw notFound('GroupVariable')
      const { environment_scope: _scope, ...patch } = patchOf({ ...ctx.params, key: undefined })
      return ok(ScopedVariable(updateGroupVariable(ctx.db, variable, patch)))
    },
  }),

  route('DELETE /groups/:id/variables/:key', {
    params: { ...idParam, ...keyParam },
    handler(ctx) {
      const group = adminGroup(ctx)
      const variable = findScopedVariable(listGroupVariables(ctx.db, group), ctx.params.key, undefined)
      if (!variable) throw notFound('GroupVariable')
      deleteGroupVariable(ctx.db, variable)
      return noContent()
    },
  }),
]
