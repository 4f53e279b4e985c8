/**
 * Protected branches (EE 13.12): list, get, protect (role levels, `allowed_to_*` users and roles,
 * `allow_force_push`, `code_owner_approval_required`), unprotect; and the legacy
 * `PUT …/branches/:branch/protect|unprotect` of the branches API. Every route needs `admin_project`
 * (Maintainer+ or an administrator; `authorize_admin_project`, 403 `{"message":"403 Forbidden"}`).
 * 13.x has no `PATCH /projects/:id/protected_branches/:name` (added in 15.6): it answers the
 * catch-all 404 there, so none is registered.
 * gitlab: lib/api/protected_branches.rb, lib/api/entities/protected_branch.rb,
 * protected_ref_access.rb, app/services/protected_branches/api_service.rb, access_level_params.rb,
 * legacy_api_create_service.rb, legacy_api_update_service.rb; EE: ee/lib/ee/api/entities/protected_branch.rb,
 * protected_ref_access.rb, ee/lib/ee/api/helpers/protected_branches_helpers.rb,
 * ee/app/policies/ee/protected_branch_policy.rb (`destroy_protected_branch` needs an unprotect level).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { ApiError, conflict, forbidden, grapeError, notFound, recordNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { Branch } from './repository.entities.js'
import { branchFacts, headAncestorsOf, projectId } from './repository.helpers.js'
import { repositoryOf } from './repository.build.js'
import { humanAccessLevel } from '../../rules/protected-refs.js'
import { ALLOWED_ACCESS_LEVELS, protectedBranchesOf } from './repository.protection.js'
import { isValidRefName } from './repository.ref-names.js'
import type { ProtectedBranchRecord, ProtectedRefAccessSpec } from './repository.tables.js'

/**
 * `user_project` then `authorize_admin_project`.
 * @throws ApiError 404 `Project Not Found`, 403 `{"message":"403 Forbidden"}`.
 */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  const user = ctx.currentUser
  if (!user || !(user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER)) throw forbidden()
  return project
}

/** `ProtectedRefAccess` (EE): `access_level`, `access_level_description`, `user_id`, `group_id`. */
function ProtectedRefAccess(ctx: Ctx<unknown>, a: ProtectedRefAccessSpec) {
  const description = a.user_id !== null
    ? ctx.db.tables.users.get(a.user_id)?.name ?? null
    : a.group_id !== null ? ctx.db.tables.groups.get(a.group_id)?.name ?? null : humanAccessLevel(a.access_level)
  return { access_level: a.access_level, access_level_description: description, user_id: a.user_id, group_id: a.group_id }
}

/** `ProtectedBranch` (EE 13.12): CE fields, then `unprotect_access_levels` and `code_owner_approval_required`. */
function ProtectedBranch(ctx: Ctx<unknown>, pb: ProtectedBranchRecord) {
  return {
    id: pb.id,
    name: pb.name,
    push_access_levels: pb.push_access_levels.map((a) => ProtectedRefAccess(ctx, a)),
    merge_access_levels: pb.merge_access_levels.map((a) => ProtectedRefAccess(ctx, a)),
    allow_force_push: pb.allow_force_push,
    unprotect_access_levels: pb.unprotect_access_levels.map((a) => ProtectedRefAccess(ctx, a)),
    code_owner_approval_required: pb.code_owner_approval_required,
  }
}

/** The protected branch named exactly `name` (`find_by!`), or 404 `{"message":"404 Not found"}`. */
function findProtected(ctx: Ctx<unknown>, project: ProjectRecord, name: string): ProtectedBranchRecord {
  const pb = protectedBranchesOf(ctx.db, project.id).find((b) => b.name === name)
  if (!pb) throw recordNotFound()
  return pb
}

const ACCESS_LEVEL = p.integer({ values: ALLOWED_ACCESS_LEVELS })

/**
 * One `allowed_to_<type>` array (EE): entries `{access_level}`, `{user_id}` or `{group_id}`.
 * @throws ApiError 400 Grape's message for a bad entry; 422 when a user is no project member
 *   (`validate_user_membership`).
 */
