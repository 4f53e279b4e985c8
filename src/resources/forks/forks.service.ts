/**
 * Forking (`Projects::ForkService`): a new project in the target namespace with the source's name,
 * path, description and default branch (or the ones given), its visibility no more open than the
 * source's, a copy of the source's repository, and the fork link; linking an existing project as a
 * fork of another, and unlinking (`Projects::UnlinkForkService`).
 * gitlab: app/services/projects/fork_service.rb, unlink_fork_service.rb (13.12).
 * @module
 */
import { ApiError, conflict } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord, Visibility } from '../../db/schema.js'
import { createProject, type ProjectNamespace } from '../projects/projects.public.js'
import { copyRepository } from '../repository/repository.public.js'
import type { ForkLinkRecord } from './forks.tables.js'

const LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 }

/** The fork link of a project, if it is a fork. */
function forkLinkOf(db: Db, project: ProjectRecord): ForkLinkRecord | undefined {
  return db.tables.fork_network_members.where('project_id', project.id)[0]
}

/** The direct forks of a project, by id. */
export function forksOf(db: Db, project: ProjectRecord): ProjectRecord[] {
  return db.tables.fork_network_members
    .where('forked_from_project_id', project.id)
    .flatMap((link) => db.tables.projects.get(link.project_id) ?? [])
}

/** What a fork may be given: its namespace (default the caller's), name and path. */
export interface ForkOptions {
  namespace?: ProjectNamespace
  name?: string
  path?: string
}

/**
 * Forks `source` for `user`.
 * @throws ApiError 409 `{"message":{…}}` with the new project's validation errors (a path or name
 *   already taken in the namespace, a namespace the user may not create in).
 */
export function forkProject(ctx: Ctx<unknown>, source: ProjectRecord, user: UserRecord, options: ForkOptions): ProjectRecord {
  const namespace: ProjectNamespace = options.namespace ?? { kind: 'user', user }
  // gitlab: ForkService#allowed_visibility_level: the source's level, lowered to what the target group allows.
  let visibility = source.visibility
  if (namespace.kind === 'group' && LEVEL[namespace.group.visibility] < LEVEL[visibility]) visibility = namespace.group.visibility
  let fork: ProjectRecord
  try {
    fork = createProject(
      ctx,
      user,
      { name: options.name ?? source.name, path: options.path ?? source.path, description: source.description, visibility, default_branch: source.default_branch, namespace },
      { readsLimitReached: false },
    )
  } catch (error) {
    // gitlab: lib/api/projects.rb `conflict!(forked_project.errors.messages)`.
    if (error instanceof ApiError && error.status === 400) throw new ApiError(409, error.body)
    throw error
  }
  copyRepository(ctx.db, source, fork)
  ctx.db.tables.fork_network_members.insert({ project_id: fork.id, forked_from_project_id: source.id, created_at: ctx.now })
  return fork
}

/**
 * `ForkService#execute(fork_to_project)` for `POST /projects/:id/fork/:forked_from_id`: links
 * `project` as a fork of `source`.
 * @throws ApiError 409 `{"message":"Project already forked"}` when it is a fork already.
 */
export function linkFork(ctx: Ctx<unknown>, project: ProjectRecord, source: ProjectRecord): void {
  if (forkLinkOf(ctx.db, project)) throw conflict('Project already forked')
  ctx.db.tables.fork_network_members.insert({ project_id: project.id, forked_from_project_id: source.id, created_at: ctx.now })
}

/** `UnlinkForkService`: whether there was a link to remove (false answers 304). */
export function unlinkFork(db: Db, project: ProjectRecord): boolean {
  const link = forkLinkOf(db, project)
  if (!link) return false
  db.tables.fork_network_members.delete(link.id)
  return true
}
