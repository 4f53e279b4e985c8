/**
 * Project uploads: `POST /projects/:id/uploads` (a multipart `file`, for Markdown and release
 * links) and the web route serving them back, `/<namespace>/<project>/uploads/:secret/:filename`.
 * The API takes a file from anyone who can read the project (13.12 checks no more than
 * `user_project`; the POST needs a signed-in user). Over the size limit Workhorse, which asked
 * `/uploads/authorize` for it first, cuts the body off with its plain 413. The web route serves
 * images and videos to anyone (`skip_before_action :project` when `embeddable?`); other files only
 * to a reader of the project (a signed-in non-reader gets the HTML 404, an anonymous one the
 * sign-in redirect). Source: issue 34 item 1; gitlab (13.12): lib/api/projects.rb
 * (`post ":id/uploads"`, `project_attachment_size`), app/controllers/projects/uploads_controller.rb,
 * app/controllers/concerns/uploads_actions.rb (`show`), app/controllers/application_controller.rb
 * (`route_not_found`); gitlab-workhorse internal/helper/helpers.go (`RequestEntityTooLarge`).
 * @module
 */
import { signInRedirect, webNotFound } from '../../core/errors.js'
import { p, uploadedBytes } from '../../core/params.js'
import { created } from '../../core/respond.js'
import { route, type Reply, type Route } from '../../core/route.js'
import { canReadProject } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { sendSniffedUpload } from '../../rules/uploads.js'
import { ProjectUpload } from './uploads.entities.js'
import { isImageOrVideo, isPdf } from './uploads.files.js'
import { findProjectUpload, projectAttachmentSize, storeProjectUpload } from './uploads.service.js'

/** Workhorse's answer to a body over `MaximumSize` (Go's `http.Error`). */
function entityTooLarge(): Reply {
  return {
    status: 413,
    bytes: new TextEncoder().encode('Request Entity Too Large\n'),
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  }
}

/** The API route of the uploads area. */
export const uploadRoutes: Route[] = [
  route('POST /projects/:id/uploads', {
    params: { id: p.string({ required: true }), file: p.file({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (uploadedBytes(ctx.params.file).length > projectAttachmentSize(ctx)) return entityTooLarge()
      const upload = storeProjectUpload(ctx, project, ctx.params.file)
      return created(ProjectUpload(upload, ctx.db.projectFullPath(project)))
    },
  }),
]

/** The web route serving project uploads (`Projects::UploadsController#show`). */
export const uploadWebRoutes: Route[] = [
  route('GET /*project/uploads/:secret/:filename', {
    auth: 'optional',
    params: { project: p.string({ required: true }), secret: p.string({ required: true }), filename: p.string({ required: true }) },
    handler(ctx) {
      const project = ctx.db.findProjectByFullPath(ctx.params.project)
      const upload = project && findProjectUpload(ctx, project, ctx.params.secret, ctx.params.filename)
      const embeddable = upload !== undefined && isImageOrVideo(upload.filename)
      // `before_action :project` unless the file is embeddable: `find_routable!` then `route_not_found`.
      if (!embeddable && (!project || !canReadProject(ctx.db, ctx.currentUser, project, ctx.today))) {
        throw ctx.currentUser ? webNotFound() : signInRedirect(ctx.baseUrl)
      }
      if (!upload) throw webNotFound()
      return sendSniffedUpload(upload.filename, upload.data, embeddable || isPdf(upload.filename) ? 'inline' : 'attachment')
    },
  }),
]
