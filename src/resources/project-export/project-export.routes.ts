/**
 * Project and group export and import: `POST /projects/:id/export` (202), `GET .../export`
 * (`ProjectExportStatus`), `GET .../export/download` (the tar.gz), `POST /projects/import`
 * (multipart `file`, `path`, `name`, `namespace`, `overwrite`; 201 `ProjectImportStatus`),
 * `GET /projects/:id/import`; `POST /groups/:id/export`, `GET /groups/:id/export/download`,
 * `POST /groups/import` (202). Project exports need `admin_project` (Maintainer+), group exports
 * `admin_group` (Owner). gitlab: lib/api/project_export.rb, project_import.rb, group_export.rb,
 * group_import.rb, lib/api/entities/project_export_status.rb, project_import_status.rb (13.12).
 * @module
 */
import { apiMessage, forbidden } from '../../core/errors.js'
import { p, uploadedBytes } from '../../core/params.js'
import { acceptedReply, created, ok } from '../../core/respond.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { ProjectIdentity } from '../../entities/project.js'
import { projectApiUrl, projectWebUrl } from '../../entities/urls.js'
import { AccessLevel, hasGroupAccess, hasProjectAccess } from '../../rules/access.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { findNamespaceForCaller } from '../projects/projects.public.js'
import { exportBytes, exportGroup, exportOf, exportProject, importGroup, importProject, importStateOf } from './project-export.service.js'
import type { ExportUploadRecord } from './project-export.tables.js'

const id = p.string({ required: true })

/** `authorize_admin_project`. */
function adminProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
  return project
}

/** `present_carrierwave_file!`: the file as an attachment. */
function download(upload: ExportUploadRecord): Reply {
  return {
    status: 200,
    bytes: exportBytes(upload),
    headers: { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="${upload.filename}"; filename*=UTF-8''${encodeURIComponent(upload.filename)}` },
  }
}

/** `ProjectImportStatus`: `ProjectIdentity`, import_status, correlation_id, failed_relations, import_error. */
function ProjectImportStatus(project: ProjectRecord, ctx: Ctx<unknown>) {
  const state = importStateOf(ctx.db, project)
  return {
    ...ProjectIdentity(project, ctx),
    import_status: state?.status ?? 'none',
    correlation_id: state?.correlation_id ?? null,
    failed_relations: [],
    import_error: state?.last_error ?? null,
  }
}

/** The export and import routes. */
export const exportRoutes: Route[] = [
  route('GET /projects/:id/export', {
    params: { id },
    handler(ctx) {
      const project = adminProject(ctx)
      const finished = exportOf(ctx.db, 'project', project.id) !== undefined
      return ok({
        ...ProjectIdentity(project, ctx),
        export_status: finished ? 'finished' : 'none',
        ...(finished ? { _links: { api_url: `${projectApiUrl(ctx, project)}/export/download`, web_url: `${projectWebUrl(ctx, project)}/download_export` } } : {}),
      })
    },
  }),

  route('GET /projects/:id/export/download', {
    params: { id },
    handler(ctx) {
      const upload = exportOf(ctx.db, 'project', adminProject(ctx).id)
      if (!upload) throw apiMessage(404, '404 Not found or has expired')
      return download(upload)
    },
  }),

  route('POST /projects/:id/export', {
    params: { id, description: p.string(), upload: p.hash() },
    handler(ctx) {
      exportProject(ctx.db, adminProject(ctx), ctx.now)
      return acceptedReply()
    },
  }),

  route('POST /projects/import', {
    params: {
      path: p.string({ required: true }),
      name: p.string(),
      namespace: p.string(),
      overwrite: p.boolean({ default: false }),
      override_params: p.hash(),
      file: p.file({ required: true }),
    },
    handler(ctx) {
      const user = ctx.currentUser!
      const namespace = ctx.params.namespace !== undefined ? findNamespaceForCaller(ctx, ctx.params.namespace) : { kind: 'user' as const, user }
      const project = importProject(ctx, user, { path: ctx.params.path, name: ctx.params.name, namespace, overwrite: ctx.params.overwrite, file: uploadedBytes(ctx.params.file) })
      return created(ProjectImportStatus(project, ctx))
    },
  }),

  route('GET /projects/:id/import', {
    auth: 'optional',
    params: { id },
    handler(ctx) {
      return ok(ProjectImportStatus(findProject(ctx, ctx.params.id), ctx))
    },
  }),

  route('POST /groups/:id/export', {
    params: { id },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      if (!hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.OWNER, ctx.today)) throw forbidden()
      exportGroup(ctx.db, group, ctx.now)
      return acceptedReply()
    },
  }),

  route('GET /groups/:id/export/download', {
    params: { id },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      if (!hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.OWNER, ctx.today)) throw forbidden()
      const upload = exportOf(ctx.db, 'group', group.id)
      if (!upload) throw apiMessage(404, '404 Not found or has expired')
      return download(upload)
    },
  }),

  route('POST /groups/import', {
    params: { path: p.string({ required: true }), name: p.string({ required: true }), parent_id: p.integer(), file: p.file({ required: true }) },
    handler(ctx) {
      const user = ctx.currentUser!
      const parent = ctx.params.parent_id !== undefined ? findGroup(ctx, ctx.params.parent_id) : null
      // gitlab: `authorize! :create_subgroup, parent_group` (Maintainer+ in 13.x) or `:create_group`.
      if (parent ? !hasGroupAccess(ctx.db, user, parent, AccessLevel.MAINTAINER, ctx.today) : !(user.admin || user.can_create_group)) throw forbidden()
      importGroup(ctx, { path: ctx.params.path, name: ctx.params.name, parent, file: uploadedBytes(ctx.params.file) })
      return acceptedReply() // the import continues in a job on GitLab
    },
  }),
]
