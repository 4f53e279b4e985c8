/**
 * Redirect routes (`redirect_routes`, GitLab's `RedirectRoute`): the old full path of a project
 * that was renamed (`PUT /projects/:id` with a new `path`) or transferred, which git over HTTP still
 * serves (`Project.find_by_full_path(path, follow_redirects: true)` in `Gitlab::RepoPath`, with
 * the "Project 'old' was moved to 'new'" message after a push). The API does not follow them in
 * 13.12 (`find_project` calls `find_by_full_path` without `follow_redirects`): an old path is 404.
 * gitlab: app/models/route.rb (`create_redirect_for_old_path`), app/models/redirect_route.rb,
 * app/models/concerns/routable.rb, lib/gitlab/repo_path.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import type { Db } from '../../db/db.js'
import { table, type ProjectRecord, type Timestamp } from '../../db/schema.js'

/** One old path of a project (`redirect_routes` with `source_type` `Project`). */
export interface RedirectRouteRecord extends Row {
  /** The project it leads to. */
  project_id: number
  /** The old full path, as it was written (matched case-insensitively). */
  path: string
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    redirect_routes: RedirectRouteRecord
  }
}

/** The projects area's own tables. */
export const projectTables = {
  redirect_routes: table<RedirectRouteRecord>(['project_id']),
}

/**
 * `Route#create_redirect_for_old_path`: after a project's full path changed from `oldPath`, keeps
 * the old one (replacing a redirect of any project on the same path, as `RedirectRoute` paths are
 * unique) and drops the project's redirect on its new path (`delete_conflicting_redirects`).
 * Nothing when the path is unchanged (case included: GitLab redirects a change of case too).
 */
export function recordProjectMove(db: Db, project: ProjectRecord, oldPath: string, now: string): void {
  const newPath = db.projectFullPath(project)
  if (newPath === oldPath) return
  for (const r of db.tables.redirect_routes.filter((r) => r.path.toLowerCase() === oldPath.toLowerCase() || r.path.toLowerCase() === newPath.toLowerCase())) {
    db.tables.redirect_routes.delete(r.id)
  }
  db.tables.redirect_routes.insert({ project_id: project.id, path: oldPath, created_at: now })
}

/**
 * The project an old full path leads to (`RedirectRoute.matching_path_and_descendants`, for the
 * path itself), case-insensitively, or undefined. A project that holds the path now wins:
 * callers look it up first.
 */
export function projectByRedirect(db: Db, fullPath: string): ProjectRecord | undefined {
  const wanted = fullPath.toLowerCase()
  const route = db.tables.redirect_routes.find((r) => r.path.toLowerCase() === wanted)
  return route ? db.tables.projects.get(route.project_id) : undefined
}
