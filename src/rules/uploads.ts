/**
 * Uploaded files as GitLab keeps and serves them: the bytes stored base64 (so the store stays
 * JSON and the state export carries them), served back outside the API by the uploads controller
 * (`send_upload`) with the type its extension names and Rails' `Content-Disposition`.
 * Used by user, project and group avatars (through src/rules/avatars.ts), issue metric images and
 * project uploads (which Workhorse types by their content, {@link sendSniffedUpload}). Source: gitlab:
 * app/controllers/concerns/send_file_upload.rb, app/controllers/concerns/uploads_actions.rb,
 * app/uploaders/gitlab_uploader.rb (`embeddable?`), actionpack's ActionDispatch::Http::ContentDisposition,
 * gitlab-workhorse: internal/headers/content_headers.go (`SafeContentHeaders`), Go's net/http sniff.go.
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

/**
 * The content type Workhorse gives a file it serves with `Gitlab-Workhorse-Detect-Content-Type`:
 * SVG first (Go's sniffer calls it text), then Go's `http.DetectContentType` signatures over the
 * first 512 bytes, with every `text/*` answer made `text/plain; charset=utf-8` (so HTML and
 * scripts never render). Source: gitlab-workhorse internal/headers/content_headers.go
 * (`safeContentType`), Go's net/http/sniff.go (the signatures fakelab checks are the image,
 * video, PDF, PostScript and archive ones; audio and fonts fall to the text/binary test).
 */
function sniffedContentType(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 512)
  const ascii = String.fromCharCode(...head)
  const text = ascii.replace(/^[\t\n\f\r ]+/, '')
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(text)) return 'image/svg+xml'
  const starts = (sig: string, at = 0): boolean => ascii.startsWith(sig, at)
  if (starts('%PDF-')) return 'application/pdf'
  if (starts('%!PS-Adobe-')) return 'application/postscript'
  if (starts('\x00\x00\x01\x00') || starts('\x00\x00\x02\x00')) return 'image/x-icon'
  if (starts('BM')) return 'image/bmp'
  if (starts('GIF87a') || starts('GIF89a')) return 'image/gif'
  if (starts('RIFF') && starts('WEBPVP', 8)) return 'image/webp'
  if (starts('\x89PNG\r\n\x1a\n')) return 'image/png'
  if (starts('\xff\xd8\xff')) return 'image/jpeg'
  if (starts('ftyp', 4) && isMp4(head)) return 'video/mp4'
  if (starts('\x1a\x45\xdf\xa3')) return 'video/webm'
  if (starts('OggS\x00')) return 'application/ogg'
  if (starts('\x1f\x8b\x08')) return 'application/x-gzip'
  if (starts('PK\x03\x04')) return 'application/zip'
  if (starts('Rar!\x1a\x07\x00') || starts('Rar!\x1a\x07\x01\x00')) return 'application/x-rar-compressed'
  if (starts('\x00asm')) return 'application/wasm'
  // Go's text test: no byte that only binary data has.
  for (const b of head) if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return 'application/octet-stream'
  return 'text/plain; charset=utf-8'
}

/** Go's `mp4Sig`: a box size that is a multiple of 4 within the data, and an `mp4` brand among its brands. */
function isMp4(head: Uint8Array): boolean {
  if (head.length < 12) return false
  const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0
  if (boxSize % 4 !== 0 || head.length < boxSize) return false
  for (let st = 8; st < boxSize; st += 4) {
    if (st === 12) continue // the minor version
    if (head[st] === 0x6d && head[st + 1] === 0x70 && head[st + 2] === 0x34) return true
  }
  return false
}

/**
 * `send_upload` behind Workhorse's content detection (`UploadsActions#show`): Rails asks for
 * `disposition` (inline for what the uploader embeds or a PDF, else attachment) with the file name;
 * Workhorse types the bytes by their content ({@link sniffedContentType}) and keeps `inline` only
 * for images (not SVG), text, video and PDF. `Cache-Control` is `expires_in 0, private: true,
 * must_revalidate: true`'s. Source: gitlab: app/controllers/concerns/uploads_actions.rb (`show`,
 * `content_disposition`); gitlab-workhorse internal/headers/content_headers.go (`safeContentDisposition`).
 */
export function sendSniffedUpload(filename: string, base64: string, disposition: 'inline' | 'attachment'): Reply {
  const bytes = bytesOfStored(base64)
  const type = sniffedContentType(bytes)
  const inlineable = type !== 'image/svg+xml' && /^(image\/|text\/|video\/)|application\/pdf/.test(type)
  return {
    status: 200,
    bytes,
    headers: {
      'content-type': type,
      'content-disposition': contentDisposition(disposition === 'inline' && inlineable ? 'inline' : 'attachment', filename),
      'cache-control': 'max-age=0, private, must-revalidate',
    },
  }
}
