/**
 * What other areas may read of deploy keys: a key's project links, as `GET /keys?fingerprint=`
 * presents them (`DeployKeyWithUser#deploy_keys_projects`).
 * @module
 */
import type { Db } from '../../db/db.js'
import { DeployKeysProjectRow } from './deploy-keys.entities.js'

/** The `deploy_keys_projects` rows of a deploy key, by id, as Rails' `as_json` gives them. */
export function deployKeyProjectLinks(db: Db, keyId: number): ReturnType<typeof DeployKeysProjectRow>[] {
  return db.tables.deploy_keys_projects.where('deploy_key_id', keyId).sort((a, b) => a.id - b.id).map(DeployKeysProjectRow)
}
