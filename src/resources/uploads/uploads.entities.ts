/**
 * The answer of `POST /projects/:id/uploads`: `Entities::ProjectUpload`, the uploader's `alt`,
 * `url`, `full_path` and `markdown`. Source: gitlab: lib/api/entities/project_upload.rb (13.x),
 * app/uploaders/file_uploader.rb (`markdown_name`, `secure_url`, `markdown_link`),
 * app/uploaders/uploader_helper.rb (`image_or_video?`, `dangerous_image_or_video?`).
 * @module
 */
import type { ProjectUploadRecord } from './uploads.tables.js'
import { isDangerousImageOrVideo, isImageOrVideo } from './uploads.files.js'

/**
 * A path segment as Rails' route helpers write it (`Journey::Router::Utils.escape_segment`): every
 * character but the unreserved ones and the sub-delimiters, `:` and `@` percent-encoded.
 */
function escapeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * `Entities::ProjectUpload`: `alt` (the name without its extension for an image or video, else the
 * whole name; `]` escaped), `url` (`/uploads/<secret>/<filename>`, relative to the project, as
 * Markdown links it), `full_path` (`show_project_uploads_path`: `/<namespace>/<project>/uploads/…`),
 * `markdown` (`[alt](url)`, with `!` for an image or video, SVG included).
 */
export function ProjectUpload(upload: ProjectUploadRecord, projectFullPath: string) {
  const alt = (isImageOrVideo(upload.filename) ? upload.filename.replace(/(?<=[^.])\.[^.]*$/, '') : upload.filename).replaceAll(']', '\\]')
  const url = `/uploads/${upload.secret}/${upload.filename}`
  const fullPath = `/${projectFullPath}/uploads/${upload.secret}/${escapeSegment(upload.filename)}`
  const image = isImageOrVideo(upload.filename) || isDangerousImageOrVideo(upload.filename)
  return {
    alt,
    url,
    full_path: fullPath,
    markdown: `${image ? '!' : ''}[${alt}](${url})`,
  }
}

/** The JSON of `Entities::ProjectUpload`. */
export type ProjectUploadEntity = ReturnType<typeof ProjectUpload>
