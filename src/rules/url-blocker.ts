/**
 * `AddressableUrlValidator` (the `url:` validation of models) as GitLab 13.12 words its errors:
 * `Gitlab::UrlBlocker.validate!`'s message after `is blocked: `. Local addresses pass (the
 * validator's defaults allow localhost and the local network).
 * Source: gitlab: app/validators/addressable_url_validator.rb, lib/gitlab/url_blocker.rb (13.x).
 * @module
 */

/**
 * The problem of `url` as a model's URL attribute, or undefined when it is valid: `is blocked: URI
 * is invalid` when it does not parse as an absolute URL, `is blocked: Only allowed schemes are
 * <schemes>` when its scheme is not one of `schemes` (lower case, without the colon).
 * @param schemes the validator's `protocols:`, e.g. `['http', 'https']`.
 */
export function urlBlockerProblem(url: string, schemes: readonly string[]): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    return 'is blocked: URI is invalid'
  }
  if (!schemes.includes(parsed.protocol.slice(0, -1))) return `is blocked: Only allowed schemes are ${schemes.join(', ')}`
  return undefined
}
