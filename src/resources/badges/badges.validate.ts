/**
 * The badge model's validations. gitlab: app/models/badge.rb
 * (`validates :link_url, :image_url, url: { protocols: %w(http https) }`).
 * @module
 */
import { urlBlockerProblem } from '../../rules/url-blocker.js'

/** The URL schemes a badge's URLs may use. */
const SCHEMES = ['http', 'https'] as const

/**
 * The badge's errors by attribute (`link_url`, then `image_url`), empty when valid: each URL must
 * parse and use http or https (`is blocked: URI is invalid`, `is blocked: Only allowed schemes are
 * http, https`).
 */
export function badgeErrors(badge: { link_url: string; image_url: string }): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  for (const attribute of ['link_url', 'image_url'] as const) {
    const problem = urlBlockerProblem(badge[attribute], SCHEMES)
    if (problem) errors[attribute] = [problem]
  }
  return errors
}
