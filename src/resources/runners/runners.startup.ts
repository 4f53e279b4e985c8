/**
 * What `fakelab serve` prints for the runners area after the users: the runner registration
 * tokens of the loaded scenario (issue 7), so a runner can be registered at once.
 * @module
 */
import type { StartupView } from '../../scenario/area.js'

/**
 * The instance's registration token, then each group's and project's by full path (the first
 * `view.limit` of each), under a heading line and after a blank line.
 */
export function runnerTokenLines(view: StartupView): string[] {
  const { db, limit } = view
  const instance = db.tables.application_settings.get(1)?.runners_registration_token
  const groups = db.tables.groups.all().map((g) => ({ path: db.groupFullPath(g), token: g.runners_token }))
  const projects = db.tables.projects.all().map((p) => ({ path: db.projectFullPath(p), token: p.runners_token }))
  const entries = [
    ...(instance !== undefined ? [{ path: '(instance)', token: instance }] : []),
    ...groups.slice(0, limit),
    ...projects.slice(0, limit),
  ]
  const width = Math.max(4, ...entries.map((e) => e.path.length))
  const more = Math.max(0, groups.length - limit) + Math.max(0, projects.length - limit)
  return [
    '',
    'Runner registration tokens (POST /api/v4/runners token=...)',
    ...entries.map((e) => `  ${e.path.padEnd(width)}  ${e.token}`),
    ...(more > 0 ? [`  ... and ${more} more`] : []),
  ]
}
