/**
 * The deploy keys area's work between requests: destroying keys no project uses any more.
 * Imported by the area's index (it runs before every request), so kept apart from the service.
 * gitlab: app/models/deploy_keys_project.rb (`destroy_orphaned_deploy_key`).
 * @module
 */
import type { Db } from '../../db/db.js'

/**
 * The versions of `keys` and `deploy_keys_projects` (`Collection.version`, never handed out twice in
 * a store) when each store was last found without orphans: only a write to one of the two can
 * orphan a key, so a request that follows none costs two reads, not a scan of every key.
 */
const checkedAt = new WeakMap<Db, { keys: number; links: number }>()

/**
 * Destroys deploy keys no project uses any more: GitLab destroys a deleted project's links one by
 * one (`dependent: :destroy`), each taking an orphaned key with it, where fakelab's store deletes a
 * project's rows by foreign key. Run before each request; scans the keys only when `keys` or
 * `deploy_keys_projects` changed since the last scan, and writes only when a key is orphaned.
 */
export function destroyOrphanedDeployKeys(db: Db): void {
  const { keys, deploy_keys_projects: links } = db.tables
  const checked = checkedAt.get(db)
  if (checked && checked.keys === keys.version && checked.links === links.version) return
  for (const key of keys.all()) {
    if (key.type === 'DeployKey' && links.where('deploy_key_id', key.id).length === 0) keys.delete(key.id)
  }
  checkedAt.set(db, { keys: keys.version, links: links.version })
}
