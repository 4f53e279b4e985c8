/**
 * The remote mirror entity. gitlab: lib/api/entities/remote_mirror.rb, app/models/remote_mirror.rb
 * (`safe_url`), app/models/concerns/safe_url.rb (13.12).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { RemoteMirrorRecord, UpdateStatus } from './remote-mirrors.tables.js'

/** GitLab's `Entities::RemoteMirror` (13.12), in its field order. */
export interface RemoteMirrorEntity {
  id: number
  enabled: boolean
  /** The URL with its password and user name masked (`*****`); the user `git` stays. */
  url: string
  update_status: UpdateStatus
  last_update_at: string | null
  last_update_started_at: string | null
  last_successful_update_at: string | null
  last_error: string | null
  only_protected_branches: boolean
  keep_divergent_refs: boolean
}

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i

/**
 * `safe_url(allowed_usernames: %w[git])`: `https://user:pass@host/x` → `https://*****:*****@host/x`;
 * a user name alone is masked unless it is `git`; the rest of the URL is left as given.
 */
function safeUrl(url: string): string {
  const match = USERINFO.exec(url)
  if (!match) return url
  const userinfo = match[2]!
  const colon = userinfo.indexOf(':')
  const user = colon === -1 ? userinfo : userinfo.slice(0, colon)
  const password = colon === -1 ? undefined : userinfo.slice(colon + 1)
  const maskedUser = user !== '' && user !== 'git' ? '*****' : user
  const maskedPassword = password === undefined ? '' : password !== '' ? ':*****' : ':'
  return `${match[1]}${maskedUser}${maskedPassword}@${url.slice(match[0].length)}`
}

/** `{id, enabled, url, update_status, last_update_at, …, keep_divergent_refs}`. */
export function RemoteMirror(mirror: RemoteMirrorRecord, _ctx?: PresentCtx): RemoteMirrorEntity {
  return {
    id: mirror.id,
    enabled: mirror.enabled,
    url: safeUrl(mirror.url),
    update_status: mirror.update_status,
    last_update_at: mirror.last_update_at,
    last_update_started_at: mirror.last_update_started_at,
    last_successful_update_at: mirror.last_successful_update_at,
    last_error: mirror.last_error,
    only_protected_branches: mirror.only_protected_branches,
    keep_divergent_refs: mirror.keep_divergent_refs,
  }
}
