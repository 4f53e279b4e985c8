/**
 * Protected branches and who may push, merge and delete: GitLab's `ProtectedBranch.protected?`,
 * `protected_ref_accessible_to?`, `Gitlab::UserAccess#can_push_to_branch?` / `can_merge_to_branch?`
 * / `can_delete_branch?`, and the protection of the default branch on the first push
 * (`Projects::ProtectDefaultBranchService`, instance `default_branch_protection` 2: Maintainers
 * push and merge). gitlab: app/models/protected_branch.rb, concerns/protected_ref.rb,
 * concerns/protected_ref_access.rb, concerns/protected_branch_access.rb (`NO_ACCESS` admits no one,
 * administrators included), ee/app/models/concerns/ee/protected_ref_access.rb (user and group
 * entries, `ADMIN` 60), lib/gitlab/user_access.rb, lib/gitlab/checks/branch_check.rb (13.x).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, activeMembership, projectAccessLevel } from '../../rules/access.js'
import { canPushCode, refMatches } from '../../rules/protected-refs.js'
import type { Repository } from './repository.build.js'
import type { ProtectedBranchRecord, ProtectedRefAccessSpec } from './repository.tables.js'

/** `Gitlab::Access::ADMIN` (EE protected refs only). */
const ADMIN_ACCESS = 60

/** The access levels a protected branch accepts (`ProtectedRefAccess.allowed_access_levels`, EE). */
export const ALLOWED_ACCESS_LEVELS = [AccessLevel.MAINTAINER, AccessLevel.DEVELOPER, AccessLevel.NO_ACCESS, ADMIN_ACCESS] as const

/** The project's protected branches, in id order. */
export function protectedBranchesOf(db: Db, projectId: number): ProtectedBranchRecord[] {
  return db.tables.protected_branches.where('project_id', projectId)
}

/** The protected branches whose name or pattern matches `name`. */
function matching(db: Db, project: ProjectRecord, name: string): ProtectedBranchRecord[] {
  return protectedBranchesOf(db, project.id).filter((pb) => refMatches(pb.name, name))
}

/** Whether a repository has no branch (GitLab's `empty_repo?`). */
function isEmpty(repo: Repository): boolean {
  return repo.branches.size === 0
}

/**
 * `ProtectedBranch.protected?`: a branch some protected branch matches; in an empty repository
 * every branch (the first push makes the default branch, which the instance protects).
 */
export function isProtectedBranch(db: Db, project: ProjectRecord, repo: Repository, name: string): boolean {
  return isEmpty(repo) || matching(db, project, name).length > 0
}

/** Whether `user` is a member (at any level, in force) of the group or one of its ancestors. */
function inGroup(ctx: Ctx<unknown>, user: UserRecord, groupId: number): boolean {
  const group = ctx.db.tables.groups.get(groupId)
  if (!group) return false
  const ids = new Set(ctx.db.groupSelfAndAncestors(group).map((g) => g.id))
  return ctx.db.tables.members.where('user_id', user.id).some((m) => m.source_type === 'group' && ids.has(m.source_id) && activeMembership(m, ctx.today))
}

/** `ProtectedBranchAccess#check_access` (EE): No one admits no one; then administrators; a user or group entry; a role. */
function checkAccess(ctx: Ctx<unknown>, project: ProjectRecord, access: ProtectedRefAccessSpec): boolean {
  const user = ctx.currentUser
  if (!user) return false
  if (access.access_level === AccessLevel.NO_ACCESS) return false
  if (user.admin) return true
  if (access.user_id !== null) return user.id === access.user_id
  if (access.group_id !== null) return inGroup(ctx, user, access.group_id)
  return canPushCode(ctx, project) && projectAccessLevel(ctx.db, user, project, ctx.today) >= (access.access_level ?? Infinity)
}

/**
 * `ProtectedBranch.protected_ref_accessible_to?`: in an empty repository Maintainers+ and
 * administrators may make the first branch; otherwise some `push` (or `merge`) entry of a matching
 * protected branch admits the user.
 */
