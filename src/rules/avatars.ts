/**
 * Avatars as GitLab's `Avatarable` validates them and `AvatarUploader` keeps them, shared by the
 * user, project and group avatars: the image extensions served (and their types), the 200 KB limit,
 * the model errors of a bad upload, CarrierWave's file-name sanitising, and the reply serving a
 * stored avatar (`send_upload`). Source: gitlab (13.12): app/models/concerns/avatarable.rb
 * (`avatar_type`, `file_size: { maximum: 200.kilobytes }`), app/uploaders/avatar_uploader.rb
 * (`SAFE_IMAGE_EXT`), CarrierWave's `sanitize_regexp`.
 * @module
 */
import { uploadedBytes } from '../core/params.js'
import type { Reply } from '../core/route.js'
import type { Db } from '../db/db.js'
import { extensionOf, sendUpload } from './uploads.js'

/** `AvatarUploader::SAFE_IMAGE_EXT` and the type each is served with. */
const AVATAR_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
}

/** `validates :avatar, file_size: { maximum: 200.kilobytes.to_i }`. */
const AVATAR_MAX_BYTES = 200 * 1024

/** The stored name of an uploaded avatar: CarrierWave's default `sanitize_regexp` (`/[^[:word:]\.\-\+]/` → `_`). */
export function avatarFilename(file: Blob): string {
  const name = file instanceof File && file.name !== '' ? file.name : 'blob'
  return name.replace(/[^\p{L}\p{N}_.\-+]/gu, '_')
}

/**
 * The model errors of an uploaded avatar (`avatar_type`, then the size check), none when it is
 * acceptable or absent: `{"avatar": ["file format is not supported. …", "is too big (should be at most 200 KB)"]}`.
 */
export function avatarErrors(file: Blob | undefined): Record<string, string[]> {
  if (file === undefined) return {}
  const messages: string[] = []
  if (!(extensionOf(avatarFilename(file)) in AVATAR_TYPES)) {
    messages.push(`file format is not supported. Please try one of the following supported formats: ${Object.keys(AVATAR_TYPES).join(', ')}`)
  }
  if (uploadedBytes(file).length > AVATAR_MAX_BYTES) messages.push('is too big (should be at most 200 KB)')
  return messages.length > 0 ? { avatar: messages } : {}
}

/**
 * `send_upload` of a stored avatar: stored avatars always have one of the image extensions, so
 * they go inline with their type.
 */
export function sendAvatar(filename: string, base64: string): Reply {
  return sendUpload(filename, base64, AVATAR_TYPES)
}

/** The file name of a project's or group's uploaded avatar, undefined without one. */
export type AvatarFinder = (db: Db, id: number) => string | undefined

/** The finders the projects and groups areas register (this layer imports no area); none: no avatar. */
const finders: Record<'project' | 'group', AvatarFinder> = { project: () => undefined, group: () => undefined }

/**
 * Plugs in the area that keeps the uploaded avatars of `kind` (the projects area its
 * `project_avatars`, the groups area its `group_avatars`). Called once at start.
 */
export function registerAvatarFinder(kind: 'project' | 'group', finder: AvatarFinder): void {
  finders[kind] = finder
}

/**
 * The `avatar_url` of a project or group (`Avatarable#avatar_url`): its uploaded avatar under the
 * request's base URL, `<base>/uploads/-/system/<project|group>/avatar/<id>/<filename>`, or null
 * without one. Source: gitlab: app/models/concerns/avatarable.rb, app/uploaders/avatar_uploader.rb.
 */
export function storedAvatarUrl(ctx: { db: Db; baseUrl: string }, kind: 'project' | 'group', id: number): string | null {
  const filename = finders[kind](ctx.db, id)
  return filename !== undefined ? `${ctx.baseUrl}/uploads/-/system/${kind}/avatar/${id}/${encodeURIComponent(filename)}` : null
}
