/**
 * The normalisations of `fakelab verify`: how a recorded value and a simulated value that differ
 * only in what is volatile are still found equal. Volatile values are normalised, not ignored:
 * each rule still compares something (the mapped id, the timestamp's shape, the placeholder's
 * binding, the URL's path). Browser-safe. Source: issue 15 ("Volatile values are normalised").
 *
 * - **ids**: records the session created get the simulator's next ids (and iids), not GitLab's;
 *   each created record's recorded id is mapped to its simulated one ({@link IdMap}), in request
 *   paths, in `id`/`iid`/`<kind>_id` fields and in URL paths.
 * - **timestamps**: ISO 8601 date-times are equal when they have the same shape (digits masked:
 *   the same precision and zone form), and within one object two timestamps must not swap order.
 * - **secrets**: a recorded string holding redaction placeholders (`[REDACTED-3]`) matches any
 *   simulated string of that form, as long as each placeholder always stands for the same value.
 * - **urls**: `http(s)://<recording host>/…` and `git@<recording host>:…` are compared with the
 *   simulator's host in its place, so only the path, query and fragment count.
 * @module
 */
import { PLACEHOLDER } from '../record/redact.js'

/** The normalisations, each on by default. */
export interface Normalisations {
  /** Map created records' ids and iids through the replay's id map. */
  ids: boolean
  /** Compare ISO 8601 date-times by shape (and order within an object). */
  timestamps: boolean
  /** Compare redacted secrets by placeholder. */
  secrets: boolean
  /** Compare URLs by path, with the recording's host mapped to the simulator's. */
  urls: boolean
}

/** Every normalisation on. */
export const DEFAULT_NORMALISATIONS: Readonly<Normalisations> = Object.freeze({ ids: true, timestamps: true, secrets: true, urls: true })

/**
 * Recorded → simulated ids of the records a replayed session created, by kind. Kinds are the
 * collection names of GitLab paths (`labels`, `issues`, `merge_requests`); `<kind>#iid` holds iids.
 */
export class IdMap {
  readonly #kinds = new Map<string, Map<number, number>>()

  /** Notes that the record of `kind` recorded as `recorded` is `simulated` here. */
  set(kind: string, recorded: number, simulated: number): void {
    if (recorded === simulated) return
    let map = this.#kinds.get(kind)
    if (!map) this.#kinds.set(kind, (map = new Map()))
    map.set(recorded, simulated)
  }

  /** The simulated id of a recorded one (the id itself when it was not renamed). */
  get(kind: string, recorded: number): number {
    return this.#kinds.get(kind)?.get(recorded) ?? recorded
  }

