/**
 * The bytes of an uploaded metric image, served at the `file_path` its entity shows, outside the
 * API: `GET /uploads/-/system/issuable_metric_image/file/:id/:filename`. GitLab serves it from a
 * web controller, so only a signed-in browser session counts (no access tokens), the answers are
 * the web's (an HTML 404, a redirect to sign in), and the reader needs `read_issuable_metric_image`
 * (= `read_issue` on its incident). Source: issue 8 ("the uploaded bytes are kept in memory and
 * served back at their url"); gitlab: app/controllers/uploads_controller.rb (13.x
 * `authorize_access!`, `show`), ee/app/controllers/ee/uploads_controller.rb (`issuable_metric_image`),
 * app/controllers/concerns/send_file_upload.rb, app/uploaders/gitlab_uploader.rb (`embeddable?`).
 * @module
 */
import { canReadProject, issueVisibleTo } from '../../rules/access.js'
import { signInRedirect, webNotFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { route, type Route } from '../../core/route.js'
import { rubyToI } from '../../core/ruby.js'
import { sendUpload } from '../../rules/uploads.js'

/**
 * Content types GitLab sends by the file's extension (`MIME::Types.type_for`), for the images and
 * videos it shows inline (`embeddable?`); anything else is an `application/octet-stream` attachment.
 */
const EMBEDDABLE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  tif: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
}

/** The web routes of the issues area. */
export const metricImageWebRoutes: Route[] = [
  route('GET /uploads/-/system/issuable_metric_image/file/:id/:filename', {
    auth: 'optional',
    params: { id: p.string({ required: true }), filename: p.string({ required: true }) },
    handler(ctx) {
      // `find_model` (ActiveRecord's cast of the id, as Ruby's to_i), then the stored file by name.
      const image = ctx.db.tables.issuable_metric_images.get(rubyToI(ctx.params.id))
      if (!image || image.filename !== ctx.params.filename) throw webNotFound()
      const issue = ctx.db.tables.issues.get(image.issue_id)
      const project = issue && ctx.db.tables.projects.get(issue.project_id)
      if (!issue || !project) throw webNotFound()
      const user = ctx.currentUser
      const readable = canReadProject(ctx.db, user, project, ctx.today) && issueVisibleTo(ctx.db, user, project, ctx.today)(issue)
      // `authorize_access!`: a signed-in reader who may not see it gets the 404; anonymous, sign in.
      if (!readable) throw user ? webNotFound() : signInRedirect(ctx.baseUrl)
      return sendUpload(image.filename, image.data, EMBEDDABLE_TYPES)
    },
  }),
]
