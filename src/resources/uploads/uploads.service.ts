/**
 * Storing a project upload (`UploadService#execute`, `FileUploader#store!`): the size limit the
 * API applies in 13.12, a fresh secret, the bytes. Source: gitlab: app/services/upload_service.rb,
 * app/uploaders/file_uploader.rb (`generate_secret`: `SecureRandom.hex`), lib/api/projects.rb
 * (`project_attachment_size`, `PROJECT_ATTACHMENT_SIZE_EXEMPT = 1.gigabyte`).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import { uploadedBytes } from '../../core/params.js'
import type { ProjectRecord } from '../../db/schema.js'
import { storedBytes } from '../../rules/uploads.js'
import { sanitizedFilename } from './uploads.files.js'
import type { ProjectUploadRecord } from './uploads.tables.js'

/** `PROJECT_ATTACHMENT_SIZE_EXEMPT`: the limit while `enforce_max_attachment_size_upload_api` is off. */
const ATTACHMENT_SIZE_EXEMPT = 1024 * 1024 * 1024

/**
 * `project_attachment_size`: the largest file `POST /projects/:id/uploads` takes, in bytes: the
 * instance's `max_attachment_size` (megabytes) when the feature flag is on, else 1 GB (13.12's default).
 */
export function projectAttachmentSize(ctx: Ctx<unknown>): number {
  const settings = ctx.db.tables.upload_settings.get(1)
  if (!settings?.enforce_max_attachment_size_upload_api) return ATTACHMENT_SIZE_EXEMPT
  return settings.max_attachment_size * 1024 * 1024
}

/** A fresh `SecureRandom.hex` secret (32 lower-case hex digits) from the seeded faker, unused in the project. */
function newSecret(ctx: Ctx<unknown>, project: ProjectRecord): string {
  const taken = new Set(ctx.db.tables.project_uploads.where('project_id', project.id).map((u) => u.secret))
  let secret: string
  do secret = ctx.faker.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' })
  while (taken.has(secret))
  return secret
}

/** Keeps `file` as an upload of `project`, by the current user; the caller checked its size. */
export function storeProjectUpload(ctx: Ctx<unknown>, project: ProjectRecord, file: Blob): ProjectUploadRecord {
  const bytes = uploadedBytes(file)
  return ctx.db.tables.project_uploads.insert({
    project_id: project.id,
    secret: newSecret(ctx, project),
    filename: sanitizedFilename(file),
    data: storedBytes(bytes),
    size: bytes.length,
    uploaded_by_user_id: ctx.currentUser?.id ?? null,
    created_at: ctx.now,
  })
}

/** The upload of `project` at `secret`/`filename`, if there is one. */
export function findProjectUpload(ctx: Ctx<unknown>, project: ProjectRecord, secret: string, filename: string): ProjectUploadRecord | undefined {
  return ctx.db.tables.project_uploads.where('secret', secret).find((u) => u.project_id === project.id && u.filename === filename)
}
