/**
 * Remote mirrors as a store: the URL validation of 13.12's `RemoteMirror` and the writes. No
 * mirroring happens: `update_status` stays what it was (`none` for a new mirror).
 * gitlab: app/models/remote_mirror.rb, app/validators/public_url_validator.rb,
 * app/validators/addressable_url_validator.rb, lib/gitlab/url_blocker.rb (13.12).
 * @module
 */
import { recordNotFound, validationFailed, ValidationMessage } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { urlBlockerProblem } from '../../rules/url-blocker.js'
import type { RemoteMirrorRecord } from './remote-mirrors.tables.js'

/** `public_url: { schemes: %w(ssh git http https) }`. */
const MIRROR_SCHEMES = ['ssh', 'git', 'http', 'https'] as const

/** The settings a client changes. */
export interface RemoteMirrorSettings {
  enabled?: boolean | undefined
  only_protected_branches?: boolean | undefined
  keep_divergent_refs?: boolean | undefined
}

/** A project's remote mirrors, by id. */
export function listRemoteMirrors(db: Db, project: ProjectRecord): RemoteMirrorRecord[] {
  return db.tables.remote_mirrors.where('project_id', project.id).sort((a, b) => a.id - b.id)
}

/**
 * `user_project.remote_mirrors.find(id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord::RecordNotFound).
 */
export function findRemoteMirror(db: Db, project: ProjectRecord, id: number): RemoteMirrorRecord {
  const mirror = Number.isSafeInteger(id) ? db.tables.remote_mirrors.get(id) : undefined
  if (!mirror || mirror.project_id !== project.id) throw recordNotFound()
  return mirror
}

/** An IPv4 literal's octets, or undefined. */
function ipv4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (!m) return undefined
  const octets = m.slice(1).map(Number)
  return octets.every((o) => o <= 255) ? octets : undefined
}

/**
 * `PublicUrlValidator` (`allow_localhost: false`, `allow_local_network: false`, `enforce_user: true`)
 * on a URL: the UrlBlocker's message after `is blocked: `, or undefined when it passes. Host names
 * are not resolved (fakelab has no DNS): only literal loopback, private and link-local addresses and
 * `localhost` are refused (docs/spec-gaps.md).
 */
export function mirrorUrlProblem(url: string): string | undefined {
  const generic = urlBlockerProblem(url, MIRROR_SCHEMES)
  if (generic) return generic
  const parsed = new URL(url.trim())
  // `validate_user`: a user name must start with an alphanumeric character.
  if (parsed.username !== '' && !/^[a-zA-Z0-9]/.test(decodeURIComponent(parsed.username))) {
    return 'is blocked: Username needs to start with an alphanumeric character'
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === '') return 'is blocked: URI is invalid'
  const octets = ipv4(host)
  if (host === 'localhost' || host === '::1' || host === '0.0.0.0' || octets?.[0] === 127) return 'is blocked: Requests to localhost are not allowed'
  if (octets && (octets[0] === 10 || (octets[0] === 172 && octets[1]! >= 16 && octets[1]! <= 31) || (octets[0] === 192 && octets[1] === 168))) {
    return 'is blocked: Requests to the local network are not allowed'
  }
  if (octets && octets[0] === 169 && octets[1] === 254) return 'is blocked: Requests to the link local network are not allowed'
  return undefined
}

/**
 * `project.remote_mirrors.create(params)`: `url` present and public, then stored with
 * `update_status` `none` and no update yet.
 * @throws ApiError 400 `{"message":{"url":["can't be blank"]}}` or `{"url":["is blocked: …"]}`.
 */
export function createRemoteMirror(db: Db, project: ProjectRecord, url: string, settings: RemoteMirrorSettings, now: string): RemoteMirrorRecord {
  const errors: string[] = []
  if (blank(url)) errors.push(ValidationMessage.blank)
  else {
    const problem = mirrorUrlProblem(url)
    if (problem) errors.push(problem)
  }
  if (errors.length > 0) throw validationFailed({ url: errors })
  return db.tables.remote_mirrors.insert({
    project_id: project.id,
    url: url.trim(),
    enabled: settings.enabled ?? false,
    only_protected_branches: settings.only_protected_branches ?? false,
    keep_divergent_refs: settings.keep_divergent_refs ?? false,
    update_status: 'none',
    last_update_at: null,
    last_update_started_at: null,
    last_successful_update_at: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  })
}

/**
 * `Projects::UpdateService` with `remote_mirrors_attributes`: the given settings change;
 * `updated_at` moves only when one does.
 */
export function updateRemoteMirror(db: Db, mirror: RemoteMirrorRecord, settings: RemoteMirrorSettings, now: string): RemoteMirrorRecord {
  const next = {
    enabled: settings.enabled ?? mirror.enabled,
    only_protected_branches: settings.only_protected_branches ?? mirror.only_protected_branches,
    keep_divergent_refs: settings.keep_divergent_refs ?? mirror.keep_divergent_refs,
  }
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== mirror[k])
  return changed ? db.tables.remote_mirrors.update(mirror.id, { ...next, updated_at: now }) : mirror
}
