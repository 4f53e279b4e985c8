/**
 * Sharing groups and projects with groups: `POST /groups/:id/share`, `DELETE
 * /groups/:id/share/:group_id`, `POST /projects/:id/share`, `DELETE /projects/:id/share/:group_id`.
 * Source: gitlab: lib/api/groups.rb, lib/api/projects.rb (13.x); doc/api/groups.md, projects.md.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { created, noContent } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { AccessLevel, canReadGroup, hasGroupAccess, hasProjectAccess } from '../../rules/access.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { groupDetail } from '../groups/groups.public.js'
import { ProjectGroupLink } from './sharing.entities.js'
import { shareGroup, shareProject, shareRefused } from './sharing.service.js'

const id = p.string({ required: true })
const groupId = p.integer({ required: true })

/** Routes of the sharing area. */
export const sharingRoutes: Route[] = [
  // `Groups::GroupLinks::CreateService`: admin_group_member (Owner) on the shared group and
  // read_group on the other, else 404 `Not Found`; answers with the shared group.
  route('POST /groups/:id/share', {
    params: {
      id,
      group_id: groupId,
      group_access: p.integer({ required: true, values: [10, 20, 30, 40, 50] }),
      expires_at: p.date(),
    },
    handler(ctx) {
      const { db, currentUser: user, today, params } = ctx
      const shared = findGroup(ctx, params.id)
      const sharedWith = findGroup(ctx, params.group_id)
      if (!hasGroupAccess(db, user, shared, AccessLevel.OWNER, today) || !canReadGroup(db, user, sharedWith, today)) throw shareRefused()
      shareGroup(ctx, shared, sharedWith, { group_access: params.group_access, expires_at: params.expires_at })
      return created(groupDetail(ctx, shared))
    },
  }),

  // The API answers 204 whatever `Groups::GroupLinks::DestroyService` does, and the service
  // removes the link only for admin_group_member (Owner) of the shared group.
  route('DELETE /groups/:id/share/:group_id', {
    params: { id, group_id: groupId },
    handler(ctx) {
      const shared = findGroup(ctx, ctx.params.id)
      const link = ctx.db.tables.group_group_links
        .where('shared_group_id', shared.id)
        .find((l) => l.shared_with_group_id === ctx.params.group_id)
      if (!link) throw notFound('Group Link')
      if (hasGroupAccess(ctx.db, ctx.currentUser, shared, AccessLevel.OWNER, ctx.today)) ctx.db.tables.group_group_links.delete(link.id)
      return noContent()
    },
  }),

  // `authorize! :admin_project` (Maintainer+); `Projects::GroupLinks::CreateService` refuses a group
  // the caller cannot read with 404 `Not Found`.
  route('POST /projects/:id/share', {
    params: {
      id,
      group_id: groupId,
      group_access: p.integer({ required: true, values: [10, 20, 30, 40] }),
      expires_at: p.date(),
    },
    handler(ctx) {
      const { db, currentUser: user, today, params } = ctx
      const project = findProject(ctx, params.id)
      if (!hasProjectAccess(db, user, project, AccessLevel.MAINTAINER, today)) throw forbidden()
      const group = db.tables.groups.get(params.group_id)
      if (!group || !canReadGroup(db, user, group, today)) throw shareRefused()
      const link = shareProject(ctx, project, group, { group_access: params.group_access, expires_at: params.expires_at })
      return created(ProjectGroupLink(link))
    },
  }),

  route('DELETE /projects/:id/share/:group_id', {
    params: { id, group_id: groupId },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
      const link = ctx.db.tables.project_group_links.where('project_id', project.id).find((l) => l.group_id === ctx.params.group_id)
      if (!link) throw notFound('Group Link')
      // destroy_conditionally!: links keep no updated_at, created_at stands in.
      checkUnmodifiedSince(ctx, link.created_at)
      ctx.db.tables.project_group_links.delete(link.id)
      return noContent()
    },
  }),
]
