/**
 * What other areas may read of stars: the projects a user starred (`User#starred_projects`), for
 * `GET /projects?starred=true` (ProjectsFinder `by_starred`). gitlab: app/models/user.rb,
 * app/finders/projects_finder.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'

/** The ids of the projects `userId` starred (`users_star_projects`). A new set. */
export function starredProjectIds(db: Db, userId: number): Set<number> {
  return new Set(db.tables.users_star_projects.where('user_id', userId).map((star) => star.project_id))
}
