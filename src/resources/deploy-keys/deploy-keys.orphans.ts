/**
 * The deploy keys area's work between requests: destroying keys no project uses any more.
 * Imported by the area's index (it runs before every request), so kept apart from the service.
 * gitlab: app/models/deploy_keys_project.rb (`destroy_orphaned_deploy_key`).
 * @module
 */
import type { Db } from '../../db/db.js'

/**
 * Destroys deploy keys no project uses any more: GitLab destroys a deleted project's links one by
 * one (`dependent: :destroy`), each taking an orphaned key with it, where fakelab's store deletes a
 * project's rows by foreign key. Run before each request; writes only when a key is orphaned.
 */
export function destroyOrphanedDeployKeys(db: Db): void {
  for (const key of db.tables.keys.all()) {
    if (key.type === 'DeployKey' && db.tables.deploy_keys_projects.where('deploy_key_id', key.id).length === 0) db.tables.keys.delete(key.id)
  }
}
