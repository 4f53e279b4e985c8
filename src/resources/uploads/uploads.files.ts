/**
 * What `FileUploader` knows of a file by its name: CarrierWave's sanitised name and the extension
 * classes of `UploaderHelper`. Source: gitlab: app/uploaders/uploader_helper.rb (13.x `SAFE_IMAGE_EXT`,
 * `DANGEROUS_IMAGE_EXT`, `SAFE_VIDEO_EXT`, `image_or_video?`, `embeddable?`), CarrierWave's
 * `SanitizedFile#sanitize_regexp`.
 * @module
 */
import { extensionOf } from '../../rules/uploads.js'

const SAFE_IMAGE_EXT = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'])
const DANGEROUS_IMAGE_EXT = new Set(['svg'])
const SAFE_VIDEO_EXT = new Set(['mp4', 'm4v', 'mov', 'webm', 'ogv'])

/** `image_or_video?`: a safe image or video extension (so `embeddable?`, served inline to anyone). */
export function isImageOrVideo(filename: string): boolean {
  const ext = extensionOf(filename)
  return SAFE_IMAGE_EXT.has(ext) || SAFE_VIDEO_EXT.has(ext)
}

/** `dangerous_image_or_video?`: SVG, linked as an image in Markdown but never embedded. */
export function isDangerousImageOrVideo(filename: string): boolean {
  return DANGEROUS_IMAGE_EXT.has(extensionOf(filename))
}

/** `pdf?`: served inline too (`UploadsActions#content_disposition`). */
export function isPdf(filename: string): boolean {
  return extensionOf(filename) === 'pdf'
}

/**
 * CarrierWave's sanitised file name: every character but letters, digits, `_`, `.`, `-` and `+`
 * becomes `_` (`/[^[:word:]\.\-\+]/`); a name of only dots gets a leading `_`, an empty one is `unnamed`.
 */
export function sanitizedFilename(file: Blob): string {
  const raw = file instanceof File ? file.name : ''
  // Browsers and Rack keep only the last path component of a multipart file name.
  const base = raw.split(/[\\/]/).pop() ?? ''
  const name = base.replace(/[^\p{L}\p{M}\p{N}_.\-+]/gu, '_')
  if (name === '') return 'unnamed'
  return /^\.+$/.test(name) ? `_${name}` : name
}
