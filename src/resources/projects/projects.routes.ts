/**
 * `GET /projects` (offset and keyset pagination) and `GET /projects/:id`.
 * Source: GitLab doc/api/projects.md; gitlabhq:lib/api/projects.rb; gitlab-behaviour.md §1.8.
 * @module
 */
import { AccessLevel, canReadProject, projectAccessLevel } from '../../core/access.js'
import { ErrorMessage, grapeError } from '../../core/errors.js'
import { findProject } from '../../core/finders.js'
import { paginateKeyset, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { BasicProjectDetails, Project } from '../../entities/project.js'

/** Offset pagination of projects stops here (`page * per_page`); beyond it keyset is required. */
const MAX_PROJECT_OFFSET = 50_000

const ORDER_COLUMNS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity'] as const

function sortValue(project: ProjectRecord, column: (typeof ORDER_COLUMNS)[number]): string | number {
  switch (column) {
    case 'id':
      return project.id
    case 'name':
      return project.name.toLowerCase()
    case 'path':
      return project.path.toLowerCase()
    case 'created_at':
    case 'similarity':
      return project.created_at
    case 'updated_at':
    case 'last_activity_at':
      return project.last_activity_at
  }
}

/** Routes of the projects area implemented so far. */
export const projectRoutes: Route[] = [
  route('GET /projects', {
    auth: 'optional',
    params: {
      ...paginationParams,
      order_by: p.string({ default: 'created_at', values: ORDER_COLUMNS }),
      sort: p.string({ default: 'desc', values: ['asc', 'desc'], caseInsensitive: true }),
      archived: p.boolean(),
      visibility: p.string({ values: ['public', 'internal', 'private'] }),
      search: p.string(),
      simple: p.boolean({ default: false }),
      owned: p.boolean({ default: false }),
      membership: p.boolean({ default: false }),
      min_access_level: p.integer({ values: [10, 20, 30, 40, 50] }),
      pagination: p.string({ values: ['offset', 'keyset'] }),
      id_after: p.integer(),
      id_before: p.integer(),
    },
    handler(ctx) {
      const { params, db, currentUser: user, today } = ctx
      const keyset = params.pagination === 'keyset'
      if (keyset && params.order_by !== 'id') {
        throw grapeError(ErrorMessage.keysetUnsupported, 405)
      }
      if (!keyset && params.page * Math.min(Math.max(params.per_page, 0), 100) > MAX_PROJECT_OFFSET) {
        throw grapeError(ErrorMessage.offsetTooLarge(MAX_PROJECT_OFFSET, 'Project'), 405)
      }
      const search = params.search?.toLowerCase()
      const minLevel = params.min_access_level ?? (params.membership || params.owned ? AccessLevel.GUEST : undefined)
      const rows = db.tables.projects.filter((project) => {
        if (!canReadProject(db, user, project, today)) return false
        if (params.archived !== undefined && project.archived !== params.archived) return false
        if (params.visibility && project.visibility !== params.visibility) return false
        if (params.owned && !(project.namespace_type === 'user' && project.namespace_id === user?.id)) return false
        if (minLevel !== undefined && projectAccessLevel(db, user, project, today) < minLevel) return false
        if (search && !`${project.name} ${project.path} ${project.description}`.toLowerCase().includes(search)) return false
        return true
      })
      const column = params.order_by
      const direction = params.sort === 'asc' ? 1 : -1
      rows.sort((a, b) => {
        const x = sortValue(a, column)
        const y = sortValue(b, column)
        return (x < y ? -1 : x > y ? 1 : 0) * direction || (a.id - b.id) * direction
      })
      const present = (project: ProjectRecord) => (params.simple ? BasicProjectDetails(project, ctx) : Project(project, ctx))
      if (keyset) {
        const page = paginateKeyset(ctx, rows, params.sort as 'asc' | 'desc')
        return ok(page.rows.map(present), page.headers)
      }
      return paginated(ctx, rows, present)
    },
  }),

  route('GET /projects/:id', {
    auth: 'optional',
    params: { id: p.string({ required: true }) },
    handler(ctx) {
      return ok(Project(findProject(ctx, ctx.params.id), ctx))
    },
  }),
]
