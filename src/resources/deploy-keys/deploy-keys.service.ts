/**
 * Deploy keys: the instance's, a project's (the `deploy_keys_projects` links), adding one (an
 * existing link, a key the user may already use, or a new key), enabling, updating and removing
 * one; a key no project uses any more is destroyed with its last link. Every check runs before the
 * first write. gitlab: lib/api/deploy_keys.rb, app/services/projects/enable_deploy_key_service.rb,
 * app/models/deploy_keys_project.rb (`destroy_orphaned_deploy_key`), app/models/user.rb
 * (`accessible_deploy_keys`) (13.12).
 * @module
 */
import { forbidden, notFound, recordNotFound, validationFailed } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess, projectAccessLevel } from '../../rules/access.js'
import { validateKey, type KeyRecord } from '../user-keys/user-keys.public.js'
import type { DeployKeysProjectRecord } from './deploy-keys.tables.js'

/**
 * `authorize_admin_project`: Maintainer+ (administrators pass).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeAdminProject(ctx: Ctx<unknown>, project: ProjectRecord): void {
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
}

/** Every deploy key of the instance (`DeployKey.all`), by id. */
export function allDeployKeys(db: Db): KeyRecord[] {
  return db.tables.keys.filter((k) => k.type === 'DeployKey').sort((a, b) => a.id - b.id)
}

/** The project's deploy key links with their keys, by link id. */
export function projectDeployKeys(db: Db, project: ProjectRecord): { link: DeployKeysProjectRecord; key: KeyRecord }[] {
  return db.tables.deploy_keys_projects.where('project_id', project.id)
    .sort((a, b) => a.id - b.id)
    .map((link) => ({ link, key: db.tables.keys.get(link.deploy_key_id)! }))
}

/**
 * The project's link to a deploy key (`find_by!(deploy_key: key_id)`).
 * @throws ApiError 404 `{"message":"404 Not found"}` when the key is not enabled in the project.
 */
export function findProjectDeployKey(db: Db, project: ProjectRecord, keyId: number): { link: DeployKeysProjectRecord; key: KeyRecord } {
  const link = db.tables.deploy_keys_projects.where('project_id', project.id).find((l) => l.deploy_key_id === keyId)
  if (!link) throw recordNotFound()
  return { link, key: db.tables.keys.get(link.deploy_key_id)! }
}

/**
 * `User#accessible_deploy_keys`: the deploy keys of projects where the user is a Maintainer or
 * more by membership (`authorized_projects`, not administrator rights), and the public ones.
 */
function accessibleDeployKeys(db: Db, user: UserRecord | null, today: string): Set<number> {
  const ids = new Set<number>()
  for (const key of db.tables.keys.all()) if (key.type === 'DeployKey' && key.public) ids.add(key.id)
  if (!user) return ids
  for (const link of db.tables.deploy_keys_projects.all()) {
    if (ids.has(link.deploy_key_id)) continue
    const project = db.tables.projects.get(link.project_id)
    if (project && projectAccessLevel(db, user, project, today) >= AccessLevel.MAINTAINER) ids.add(link.deploy_key_id)
  }
  return ids
}

/** Links a key to a project. */
function link(ctx: Ctx<unknown>, project: ProjectRecord, keyId: number, canPush: boolean): DeployKeysProjectRecord {
  return ctx.db.tables.deploy_keys_projects.insert({ deploy_key_id: keyId, project_id: project.id, can_push: canPush, created_at: ctx.now, updated_at: ctx.now })
}

/** What `POST /projects/:id/deploy_keys` asks for. */
export interface AddDeployKeyParams {
  key: string
  title: string
  can_push?: boolean | undefined
}

/**
 * `POST /projects/:id/deploy_keys`: the project's own link when the key is already enabled there
 * (unchanged), else a link to a key the user may already use, else a new key and its link.
 * @throws ApiError 400 `{"message":{"deploy_key.<attribute>":[…]}}` for an invalid new key (the
 * link's nested-attribute errors: `deploy_key.fingerprint` `cannot be generated` or `has already been taken`…).
 */
