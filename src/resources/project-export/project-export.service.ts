/**
 * Exports and imports: `Projects::ImportExport::ExportService` (run at once: the export is
 * `finished` when the POST answers), `Projects::GitlabProjectsImportService` (a new project from an
 * export file, its import `finished`, or `failed` with the reason when the file is not fakelab's
 * export), and the group twins. gitlab: app/services/projects/import_export/export_service.rb,
 * app/services/projects/gitlab_projects_import_service.rb, app/services/groups/import_export/*.rb (13.12).
 * @module
 */
import { base64ToUint8Array, uint8ArrayToBase64 } from 'uint8array-extras'
import { ApiError, apiMessage } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, UserRecord, Visibility } from '../../db/schema.js'
import { ModelErrors } from '../../rules/model-errors.js'
import { createGroup } from '../groups/groups.public.js'
import { createProject, destroyProject, type ProjectNamespace } from '../projects/projects.public.js'
import { repositorySnapshot, restoreRepository } from '../repository/repository.public.js'
import { exportFilename, readExport, writeExport } from './project-export.archive.js'
import type { ExportUploadRecord, ProjectImportStateRecord } from './project-export.tables.js'

const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public']
const LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 }

/** The finished export file of a project or group, if any. */
export function exportOf(db: Db, kind: 'project' | 'group', ownerId: number): ExportUploadRecord | undefined {
  return db.tables.import_export_uploads.where('owner_id', ownerId).find((u) => u.kind === kind)
}

/** The export file's bytes. */
export function exportBytes(upload: ExportUploadRecord): Uint8Array {
  return base64ToUint8Array(upload.archive)
}

function keepExport(db: Db, kind: 'project' | 'group', ownerId: number, filename: string, bytes: Uint8Array, now: string): void {
  const previous = exportOf(db, kind, ownerId)
  if (previous) db.tables.import_export_uploads.delete(previous.id) // `remove_exports`
  db.tables.import_export_uploads.insert({ kind, owner_id: ownerId, filename, archive: uint8ArrayToBase64(bytes), created_at: now })
}

/** Exports a project: its attributes and repository, in fakelab's export file. */
export function exportProject(db: Db, project: ProjectRecord, now: string): void {
  const data = {
    project: { name: project.name, path: project.path, description: project.description, visibility: project.visibility, default_branch: project.default_branch },
    repository: repositorySnapshot(db, project),
  }
  keepExport(db, 'project', project.id, exportFilename(db.projectFullPath(project), now), writeExport('project', data, now), now)
}

/** Exports a group: its attributes. */
export function exportGroup(db: Db, group: GroupRecord, now: string): void {
  const data = { group: { name: group.name, path: group.path, description: group.description, visibility: group.visibility } }
  keepExport(db, 'group', group.id, exportFilename(db.groupFullPath(group), now), writeExport('group', data, now), now)
}

/** How a project's import went, if it was imported. */
export function importStateOf(db: Db, project: ProjectRecord): ProjectImportStateRecord | undefined {
  return db.tables.project_import_states.where('project_id', project.id)[0]
}

/** What `POST /projects/import` was given. */
export interface ProjectImportParams {
  path: string
  name?: string
  namespace: ProjectNamespace
  overwrite: boolean
  file: Uint8Array
}

/**
 * Imports a project from an export file into a new project. A file fakelab cannot read still makes
 * the project, its import `failed` with the reason (GitLab's import job fails after the project is
 * saved).
 * @throws ApiError 400 `{"message":"<first full message>"}` when the project cannot be saved
 *   (`Path has already been taken`, `Namespace is not valid`).
 */
export function importProject(ctx: Ctx<unknown>, user: UserRecord, params: ProjectImportParams): ProjectRecord {
  let data: Record<string, unknown> | undefined
  let error: string | null = null
  try {
    data = readExport('project', params.file)
  } catch (e) {
    error = (e as Error).message
  }
  const attrs = (data?.project ?? {}) as Record<string, unknown>
  let visibility: Visibility = VISIBILITIES.includes(attrs.visibility as Visibility) ? (attrs.visibility as Visibility) : 'private'
  if (params.namespace.kind === 'group' && LEVEL[params.namespace.group.visibility] < LEVEL[visibility]) visibility = params.namespace.group.visibility
  if (params.overwrite) {
    const ownerId = params.namespace.kind === 'group' ? params.namespace.group.id : params.namespace.user.id
    const existing = ctx.db.tables.projects.where('namespace_id', ownerId).find((p) => p.namespace_type === params.namespace.kind && p.path.toLowerCase() === params.path.toLowerCase())
    if (existing) destroyProject(ctx.db, existing)
  }
  let project: ProjectRecord
  try {
    project = createProject(
      ctx,
      user,
      {
        path: params.path,
        name: params.name ?? params.path,
        description: typeof attrs.description === 'string' ? attrs.description : undefined,
        default_branch: typeof attrs.default_branch === 'string' ? attrs.default_branch : undefined,
        visibility,
        namespace: params.namespace,
      },
      { readsLimitReached: false },
    )
  } catch (e) {
    // gitlab: lib/api/project_import.rb `render_api_error!(project.errors.full_messages&.first, 400)`.
    if (e instanceof ApiError && e.status === 400 && typeof e.body === 'object' && e.body !== null) {
      const messages = (e.body as { message: Record<string, string[]> }).message
      const { base: _base, limit_reached: _limit, ...fields } = messages
      throw apiMessage(400, ModelErrors.from(fields).fullMessages()[0] ?? 'Unable to save project')
    }
    throw e
  }
  if (error === null && data?.repository) {
    try {
      restoreRepository(ctx.db, project, data.repository as Record<string, unknown>)
    } catch (e) {
      error = (e as Error).message
    }
  }
  ctx.db.tables.project_import_states.insert({
    project_id: project.id,
    status: error === null ? 'finished' : 'failed',
    last_error: error,
    correlation_id: ctx.faker.string.alphanumeric({ length: 26, casing: 'upper' }),
  })
  return project
}

/**
 * Imports a group from an export file: `Groups::CreateService` with the path and name given, then
 * the file's description. An unreadable file leaves the group as created (GitLab's import job fails
 * after the group is saved).
 * @throws ApiError 400 `Failed to save group {…}` (createGroup).
 */
export function importGroup(ctx: Ctx<unknown>, params: { path: string; name: string; parent: GroupRecord | null; file: Uint8Array }): GroupRecord {
  let attrs: Record<string, unknown> = {}
  try {
    attrs = (readExport('group', params.file).group ?? {}) as Record<string, unknown>
  } catch {
    attrs = {}
  }
  // gitlab: group_import.rb `closest_allowed_visibility_level`: the parent's level, private at the top.
  const visibility: Visibility = params.parent ? params.parent.visibility : 'private'
  return createGroup(
    ctx,
    { name: params.name, path: params.path, visibility, description: typeof attrs.description === 'string' ? attrs.description : undefined },
    params.parent,
  )
}