  /** Every renamed id, by kind then recorded id. */
  entries(): { kind: string; recorded: number; simulated: number }[] {
    return [...this.#kinds]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([kind, map]) => [...map].sort(([a], [b]) => a - b).map(([recorded, simulated]) => ({ kind, recorded, simulated })))
  }

  /** How many ids were renamed. */
  get size(): number {
    let n = 0
    for (const map of this.#kinds.values()) n += map.size
    return n
  }

  /**
   * Rewrites the numeric segment after each collection in a path (`/projects/20/labels/120` →
   * `/projects/20/labels/121`). Issues and merge requests are addressed by iid in paths.
   */
  renamePath(path: string): string {
    if (this.#kinds.size === 0) return path
    const segments = path.split('/')
    for (let i = 1; i < segments.length; i++) {
      const collection = segments[i - 1]!
      const segment = segments[i]!
      if (!/^\d+$/.test(segment)) continue
      const kind = IID_IN_PATH.has(collection) ? `${collection}#iid` : collection
      segments[i] = String(this.get(kind, Number(segment)))
    }
    return segments.join('/')
  }

  /**
   * Renames the ids a request body names (form-encoded or JSON, top-level parameters): a
   * `<name>_id` parameter names a record of kind `<name>s` (`milestone_id`), and on a
   * `…/labels` path `name` and `label_id` name a label (GitLab's `find_label` reads an id or a
   * title: the Ruby gem's `edit_label` sends the id as `name`). Other values are kept, as is a
   * body that is neither.
   * @param path the request's API path (`/projects/20/labels`).
   * @param contentType the request's `Content-Type`.
   */
  renameBody(text: string, path: string, contentType: string | undefined): string {
    if (this.#kinds.size === 0 || text === '') return text
    const labels = /\/labels(\/[^/]*)?$/.test(path)
    const kindOf = (key: string): string | undefined =>
      labels && (key === 'name' || key === 'label_id') ? 'labels' : /^[a-z]+(_[a-z]+)*_id$/.test(key) ? pluralKind(key.slice(0, -'_id'.length)) : undefined
    const rename = (key: string, value: string): string => {
      const kind = kindOf(key)
      return kind !== undefined && /^\d+$/.test(value) ? String(this.get(kind, Number(value))) : value
    }
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
    if (type === 'application/json') {
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return text
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return text
      const out: Record<string, unknown> = {}
      let changed = false
      for (const [key, value] of Object.entries(body)) {
        const next = typeof value === 'number' || typeof value === 'string' ? rename(key, String(value)) : undefined
        out[key] = next !== undefined && next !== String(value) ? (changed = true, typeof value === 'number' ? Number(next) : next) : value
      }
      return changed ? JSON.stringify(out) : text
    }
    if (type !== 'application/x-www-form-urlencoded' && type !== '') return text
    const params = new URLSearchParams(text)
    let changed = false
    for (const [key, value] of [...params]) {
      const next = rename(key, value)
      if (next !== value) {
        params.set(key, next)
        changed = true
      }
    }
    return changed ? params.toString() : text
  }
}

/** Collections whose paths carry iids, not ids (GitLab's `:issue_iid`, `:merge_request_iid`). */
const IID_IN_PATH = new Set(['issues', 'merge_requests'])

/** Singular field names whose plural is not `<name>s`. */
const PLURALS: Record<string, string> = { user: 'users', owner: 'users', author: 'users', assignee: 'users', closed_by: 'users', merged_by: 'users', namespace: 'namespaces', freeze_period: 'freeze_periods' }

/** The id kind of a singular entity name (`milestone` → `milestones`). */
export function pluralKind(name: string): string {
  return PLURALS[name] ?? (name.endsWith('s') ? name : `${name}s`)
}

/** ISO 8601 date-time with a time part, as GitLab writes `created_at` (`2021-04-01T12:00:00.000Z`). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/

/** Whether `value` is an ISO 8601 date-time (not a bare date: due dates are data, not clock). */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value)
}

/** The shape of a date-time: digits masked, so precision and zone form remain. */
export function timestampShape(value: string): string {
  return value.replace(/\d/g, '9')
}

/** Hosts of the two sides, for URL normalisation. */
export interface Origins {
  /** `scheme://host[:port]` the session was recorded against. */
  recorded: string
  /** `scheme://host[:port]` the simulator answered as. */
  simulated: string
}

/** The recorded string with the recording's origin (and ssh host) replaced by the simulator's. */
export function mapHost(value: string, origins: Origins): string {
  if (origins.recorded === origins.simulated) return value
  let out = value
  if (out.includes(origins.recorded)) out = out.split(origins.recorded).join(origins.simulated)
  const recordedHost = hostOf(origins.recorded)
  const simulatedHost = hostOf(origins.simulated)
  if (recordedHost && simulatedHost && out.includes(`git@${recordedHost}:`)) out = out.split(`git@${recordedHost}:`).join(`git@${simulatedHost}:`)
  return out
}

function hostOf(origin: string): string | undefined {
  return URL.canParse(origin) ? new URL(origin).hostname : undefined
}

/** Whether a string is an absolute http(s) URL or an ssh clone URL. */
export function isUrl(value: string): boolean {
  return /^https?:\/\/[^\s]+$/.test(value) || /^git@[^\s:]+:\S+$/.test(value)
}

/** Renames ids in the path of an http(s) URL (query and fragment kept). */
export function renameUrl(value: string, ids: IdMap): string {
  if (ids.size === 0 || !/^https?:\/\//.test(value)) return value
  const at = value.indexOf('/', value.indexOf('//') + 2)
  if (at < 0) return value
  const end = value.slice(at).search(/[?#]/)
  const path = end < 0 ? value.slice(at) : value.slice(at, at + end)
  const rest = end < 0 ? '' : value.slice(at + end)
  return `${value.slice(0, at)}${ids.renamePath(path)}${rest}`
}

const PLACEHOLDER_GLOBAL = new RegExp(PLACEHOLDER.source, 'g')

/** Whether a recorded string holds a redaction placeholder. */
export function hasPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value)
}

/**
 * Placeholder → the simulated value it stood for, first sighting wins: a later sighting of the
 * same placeholder with another value is a difference.
 */
export class SecretBindings {
  readonly #bound = new Map<string, string>()

  /**
   * Matches a recorded string holding placeholders against a simulated one.
   * @returns true when the text around the placeholders is equal and every placeholder stands for
   *   the value it stood for before (binding it on first sight).
   */
  match(recorded: string, simulated: string): boolean {
    const names: string[] = []
    const source = recorded
      .split(PLACEHOLDER_GLOBAL)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    const placeholders = recorded.match(PLACEHOLDER_GLOBAL) ?? []
    let pattern = source[0]!
    placeholders.forEach((name, i) => {
      names.push(name)
      pattern += `(.+?)${source[i + 1]!}`
    })
    const m = new RegExp(`^${pattern}$`, 's').exec(simulated)
    if (!m) return false
    const fresh = new Map<string, string>()
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      const value = m[i + 1]!
      // A placeholder echoed back unchanged (the request sent it) is trivially itself.
      if (value === name) continue
      const bound = this.#bound.get(name) ?? fresh.get(name)
      if (bound !== undefined && bound !== value) return false
      fresh.set(name, value)
    }
    for (const [name, value] of fresh) this.#bound.set(name, value)
    return true
  }
}
