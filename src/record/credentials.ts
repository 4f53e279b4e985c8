/**
 * Credentials of recorded requests: where a request carries its token (in GitLab's order), the
 * token an imported scenario gives each redaction placeholder, and the rewriting of recorded
 * requests so they send that token. The recorder, `fakelab import` and `fakelab verify` share it,
 * so all three tie a credential to the same user. Browser-safe.
 *
 * The rule (docs/record-replay.md, "Tokens"): a cassette never holds a secret, only its
 * placeholder `[REDACTED-n]` and, in `log._fakelab.credentials`, the user it authenticates as. An
 * imported scenario gives that user the token `glpat-imported-<n>` (printed by `fakelab import`),
 * or the value the user passes with `--token`, so a client re-run unchanged with its own token
 * authenticates as the recorded user. Source: issue 23 item 20; issue 28 item 7.
 * @module
 */
import type { Header } from 'har-format'
import { harHeader } from './har.js'

/** A credential as a request sent it. */
export interface SentCredential {
  /** `PRIVATE-TOKEN`, `Authorization: Bearer`, `JOB-TOKEN`, `private_token=`, `access_token=` or `job_token=`. */
  sentAs: string
  /** The credential itself (a secret while recording, a placeholder in a cassette). */
  value: string
}

/**
 * The credential of a request, looked up where GitLab looks first (`private_token`,
 * `PRIVATE-TOKEN`, a bearer `Authorization`, `access_token`), then job tokens (`job_token`,
 * `JOB-TOKEN`). Undefined for an anonymous request (or Basic and session-cookie ones).
 * Source: gitlab `lib/gitlab/auth/auth_finders.rb`.
 */
export function credentialOf(headers: readonly Header[], url: URL): SentCredential | undefined {
  const query = url.searchParams
  const candidates: [string, string | null | undefined][] = [
    ['private_token=', query.get('private_token')],
    ['PRIVATE-TOKEN', harHeader(headers, 'private-token')],
    ['Authorization: Bearer', /^Bearer\s+(.+)$/i.exec(harHeader(headers, 'authorization') ?? '')?.[1]?.trim()],
    ['access_token=', query.get('access_token')],
    ['job_token=', query.get('job_token')],
    ['JOB-TOKEN', harHeader(headers, 'job-token')],
  ]
  for (const [sentAs, value] of candidates) if (value) return { sentAs, value }
  return undefined
}

/** Whether a credential sent this way is a CI job token (a scenario job token, not a personal one). */
export function isJobToken(sentAs: string): boolean {
  return sentAs === 'JOB-TOKEN' || sentAs === 'job_token='
}

/**
 * The token an imported scenario gives the credential of a placeholder: `[REDACTED-3]` →
 * `glpat-imported-3`. GitLab's personal-token prefix keeps it redacted if it is ever recorded.
 */
export function importedToken(placeholder: string): string {
  return `glpat-imported-${/\d+/.exec(placeholder)?.[0] ?? '0'}`
}

/**
 * A recorded request's headers and URL with each placeholder of `tokens` replaced by its token
 * (in header values and in the query, raw or percent-encoded), so the request authenticates
 * against a scenario that holds those tokens.
 */
export function substituteCredentials(headers: readonly Header[], url: string, tokens: ReadonlyMap<string, string>): { headers: Header[]; url: string } {
  if (tokens.size === 0) return { headers: [...headers], url }
  const swap = (text: string, encode: boolean): string => {
    let out = text
    for (const [placeholder, token] of tokens) {
      out = out.split(placeholder).join(encode ? encodeURIComponent(token) : token)
      if (encode) out = out.split(encodeURIComponent(placeholder)).join(encodeURIComponent(token))
    }
    return out
  }
  const at = url.indexOf('?')
  return {
    headers: headers.map((h) => ({ ...h, value: swap(h.value, false) })),
    url: at < 0 ? url : `${url.slice(0, at)}${swap(url.slice(at), true)}`,
  }
}