export function addDeployKey(ctx: Ctx<unknown>, project: ProjectRecord, params: AddDeployKeyParams): { link: DeployKeysProjectRecord; key: KeyRecord } {
  const text = params.key.trim()
  const own = projectDeployKeys(ctx.db, project).find((entry) => entry.key.key === text)
  if (own) return own
  const accessible = accessibleDeployKeys(ctx.db, ctx.currentUser, ctx.today)
  const existing = ctx.db.tables.keys.find((k) => k.type === 'DeployKey' && k.key === text && accessible.has(k.id))
  if (existing) return { link: link(ctx, project, existing.id, params.can_push === true), key: existing }
  const { errors, valid } = validateKey(ctx.db, params.title, text)
  if (!valid) {
    const nested: Record<string, string[]> = {}
    for (const [attribute, messages] of Object.entries(errors)) nested[`deploy_key.${attribute}`] = messages
    throw validationFailed(nested)
  }
  const key = ctx.db.tables.keys.insert({
    user_id: ctx.currentUser?.id ?? null,
    type: 'DeployKey',
    title: params.title,
    key: valid.key,
    fingerprint: valid.parsed.fingerprint,
    fingerprint_sha256: valid.parsed.fingerprintSha256,
    public: false,
    expires_at: null,
    created_at: ctx.now,
    updated_at: ctx.now,
  })
  return { link: link(ctx, project, key.id, params.can_push === true), key }
}

/**
 * `Projects::EnableDeployKeyService`: a key the user may use, linked to the project unless it is already.
 * @throws ApiError 404 `{"message":"404 Deploy Key Not Found"}` for a key the user may not use.
 */
export function enableDeployKey(ctx: Ctx<unknown>, project: ProjectRecord, keyId: number): KeyRecord {
  const key = ctx.db.tables.keys.get(keyId)
  if (!key || key.type !== 'DeployKey' || !accessibleDeployKeys(ctx.db, ctx.currentUser, ctx.today).has(key.id)) throw notFound('Deploy Key')
  if (!ctx.db.tables.deploy_keys_projects.where('project_id', project.id).some((l) => l.deploy_key_id === key.id)) link(ctx, project, key.id, false)
  return key
}

/**
 * `PUT /projects/:id/deploy_keys/:key_id`: the link's `can_push` and the key's `title`, each kept when not given.
 * @throws ApiError 404 `{"message":"404 Not found"}`, 400 `{"message":{"deploy_key.title":[…]}}`.
 */
export function updateDeployKey(ctx: Ctx<unknown>, project: ProjectRecord, keyId: number, params: { title?: string | undefined; can_push?: boolean | undefined }): { link: DeployKeysProjectRecord; key: KeyRecord } {
  const found = findProjectDeployKey(ctx.db, project, keyId)
  const title = params.title ?? found.key.title
  const errors: string[] = []
  if (title.trim() === '') errors.push("can't be blank")
  if (title.length > 255) errors.push('is too long (maximum is 255 characters)')
  if (errors.length > 0) throw validationFailed({ 'deploy_key.title': errors })
  const key = title === found.key.title ? found.key : ctx.db.tables.keys.update(found.key.id, { title, updated_at: ctx.now })
  const canPush = params.can_push ?? found.link.can_push
  const updated = canPush === found.link.can_push ? found.link : ctx.db.tables.deploy_keys_projects.update(found.link.id, { can_push: canPush, updated_at: ctx.now })
  return { link: updated, key }
}

/**
 * `DELETE /projects/:id/deploy_keys/:key_id`: removes the link; a key left in no project is destroyed.
 * @throws ApiError 404 `{"message":"404 Deploy Key Not Found"}` when the key is not enabled in the project.
 */
export function removeDeployKey(ctx: Ctx<unknown>, project: ProjectRecord, keyId: number): DeployKeysProjectRecord {
  const found = ctx.db.tables.deploy_keys_projects.where('project_id', project.id).find((l) => l.deploy_key_id === keyId)
  if (!found) throw notFound('Deploy Key')
  return found
}

/** Deletes a link and, when it was the key's last, the key (`destroy_orphaned_deploy_key`). */
export function destroyLink(db: Db, link: DeployKeysProjectRecord): void {
  db.tables.deploy_keys_projects.delete(link.id)
  if (db.tables.deploy_keys_projects.where('deploy_key_id', link.deploy_key_id).length === 0) db.tables.keys.delete(link.deploy_key_id)
}