function allowedTo(ctx: Ctx<unknown>, project: ProjectRecord, type: string, raw: unknown): ProtectedRefAccessSpec[] | undefined {
  if (raw === undefined) return undefined
  if (!Array.isArray(raw)) throw grapeError(`allowed_to_${type} is invalid`)
  return raw.map((item, i): ProtectedRefAccessSpec => {
    const e = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    const int = (field: string) => {
      const v = e[field]
      if (v === undefined || v === null) return null
      const n = typeof v === 'number' ? v : /^\d+$/.test(String(v)) ? Number(v) : NaN
      if (!Number.isInteger(n)) throw grapeError(`allowed_to_${type}[${i}][${field}] is invalid`)
      return n
    }
    const access = int('access_level')
    if (access !== null && !(ALLOWED_ACCESS_LEVELS as readonly number[]).includes(access)) throw grapeError(`allowed_to_${type}[${i}][access_level] does not have a valid value`)
    const userId = int('user_id')
    const groupId = int('group_id')
    if (userId !== null) {
      const user = ctx.db.tables.users.get(userId)
      if (!user || projectAccessLevel(ctx.db, user, project, ctx.today) === 0) {
        throw new ApiError(422, { message: [`${type[0]!.toUpperCase()}${type.slice(1)} access levels user is not a member of the project`] })
      }
    }
    return { access_level: userId !== null || groupId !== null ? null : access, user_id: userId, group_id: groupId }
  })
}

