/**
 * Project actions of lib/api/projects.rb (13.12) besides forks: star and unstar (201 with the
 * project, 304 when already starred / not starred), the starrers (`UserStarsProject`), archive and
 * unarchive (`archive_project`: owners), housekeeping (Maintainer+; 201 with the Sidekiq job id),
 * the repository storage of a project (administrators: `ProjectRepositoryStorage`), and a group's
 * shared projects (`GET /groups/:id/projects/shared`, groups.rb).
 * @module
 */
import { forbidden, notModified } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { BasicProjectDetails, Project } from '../../entities/project.js'
import { UserBasic } from '../../entities/user.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findGroup, findProject, findUser } from '../../rules/finders.js'
import { repositoryStorage } from '../../rules/repository.js'
import { searchUsers } from '../../rules/user-search.js'
import { issueCounts } from '../issues/issues.public.js'
import { listProjects, PROJECT_ORDER_COLUMNS } from '../projects/projects.public.js'
import { starredProjectIds } from '../../entities/project.js'
import { archiveProject, canReadProfile, hashedDiskPath, housekeepingJobId, isStarred, sharedProjectIds, starProject, starrers, unstarProject } from './project-actions.service.js'

const id = p.string({ required: true })

/** The project list params `GET /groups/:id/projects/shared` declares (groups.rb, 13.12). */
const sharedListParams = {
  archived: p.boolean(),
  visibility: p.string({ values: ['private', 'internal', 'public'] }),
  search: p.string(),
  order_by: p.string({ default: 'created_at', values: PROJECT_ORDER_COLUMNS }),
  sort: p.string({ default: 'desc', values: ['asc', 'desc'], caseInsensitive: true }),
  simple: p.boolean({ default: false }),
  starred: p.boolean({ default: false }),
  with_issues_enabled: p.boolean({ default: false }),
  with_merge_requests_enabled: p.boolean({ default: false }),
  min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
  with_custom_attributes: p.boolean({ default: false }),
}

/** `collection_params` of projects.rb (13.12) besides pagination: `GET /users/:user_id/starred_projects`'s filters. */
const starredListParams = {
  ...sharedListParams,
  owned: p.boolean({ default: false }),
  membership: p.boolean({ default: false }),
  statistics: p.boolean({ default: false }),
}

/** The project action routes. */
export const projectActionRoutes: Route[] = [
  route('POST /projects/:id/star', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (isStarred(ctx.db, ctx.currentUser!, project)) throw notModified()
      starProject(ctx.db, ctx.currentUser!, project, ctx.now)
      return created(Project(project, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  route('POST /projects/:id/unstar', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!isStarred(ctx.db, ctx.currentUser!, project)) throw notModified()
      unstarProject(ctx.db, ctx.currentUser!, project)
      return created(Project(project, ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  route('GET /projects/:id/starrers', {
    auth: 'optional',
    params: { id, search: p.string(), ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      let stars = starrers(ctx.db, project)
      if (ctx.params.search !== undefined) {
        const matching = new Set(searchUsers(stars.map((s) => s.user), ctx.params.search).map((u) => u.id))
        stars = stars.filter((s) => matching.has(s.user.id))
      }
      // gitlab: lib/api/entities/user_stars_project.rb: starred_since, user (UserBasic).
      return paginated(ctx, stars, (s) => ({ starred_since: s.star.created_at, user: UserBasic(s.user, ctx) }))
    },
  }),

  route('POST /projects/:id/archive', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.OWNER, ctx.today)) throw forbidden()
      return created(Project(archiveProject(ctx.db, project, true, ctx.now), ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  route('POST /projects/:id/unarchive', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.OWNER, ctx.today)) throw forbidden()
      return created(Project(archiveProject(ctx.db, project, false, ctx.now), ctx, issueCounts(ctx.db), { withAccess: false }))
    },
  }),

  route('POST /projects/:id/housekeeping', {
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
      return created(housekeepingJobId(ctx.faker))
    },
  }),

  route('GET /projects/:id/storage', {
    auth: 'admin',
    params: { id },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // gitlab: lib/api/entities/project_repository_storage.rb (13.12).
      return ok({
        disk_path: hashedDiskPath(project.id),
        project_id: project.id,
        repository_storage: repositoryStorage(ctx.db, 'project', project.id, project.repository_storage, ctx.now),
        created_at: project.created_at,
      })
    },
  }),

  route('GET /groups/:id/projects/shared', {
    auth: 'optional',
    params: { id, ...sharedListParams, ...paginationParams },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const shared = sharedProjectIds(ctx.db, group)
      const rows = listProjects(ctx, { ...ctx.params, owned: false, membership: false }, (project) => shared.has(project.id))
      const counts = issueCounts(ctx.db)
      return paginated(ctx, rows, (project) => (ctx.params.simple ? BasicProjectDetails(project, ctx) : Project(project, ctx, counts)))
    },
  }),

  // gitlab: lib/api/projects.rb `get ":user_id/starred_projects"` (13.12) with
  // app/finders/starred_projects_finder.rb: the user's starred projects the caller can read, with
  // the projects list's filters and order (ProjectsFinder; `starred` narrows to the caller's own
  // stars too); none when the caller may not read the user's profile (a private profile).
  route('GET /users/:user_id/starred_projects', {
    auth: 'optional',
    params: { user_id: p.string({ required: true }), ...starredListParams, ...paginationParams },
    handler(ctx) {
      const { params, currentUser } = ctx
      const user = findUser(ctx, params.user_id)
      const starred = canReadProfile(currentUser, user) ? starredProjectIds(ctx.db, user.id) : new Set<number>()
      const callers = params.starred && currentUser ? starredProjectIds(ctx.db, currentUser.id) : undefined
      const rows = listProjects(ctx, params, (project) => starred.has(project.id) && (!callers || callers.has(project.id)))
      const counts = issueCounts(ctx.db)
      const basic = params.simple || currentUser === null
      return paginated(ctx, rows, (project) => (basic ? BasicProjectDetails(project, ctx) : Project(project, ctx, counts)))
    },
  }),
]
