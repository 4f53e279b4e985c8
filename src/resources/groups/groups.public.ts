/**
 * What other areas may use of the groups area: a group presented as `GroupDetail` the way
 * `GET /groups/:id` presents it, for routes elsewhere that answer with the group (sharing).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { GroupRecord } from '../../db/schema.js'
import { GroupDetail } from '../../entities/group.js'
import { AccessLevel, canReadProject, hasGroupAccess } from '../../rules/access.js'
import { issueCounts } from '../issues/issues.public.js'

/**
 * `present group, with: Entities::GroupDetail, current_user:`: the group with the projects in it
 * the caller can read.
 * @param options.runnersToken show `runners_token` to a caller who administers the group
 *   (`GET /groups/:id` passes `user_can_admin_group`; other endpoints do not).
 */
export function groupDetail(ctx: Ctx<unknown>, group: GroupRecord, options: { withProjects?: boolean; runnersToken?: boolean } = {}) {
  const { db, currentUser: user, today } = ctx
  const projects = options.withProjects === false
    ? []
    : db.tables.projects.where('namespace_id', group.id).filter((project) => project.namespace_type === 'group' && canReadProject(db, user, project, today))
  const admin = options.runnersToken === true && hasGroupAccess(db, user, group, AccessLevel.OWNER, today)
  return GroupDetail(group, ctx, projects, admin, issueCounts(db))
}
