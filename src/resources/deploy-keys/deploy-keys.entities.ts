/**
 * Deploy key entities. gitlab: lib/api/entities/deploy_keys_project.rb (13.12: the `SSHKey` fields
 * merged with `can_push`).
 * @module
 */
import { SSHKey } from '../user-keys/user-keys.public.js'
import type { KeyRecord } from '../user-keys/user-keys.public.js'
import type { DeployKeysProjectRecord } from './deploy-keys.tables.js'

/** GitLab's `DeployKeysProject`: `id, title, key, created_at, expires_at, can_push`. */
export function DeployKeysProject(link: DeployKeysProjectRecord, key: KeyRecord) {
  return { ...SSHKey(key), can_push: link.can_push }
}

/**
 * A `deploy_keys_projects` row as Rails' `as_json` gives it (`DeployKeyWithUser` exposes the
 * association without an entity): its columns in table order.
 */
export function DeployKeysProjectRow(link: DeployKeysProjectRecord) {
  return {
    id: link.id,
    deploy_key_id: link.deploy_key_id,
    project_id: link.project_id,
    created_at: link.created_at,
    updated_at: link.updated_at,
    can_push: link.can_push,
  }
}