function accessible(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, name: string, action: 'push' | 'merge'): boolean {
  const user = ctx.currentUser
  if (!user) return false
  if (isEmpty(repo) && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) > AccessLevel.DEVELOPER)) return true
  return matching(ctx.db, project, name).some((pb) => (action === 'push' ? pb.push_access_levels : pb.merge_access_levels).some((a) => checkAccess(ctx, project, a)))
}

/** `Gitlab::UserAccess#can_push_to_branch?`. */
export function canPushToBranch(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, name: string): boolean {
  if (!canPushCode(ctx, project)) return false
  return isProtectedBranch(ctx.db, project, repo, name) ? accessible(ctx, project, repo, name, 'push') : true
}

/** `Gitlab::UserAccess#can_merge_to_branch?`. */
export function canMergeToBranch(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, name: string): boolean {
  if (!ctx.currentUser) return false
  return isProtectedBranch(ctx.db, project, repo, name) ? accessible(ctx, project, repo, name, 'merge') : canPushCode(ctx, project)
}

/** `ProtectedBranch.developers_can?(action, name)`: a matching protected branch lets Developers do it. */
export function developersCan(db: Db, project: ProjectRecord, name: string, action: 'push' | 'merge'): boolean {
  return matching(db, project, name).some((pb) => (action === 'push' ? pb.push_access_levels : pb.merge_access_levels).some((a) => a.access_level === AccessLevel.DEVELOPER && a.user_id === null && a.group_id === null))
}

/**
 * The pre-receive refusal of a branch deletion (BranchCheck, 13.x), or null when it may go ahead:
 * the default branch never; a protected one only by Maintainers+ (`push_to_delete_protected_branch`).
 */
export function branchDeletionRefusal(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, name: string): string | null {
  if (name === project.default_branch) return 'The default branch of a project cannot be deleted.'
  if (!isProtectedBranch(ctx.db, project, repo, name)) return null
  const user = ctx.currentUser
  const maintainer = user !== null && !project.archived && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER)
  return maintainer ? null : 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.'
}

/**
 * The pre-receive refusal of creating branch `name` at a commit (BranchCheck
 * `protected_branch_creation_checks`, 13.x), or null: a protected name needs push access, or
 * merge access and a commit already on some protected branch.
 */
export function branchCreationRefusal(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, name: string, onProtectedBranch: () => boolean): string | null {
  if (/^[0-9a-fA-F]{40}$/.test(name)) return 'You cannot create a branch with a 40-character hexadecimal branch name.'
  if (isEmpty(repo) || !isProtectedBranch(ctx.db, project, repo, name)) return null
  if (canPushToBranch(ctx, project, repo, name)) return null
  if (!canMergeToBranch(ctx, project, repo, name)) return 'You are not allowed to create protected branches on this project.'
  if (!onProtectedBranch()) return 'You can only use an existing protected branch ref as the basis of a new protected branch.'
  return null
}

/** The maintainer-only role entry GitLab's defaults use. */
function role(level: number): ProtectedRefAccessSpec {
  return { access_level: level, user_id: null, group_id: null }
}

/**
 * `Projects::ProtectDefaultBranchService` at `default_branch_protection` 2 (GitLab's default):
 * protects the project's default branch, Maintainers pushing and merging, unless a protected
 * branch already matches it. Called when the default branch is first made (a scenario's commits,
 * the first push through the API).
 */
export function protectDefaultBranch(db: Db, project: ProjectRecord, now: string): void {
  if (matching(db, project, project.default_branch).length > 0) return
  db.tables.protected_branches.insert({
    project_id: project.id,
    name: project.default_branch,
    push_access_levels: [role(AccessLevel.MAINTAINER)],
    merge_access_levels: [role(AccessLevel.MAINTAINER)],
    unprotect_access_levels: [],
    allow_force_push: false,
    code_owner_approval_required: false,
    created_at: now,
    updated_at: now,
  })
}

/**
 * `ProtectedBranch.allow_force_push?(project, name)` (13.10+): some protected branch matching the
 * name allows force pushes. gitlab: app/models/protected_branch.rb.
 */
export function allowsForcePush(db: Db, project: ProjectRecord, name: string): boolean {
  return matching(db, project, name).some((pb) => pb.allow_force_push)
}
