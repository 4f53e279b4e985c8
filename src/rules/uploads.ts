/**
 * Uploaded files as GitLab keeps and serves them: the bytes stored base64 (so the store stays
 * JSON and the state export carries them), served back outside the API by the uploads controller
 * (`send_upload`) with the type its extension names and Rails' `Content-Disposition`.
 * Used by user avatars and issue metric images. Source: gitlab:
 * app/controllers/concerns/send_file_upload.rb, app/uploaders/gitlab_uploader.rb (`embeddable?`),
 * actionpack's ActionDispatch::Http::ContentDisposition.
 * @module
 */
import { base64ToUint8Array, uint8ArrayToBase64 } from 'uint8array-extras'
import type { Reply } from '../core/route.js'

/** The stored form of uploaded bytes: standard base64 (`Base64.strict_encode64`). */
export function storedBytes(bytes: Uint8Array): string {
  return uint8ArrayToBase64(bytes)
}

/** The bytes of a stored upload (the inverse of `storedBytes`). */
function bytesOfStored(base64: string): Uint8Array {
  return base64ToUint8Array(base64)
}

/** A file name's extension, lower case, without the dot (`''` when it has none). */
export function extensionOf(filename: string): string {
  return /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase() ?? ''
}

/**
 * `Content-Disposition` as Rails formats it: the name ASCII-safe (other characters as `?`, quotes
 * and backslashes escaped) and again percent-encoded in `filename*`.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/**
 * `send_upload`: a 200 with the stored bytes, typed by the file's extension from `types` and shown
 * inline; a file whose extension is not among `types` goes as an `application/octet-stream`
 * attachment.
 * @param types content type by lower-case extension, for the files the uploader embeds.
 */
export function sendUpload(filename: string, base64: string, types: Readonly<Record<string, string>>): Reply {
  const type = types[extensionOf(filename)]
  return {
    status: 200,
    bytes: bytesOfStored(base64),
    headers: {
      'content-type': type ?? 'application/octet-stream',
      'content-disposition': contentDisposition(type ? 'inline' : 'attachment', filename),
    },
  }
}
