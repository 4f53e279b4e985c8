/**
 * Finders for the `:id` of projects and groups, and for users, with GitLab's 404 rules: a
 * missing resource and one the caller may not read look the same (`404 Project Not Found`, never
 * 403). Source: gitlab-behaviour.md §1.4 (helpers.rb `find_project!`, `find_group!`).
 * @module
 */
import type { GroupRecord, ProjectRecord, UserRecord } from '../db/schema.js'
import { canReadGroup, canReadProject } from './access.js'
import { forbidden, notFound } from '../core/errors.js'
import type { Ctx } from '../core/route.js'

/**
 * The project for an `:id` that is a numeric id or a full path (`group/project`, already decoded).
 * @throws ApiError 404 `{"message":"404 Project Not Found"}` when missing or not readable.
 */
export function findProject(ctx: Ctx<unknown>, id: string | number): ProjectRecord {
  const key = String(id)
  const project = /^\d+$/.test(key)
    ? ctx.db.tables.projects.get(Number(key))
    : key.includes('/')
      ? ctx.db.findProjectByFullPath(key)
      : undefined
  if (!project || !canReadProject(ctx.db, ctx.currentUser, project, ctx.today)) throw notFound('Project')
  return project
}

/**
 * The group for an `:id` that is a numeric id or a full path.
 * @throws ApiError 404 `{"message":"404 Group Not Found"}` when missing or not readable.
 */
export function findGroup(ctx: Ctx<unknown>, id: string | number): GroupRecord {
  const key = String(id)
  const group = /^\d+$/.test(key) ? ctx.db.tables.groups.get(Number(key)) : ctx.db.findGroupByFullPath(key)
  if (!group || !canReadGroup(ctx.db, ctx.currentUser, group, ctx.today)) throw notFound('Group')
  return group
}

/**
 * A user by numeric id or username (case-insensitive).
 * @throws ApiError 404 `{"message":"404 User Not Found"}`.
 */
export function findUser(ctx: Ctx<unknown>, id: string | number): UserRecord {
  const key = String(id)
  const user = /^\d+$/.test(key) ? ctx.db.tables.users.get(Number(key)) : ctx.db.findUserByUsername(key)
  if (!user) throw notFound('User')
  return user
}

/**
 * `User.find_by(id:)`: a user by numeric id only (the `/users/:id/<items>` routes of users.rb).
 * @throws ApiError 404 `{"message":"404 User Not Found"}`.
 */
export function findUserById(ctx: Ctx<unknown>, id: number): UserRecord {
  const user = ctx.db.tables.users.get(id)
  if (!user) throw notFound('User')
  return user
}

/**
 * `authenticated_as_admin!` inside an endpoint (after its params), then `User.find_by(id:)`.
 * @throws ApiError 403 `{"message":"403 Forbidden"}` for a caller who is not an administrator;
 *   404 `{"message":"404 User Not Found"}`.
 */
export function findUserAsAdmin(ctx: Ctx<unknown>, id: number): UserRecord {
  if (!ctx.currentUser?.admin) throw forbidden()
  return findUserById(ctx, id)
}