/** Every protected-branch route. */
export const protectedBranchRoutes: Route[] = [
  route('GET /projects/:id/protected_branches', {
    auth: 'optional',
    params: { ...projectId, search: p.string(), ...paginationParams },
    handler(ctx) {
      const project = adminProject(ctx)
      const search = ctx.params.search?.toLowerCase()
      const rows = protectedBranchesOf(ctx.db, project.id).filter((pb) => !search || pb.name.toLowerCase().includes(search))
      return paginated(ctx, rows, (pb) => ProtectedBranch(ctx, pb))
    },
  }),

  route('GET /projects/:id/protected_branches/:name', {
    auth: 'optional',
    params: { ...projectId, name: p.string({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      return ok(ProtectedBranch(ctx, findProtected(ctx, project, ctx.params.name)))
    },
  }),

  route('POST /projects/:id/protected_branches', {
    params: {
      ...projectId,
      name: p.string({ required: true }),
      push_access_level: ACCESS_LEVEL,
      merge_access_level: ACCESS_LEVEL,
      unprotect_access_level: ACCESS_LEVEL,
      allow_force_push: p.boolean({ default: false }),
      code_owner_approval_required: p.boolean({ default: false }),
    },
    handler(ctx) {
      const project = adminProject(ctx)
      const name = ctx.params.name
      if (protectedBranchesOf(ctx.db, project.id).some((pb) => pb.name === name)) throw conflict(`Protected branch '${name}' already exists`)
      if (name === '') throw new ApiError(422, { message: ["Name can't be blank"] })
      // AccessLevelParams (EE): a role level (Maintainers when neither it nor `allowed_to_<type>`
      // is given), then the `allowed_to_<type>` entries.
      const levels = (type: 'push' | 'merge' | 'unprotect', level: number | undefined): ProtectedRefAccessSpec[] => {
        const allowed = allowedTo(ctx, project, type, ctx.raw[`allowed_to_${type}`])
        const role = level ?? (allowed && allowed.length > 0 ? undefined : AccessLevel.MAINTAINER)
        return [...(role === undefined ? [] : [{ access_level: role, user_id: null, group_id: null }]), ...(allowed ?? [])]
      }
      const pb = ctx.db.tables.protected_branches.insert({
        project_id: project.id,
        name,
        push_access_levels: levels('push', ctx.params.push_access_level),
        merge_access_levels: levels('merge', ctx.params.merge_access_level),
        unprotect_access_levels: levels('unprotect', ctx.params.unprotect_access_level),
        allow_force_push: ctx.params.allow_force_push,
        code_owner_approval_required: ctx.params.code_owner_approval_required,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      return created(ProtectedBranch(ctx, pb))
    },
  }),

  route('DELETE /projects/:id/protected_branches/:name', {
    params: { ...projectId, name: p.string({ required: true }) },
    handler(ctx) {
      const project = adminProject(ctx)
      const pb = findProtected(ctx, project, ctx.params.name)
      checkUnmodifiedSince(ctx, pb.updated_at)
      // EE ProtectedBranchPolicy: with unprotect levels, only those they admit may unprotect.
      const user = ctx.currentUser!
      const level = projectAccessLevel(ctx.db, user, project, ctx.today)
      const admits = (a: ProtectedRefAccessSpec) => a.access_level !== AccessLevel.NO_ACCESS && (user.admin || (a.user_id !== null ? a.user_id === user.id : a.group_id === null && level >= (a.access_level ?? Infinity)))
      if (pb.unprotect_access_levels.length > 0 && !pb.unprotect_access_levels.some(admits)) throw forbidden()
      ctx.db.tables.protected_branches.delete(pb.id)
      return noContent()
    },
  }),

  // gitlab: lib/api/branches.rb (legacy protect / unprotect, 13.x)
  route('PUT /projects/:id/repository/branches/:branch/protect', {
    params: { ...projectId, branch: p.string({ required: true, allowBlank: false }), developers_can_push: p.boolean(), developers_can_merge: p.boolean() },
    handler(ctx) {
      const project = adminProject(ctx)
      const repo = repositoryOf(ctx.db, project)
      const name = ctx.params.branch
      if (!isValidRefName(name)) throw new ApiError(400, { message: 'The branch refname is invalid' })
      if (!repo.branches.has(name)) throw notFound('Branch')
      const role = (developers: boolean | undefined): ProtectedRefAccessSpec[] => [{ access_level: developers ? AccessLevel.DEVELOPER : AccessLevel.MAINTAINER, user_id: null, group_id: null }]
      const existing = protectedBranchesOf(ctx.db, project.id).find((pb) => pb.name === name)
      if (existing) {
        // LegacyApiUpdateService: only the flags given change their levels.
        ctx.db.tables.protected_branches.update(existing.id, {
          ...(ctx.params.developers_can_push === undefined ? {} : { push_access_levels: role(ctx.params.developers_can_push) }),
          ...(ctx.params.developers_can_merge === undefined ? {} : { merge_access_levels: role(ctx.params.developers_can_merge) }),
          updated_at: ctx.now,
        })
      } else {
        ctx.db.tables.protected_branches.insert({
          project_id: project.id,
          name,
          push_access_levels: role(ctx.params.developers_can_push),
          merge_access_levels: role(ctx.params.developers_can_merge),
          unprotect_access_levels: [],
          allow_force_push: false,
          code_owner_approval_required: false,
          created_at: ctx.now,
          updated_at: ctx.now,
        })
      }
      return ok(Branch(repo, name, project, ctx, branchFacts(ctx, repo, project, name, headAncestorsOf(repo, project))))
    },
  }),

  route('PUT /projects/:id/repository/branches/:branch/unprotect', {
    params: { ...projectId, branch: p.string({ required: true, allowBlank: false }) },
    handler(ctx) {
      const project = adminProject(ctx)
      const repo = repositoryOf(ctx.db, project)
      const name = ctx.params.branch
      if (!isValidRefName(name)) throw new ApiError(400, { message: 'The branch refname is invalid' })
      if (!repo.branches.has(name)) throw notFound('Branch')
      const existing = protectedBranchesOf(ctx.db, project.id).find((pb) => pb.name === name)
      if (existing) ctx.db.tables.protected_branches.delete(existing.id)
      return ok(Branch(repo, name, project, ctx, branchFacts(ctx, repo, project, name, headAncestorsOf(repo, project))))
    },
  }),
]
