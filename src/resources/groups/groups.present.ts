/**
 * A group as `GroupDetail`, the way the group routes present it: with the projects in it the
 * caller can read. The groups routes answer with it, and the sharing area (through
 * groups.public.ts).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { GroupRecord } from '../../db/schema.js'
import { GroupDetail } from '../../entities/group.js'
import { AccessLevel, canReadProject, hasGroupAccess } from '../../rules/access.js'
import { issueCounts } from '../issues/issues.public.js'

/**
 * `present group, with: Entities::GroupDetail, current_user:` (gitlab: lib/api/groups.rb).
 * @param options.withProjects list the group's readable projects (default true; `GET
 *   /groups/:id?with_projects=false` and a new group have none).
 * @param options.runnersToken show `runners_token` to a caller who administers the group: only
 *   `GET /groups/:id` passes `user_can_admin_group`.
 */
export function groupDetail(ctx: Ctx<unknown>, group: GroupRecord, options: { withProjects?: boolean; runnersToken?: boolean } = {}) {
  const { db, currentUser: user, today } = ctx
  const projects = options.withProjects === false
    ? []
    : db.tables.projects.where('namespace_id', group.id).filter((project) => project.namespace_type === 'group' && canReadProject(db, user, project, today))
  const admin = options.runnersToken === true && hasGroupAccess(db, user, group, AccessLevel.OWNER, today)
  return GroupDetail(group, ctx, projects, admin, issueCounts(db))
}
