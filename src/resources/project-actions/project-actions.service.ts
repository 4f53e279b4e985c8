/**
 * Stars (`User#toggle_star`), archiving (`Projects::UpdateService` with `archived`), housekeeping's
 * job id, a project's hashed storage path and a group's shared projects.
 * gitlab: app/models/user.rb, app/models/users_star_project.rb, app/models/storage/hashed.rb,
 * app/services/repositories/housekeeping_service.rb, app/finders/group_projects_finder.rb (13.12).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { Faker } from '@faker-js/faker'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../../db/schema.js'
import type { UserStarProjectRecord } from './project-actions.tables.js'

/** Whether `user` starred `project`. */
export function isStarred(db: Db, user: UserRecord, project: ProjectRecord): boolean {
  return db.tables.users_star_projects.where('project_id', project.id).some((s) => s.user_id === user.id)
}

/** Stars `project` for `user` (the caller checked it is not starred yet). */
export function starProject(db: Db, user: UserRecord, project: ProjectRecord, now: string): void {
  db.tables.users_star_projects.insert({ project_id: project.id, user_id: user.id, created_at: now })
}

/** Removes `user`'s star of `project`. */
export function unstarProject(db: Db, user: UserRecord, project: ProjectRecord): void {
  for (const star of db.tables.users_star_projects.where('project_id', project.id)) if (star.user_id === user.id) db.tables.users_star_projects.delete(star.id)
}

/** The project's stars with their users, newest first (`UsersStarProjectsFinder`: `order_by created_at desc` as 13.12's default). */
export function starrers(db: Db, project: ProjectRecord): { star: UserStarProjectRecord; user: UserRecord }[] {
  return db.tables.users_star_projects
    .where('project_id', project.id)
    .flatMap((star) => {
      const user = db.tables.users.get(star.user_id)
      return user ? [{ star, user }] : []
    })
    .sort((a, b) => (a.star.created_at < b.star.created_at ? 1 : a.star.created_at > b.star.created_at ? -1 : b.star.id - a.star.id))
}

/** Sets `archived` (GitLab touches `last_activity_at` through the update). */
export function archiveProject(db: Db, project: ProjectRecord, archived: boolean, now: string): ProjectRecord {
  return db.tables.projects.update(project.id, { archived, last_activity_at: now })
}

/** A Sidekiq job id (24 hex digits), what `HousekeepingService#execute` returns and the API renders. */
export function housekeepingJobId(faker: Faker): string {
  return faker.string.hexadecimal({ length: 24, casing: 'lower', prefix: '' })
}

/**
 * `Storage::Hashed#disk_path`: `@hashed/<h[0..1]>/<h[2..3]>/<h>`, `h` the SHA-256 of the project id
 * in decimal.
 */
export function hashedDiskPath(projectId: number): string {
  const hash = bytesToHex(sha256(utf8ToBytes(String(projectId))))
  return `@hashed/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`
}

/** The ids of the projects shared with `group` (`project_group_links`). */
export function sharedProjectIds(db: Db, group: GroupRecord): Set<number> {
  return new Set(db.tables.project_group_links.where('group_id', group.id).map((link) => link.project_id))
}

/**
 * `read_user_profile` (UserPolicy, 13.12): a public profile, or the user themself, or an
 * administrator. StarredProjectsFinder shows nothing without it.
 */
export function canReadProfile(viewer: UserRecord | null, user: UserRecord): boolean {
  return !user.private_profile || (viewer !== null && (viewer.id === user.id || viewer.admin))
}
