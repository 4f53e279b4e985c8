/**
 * Forks: `POST /projects/:id/fork` (into the caller's namespace or one named by `namespace_id`,
 * `namespace_path` or the deprecated `namespace`, with an optional `name` and `path`),
 * `GET /projects/:id/forks` (the forks the caller can read, paginated, `simple` as the project
 * lists), `POST /projects/:id/fork/:forked_from_id` (link an existing project, Maintainer+ on it) and
 * `DELETE /projects/:id/fork` (unlink, the owner; 304 when it is no fork).
 * gitlab: lib/api/projects.rb (13.12), app/policies/project_policy.rb (`fork_project`:
 * a Reporter, or any signed-in user on a public or internal project; `remove_fork_project`: owners).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound, notModified } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { BasicProjectDetails, Project } from '../../entities/project.js'
import { AccessLevel, canReadProject, groupAccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { issueCounts } from '../issues/issues.public.js'
import { listProjects, PROJECT_ORDER_COLUMNS, type ProjectNamespace } from '../projects/projects.public.js'
import { forkProject, forksOf, linkFork, unlinkFork } from './forks.service.js'

const id = p.string({ required: true })

/** `can?(user, :fork_project, project)`: Reporter+, or signed in on a project that is not private. */
function canFork(ctx: Ctx<unknown>, project: ProjectRecord): boolean {
  if (!ctx.currentUser) return false
  if (hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.REPORTER, ctx.today)) return true
  return project.visibility !== 'private' && canReadProject(ctx.db, ctx.currentUser, project, ctx.today)
}

/**
 * `find_namespace(id)` (a group or a user by id or full path) that the caller may create projects
 * in (`can?(:create_projects)`), or 404 `Target Namespace Not Found`.
 */
function targetNamespace(ctx: Ctx<unknown>, ref: string | number): ProjectNamespace {
  const { db } = ctx
  const user = ctx.currentUser!
  let namespace: ProjectNamespace | undefined
  if (typeof ref === 'number' || /^\d+$/.test(ref)) {
    const group = db.tables.groups.get(Number(ref))
    const owner = group ? undefined : db.tables.users.get(Number(ref))
    namespace = group ? { kind: 'group', group } : owner ? { kind: 'user', user: owner } : undefined
  } else {
    const group = db.findGroupByFullPath(ref)
    const owner = group ? undefined : db.findUserByUsername(ref)
    namespace = group ? { kind: 'group', group } : owner ? { kind: 'user', user: owner } : undefined
  }
  const allowed =
    namespace !== undefined &&
    (user.admin || (namespace.kind === 'user' ? namespace.user.id === user.id : groupAccessLevel(db, user, namespace.group, ctx.today) >= AccessLevel.DEVELOPER))
  if (!allowed) throw notFound('Target Namespace')
  return namespace!
}


/** The fork routes. */
export const forkRoutes: Route[] = [
  route('POST /projects/:id/fork', {
    params: { id, namespace: p.string(), namespace_id: p.integer(), namespace_path: p.string(), path: p.string(), name: p.string() },
    handler(ctx) {
      const source = findProject(ctx, ctx.params.id)
      if (!canFork(ctx, source)) throw notFound()
      const ref = ctx.params.namespace_id ?? ctx.params.namespace_path ?? ctx.params.namespace
      const namespace = ref !== undefined && ref !== '' ? targetNamespace(ctx, ref) : undefined
      const fork = forkProject(ctx, source, ctx.currentUser!, { namespace, name: ctx.params.name, path: ctx.params.path })
      return created(Project(fork, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  route('GET /projects/:id/forks', {
    auth: 'optional',
    params: {
      id,
      ...paginationParams,
      order_by: p.string({ default: 'created_at', values: PROJECT_ORDER_COLUMNS }),
      sort: p.string({ default: 'desc', values: ['asc', 'desc'], caseInsensitive: true }),
      archived: p.boolean(),
      visibility: p.string({ values: ['private', 'internal', 'public'] }),
      search: p.string(),
      simple: p.boolean({ default: false }),
      owned: p.boolean({ default: false }),
      membership: p.boolean({ default: false }),
      starred: p.boolean({ default: false }),
      statistics: p.boolean({ default: false }),
      with_issues_enabled: p.boolean({ default: false }),
      with_merge_requests_enabled: p.boolean({ default: false }),
      min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const { params } = ctx
      // gitlab: ForkProjectsFinder: ProjectsFinder over the project's forks.
      const forkIds = new Set(forksOf(ctx.db, project).map((f) => f.id))
      const forks = listProjects(ctx, { ...params, order_by: params.order_by }, (f) => forkIds.has(f.id))
      const counts = issueCounts(ctx.db)
      return paginated(ctx, forks, (f) => (params.simple ? BasicProjectDetails(f, ctx) : Project(f, ctx, counts)))
    },
  }),

  route('POST /projects/:id/fork/:forked_from_id', {
    params: { id, forked_from_id: p.string({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
      const source = findProject(ctx, ctx.params.forked_from_id)
      if (!canFork(ctx, source)) throw forbidden()
      linkFork(ctx, project, source)
      return created(Project(project, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  route('DELETE /projects/:id/fork', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.OWNER, ctx.today)) throw forbidden()
      checkUnmodifiedSince(ctx, project.last_activity_at) // destroy_conditionally!
      if (!unlinkFork(ctx.db, project)) throw notModified()
      return noContent()
    },
  }),
]
