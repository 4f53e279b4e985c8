/**
 * What a `.gitlab-ci.yml` job gives a runner beyond whether it runs (`Ci::Build#options`): its
 * `before_script`, `script`, `after_script`, `image`, `services`, `artifacts`, `cache`,
 * `dependencies` and `timeout`, with the global `default:` ones (or the legacy top-level `image`,
 * `services`, `before_script`, `after_script`, `cache`) filled in where the job writes none.
 * gitlab (13.12): lib/gitlab/ci/config/entry/job.rb, default.rb, image.rb, service.rb,
 * artifacts.rb, cache.rb (`DEFAULT_POLICY`, `DEFAULT_WHEN`), key.rb, lib/gitlab/ci/yaml_processor.rb
 * (`build_attributes` options), ChronicDuration for `timeout`.
 * @module
 */
import type { JobArtifactsOption, JobCacheOption, JobImage, JobOptions } from './runners.tables.js'

/** The global defaults a job inherits (`default:` over the legacy top-level keys). */
export interface GlobalDefaults {
  readonly before_script?: string[] | undefined
  readonly after_script?: string[] | undefined
  readonly image?: JobImage | undefined
  readonly services?: JobImage[] | undefined
  readonly cache?: JobCacheOption[] | undefined
  readonly timeout?: number | undefined
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A script (`Entry::Commands`): a string or an array of strings (nested arrays flattened). */
function commands(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flat(10).map(String)
  return undefined
}

function strings(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.map(String) : undefined
}

/** `image:` or one service (`Entry::Image`, `Entry::Service`). */
function image(value: unknown): JobImage | undefined {
  if (typeof value === 'string') return value === '' ? undefined : { name: value }
  if (!isMapping(value) || typeof value.name !== 'string') return undefined
  return { name: value.name, entrypoint: strings(value.entrypoint), alias: typeof value.alias === 'string' ? value.alias : undefined, command: strings(value.command) }
}

function services(value: unknown): JobImage[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.map(image).filter((s): s is JobImage => s !== undefined)
}

/** `artifacts:` (`Entry::Artifacts`): only the keys written. */
function artifacts(value: unknown): JobArtifactsOption | undefined {
  if (!isMapping(value)) return undefined
  return {
    name: typeof value.name === 'string' ? value.name : undefined,
    untracked: typeof value.untracked === 'boolean' ? value.untracked : undefined,
    paths: strings(value.paths),
    exclude: strings(value.exclude),
    when: typeof value.when === 'string' ? value.when : undefined,
    expire_in: typeof value.expire_in === 'string' || typeof value.expire_in === 'number' ? String(value.expire_in) : undefined,
  }
}

/** One `cache:` (`Entry::Cache`): key `default`, policy `pull-push`, when `on_success` unless written. */
function cacheEntry(value: unknown): JobCacheOption | undefined {
  if (!isMapping(value)) return undefined
  const key = typeof value.key === 'string' || typeof value.key === 'number' ? String(value.key) : isMapping(value.key) ? keyFiles(value.key) : 'default'
  return {
    key,
    untracked: value.untracked === true,
    paths: strings(value.paths) ?? [],
    policy: typeof value.policy === 'string' ? value.policy : 'pull-push',
    when: typeof value.when === 'string' ? value.when : 'on_success',
  }
}

/** `key: {files, prefix}` as the runner is sent it before GitLab hashes the files: the prefix or `default`. */
function keyFiles(key: Record<string, unknown>): string {
  // spec-gap: GitLab sends the SHA of the files' last commits; fakelab sends the prefix (or `default`).
  return typeof key.prefix === 'string' ? key.prefix : 'default'
}

/** `cache:` (13.12 takes one mapping or an array of them: `multiple_cache_per_job`). */
function cache(value: unknown): JobCacheOption[] | undefined {
  if (value === undefined || value === null) return undefined
  const list = Array.isArray(value) ? value : [value]
  return list.map(cacheEntry).filter((c): c is JobCacheOption => c !== undefined)
}

/**
 * `timeout:` in seconds (ChronicDuration: `1h 30m`, `90 minutes`, `3600`, `2 hours`...); undefined
 * for none or one fakelab cannot read.
 */
function durationSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value)
  if (typeof value !== 'string') return undefined
  const text = value.trim().toLowerCase()
  if (/^\d+$/.test(text)) return Number(text)
  const units: Record<string, number> = { s: 1, sec: 1, secs: 1, second: 1, seconds: 1, m: 60, min: 60, mins: 60, minute: 60, minutes: 60, h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600, d: 86400, day: 86400, days: 86400, w: 604800, week: 604800, weeks: 604800 }
  let total = 0
  let matched = false
  const rest = text.replace(/(\d+(?:\.\d+)?)\s*([a-z]+)/g, (_m, n: string, unit: string) => {
    const factor = units[unit]
    if (factor === undefined) return _m
    total += Number(n) * factor
    matched = true
    return ''
  })
  return matched && rest.replace(/and|,/g, '').trim() === '' ? Math.round(total) : undefined
}

/** The global defaults of a document: `default:`'s keys over the legacy top-level ones. */
export function globalDefaultsOf(doc: Record<string, unknown>): GlobalDefaults {
  const d = isMapping(doc.default) ? doc.default : {}
  const pick = (key: string) => (d[key] !== undefined ? d[key] : doc[key])
  return {
    before_script: commands(pick('before_script')),
    after_script: commands(pick('after_script')),
    image: image(pick('image')),
    services: services(pick('services')),
    cache: cache(pick('cache')),
    timeout: durationSeconds(d.timeout),
  }
}

/** A job's options (see the module comment), the defaults filled in where it writes none. */
export function jobOptionsOf(body: Record<string, unknown>, defaults: GlobalDefaults): JobOptions {
  return {
    before_script: commands(body.before_script) ?? defaults.before_script,
    script: commands(body.script) ?? [],
    after_script: commands(body.after_script) ?? defaults.after_script,
    image: body.image !== undefined ? image(body.image) : defaults.image,
    services: body.services !== undefined ? services(body.services) : defaults.services,
    artifacts: artifacts(body.artifacts),
    cache: body.cache !== undefined ? cache(body.cache) : defaults.cache,
    dependencies: strings(body.dependencies),
    timeout: durationSeconds(body.timeout) ?? defaults.timeout,
  }
}
