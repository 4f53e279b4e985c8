/**
 * Moving a project to another namespace (`Projects::TransferService`) and finding the namespace a
 * transfer names (`find_namespace!`). The project's full path, web URL, and who may read and
 * write it all follow from `namespace_type`/`namespace_id`, so changing those is the whole move.
 * Source: gitlab: app/services/projects/transfer_service.rb, lib/api/projects.rb
 * (`put ":id/transfer"`), lib/api/helpers.rb (`find_namespace!`), app/policies/project_policy.rb
 * (`change_namespace`: owners), app/policies/group_policy.rb and namespace_policy.rb
 * (`transfer_projects`, `read_namespace`).
 * @module
 */
import { publishProject } from './projects.events.js'
import { recordProjectMove } from './projects.redirects.js'
import { AccessLevel, canReadGroup, groupAccessLevel, hasProjectAccess } from '../../rules/access.js'
import { notFound } from '../../core/errors.js'
import { ModelErrors, failedTo } from '../../rules/model-errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord, Visibility } from '../../db/schema.js'
import { findNamespace, type ProjectNamespace } from './projects.service.js'

const LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 }

/** `TransferProject|…` messages of `Projects::TransferService`. */
const ProjectTransferMessage = {
  notAllowed: 'Transfer failed, please contact an admin.',
  nameOrPathTaken: 'Project with same name or path in target namespace already exists',
} as const

/**
 * `find_namespace!`: a namespace by id (digits) or full path (a group's, or a username), that the
 * caller may read (a group they can read; a personal namespace only its owner or an administrator).
 * @throws ApiError 404 `{"message":"404 Namespace Not Found"}`.
 */
export function findNamespaceForCaller(ctx: Ctx<unknown>, id: string): ProjectNamespace {
  const { db, currentUser: user } = ctx
  let namespace: ProjectNamespace | undefined
  if (/^\d+$/.test(id)) namespace = findNamespace(db, Number(id))
  else {
    const group = db.findGroupByFullPath(id)
    const owner = group || id.includes('/') ? undefined : db.findUserByUsername(id)
    namespace = group ? { kind: 'group', group } : owner ? { kind: 'user', user: owner } : undefined
  }
  const readable =
    namespace !== undefined &&
    (namespace.kind === 'group' ? canReadGroup(db, user, namespace.group, ctx.today) : user !== null && (user.admin || user.id === namespace.user.id))
  if (!readable) throw notFound('Namespace')
  return namespace!
}

/** `can?(user, :change_namespace, project)`: the project's owners and administrators. */
export function canChangeNamespace(db: Db, user: UserRecord | null, project: ProjectRecord, today: string): boolean {
  return hasProjectAccess(db, user, project, AccessLevel.OWNER, today)
}

/**
 * `can?(user, :transfer_projects, namespace)`: a group's Maintainer+ (who may create projects in
 * it), or the owner of a personal namespace (or an administrator) while the caller may still
 * create personal projects (`can_create_project?`).
 */
function canTransferInto(db: Db, user: UserRecord, namespace: ProjectNamespace, today: string): boolean {
  if (namespace.kind === 'group') return user.admin || groupAccessLevel(db, user, namespace.group, today) >= AccessLevel.MAINTAINER
  if (!(user.admin || namespace.user.id === user.id)) return false
  const personal = db.tables.projects.where('namespace_id', user.id).filter((p) => p.namespace_type === 'user').length
  return user.projects_limit - personal > 0
}

/**
 * `Projects::TransferService#execute`: moves the project into `target`. A project more visible than
 * its new group takes the group's visibility. Checks before the first write, as GitLab's do.
 * spec-gap: GitLab also copies the old group's labels and milestones the project's issues use into
 * the project (`Labels::TransferService`, `Milestones::TransferService`) and keeps a redirect from
 * the old path; fakelab does neither.
 * @throws ApiError 400 `{"message":"Failed to transfer project {:new_namespace=>[\"…\"]}"}`: the
 *   caller may not move it there or it is there already ("Transfer failed, please contact an
 *   admin."), or a project of the same name or path is there.
 */
export function transferProject(ctx: Ctx<unknown>, project: ProjectRecord, target: ProjectNamespace): ProjectRecord {
  const { db, today } = ctx
  const user = ctx.currentUser!
  const targetId = target.kind === 'group' ? target.group.id : target.user.id
  const fail = (message: string) => failedTo('transfer project', new ModelErrors().add('new_namespace', message))
  const allowed =
    canChangeNamespace(db, user, project, today) &&
    !(project.namespace_type === target.kind && project.namespace_id === targetId) &&
    canTransferInto(db, user, target, today)
  if (!allowed) throw fail(ProjectTransferMessage.notAllowed)
  // `Project.where(namespace_id:).where('path = ? or name = ?')`: exact, as SQL `=` compares.
  const clash = db.tables.projects
    .where('namespace_id', targetId)
    .some((p) => p.namespace_type === target.kind && p.id !== project.id && (p.path === project.path || p.name === project.name))
  if (clash) throw fail(ProjectTransferMessage.nameOrPathTaken)
  const patch: Partial<ProjectRecord> = { namespace_type: target.kind, namespace_id: targetId }
  // `visibility_level_allowed_by_group?`: a project may not be more visible than its group.
  if (target.kind === 'group' && LEVEL[project.visibility] > LEVEL[target.group.visibility]) patch.visibility = target.group.visibility
  const oldPath = db.projectFullPath(project)
  const moved = db.tables.projects.update(project.id, patch)
  recordProjectMove(db, moved, oldPath, ctx.now)
  // gitlab: TransferService#execute_system_hooks: `project_transfer` with the old full path.
  publishProject(ctx, 'transfer', moved, oldPath)
  return moved
}
