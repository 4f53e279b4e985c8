/**
 * The runner API's rules on an uploaded artifacts file (`Ci::JobArtifacts::CreateService`): the
 * artifact types and formats 13.12 declares, the instance's size limit (`max_artifacts_size`,
 * 100 MB), when it expires (`expire_in`, else the instance's `default_artifacts_expire_in`,
 * 30 days; `never` keeps it), and the archive's files read from its zip.
 * gitlab (13.12): app/models/ci/job_artifact.rb (`file_types`, `file_formats`),
 * app/services/ci/job_artifacts/create_service.rb, app/models/application_setting.rb (defaults).
 * @module
 */
import { unzipSync } from 'fflate'
import { ApiError, apiMessage } from '../../core/errors.js'

/** `Ci::JobArtifact.file_types.keys` (13.12). */
export const ARTIFACT_TYPES = [
  'archive', 'metadata', 'trace', 'junit', 'sast', 'dependency_scanning', 'container_scanning', 'dast', 'codequality',
  'license_management', 'license_scanning', 'performance', 'metrics', 'metrics_referee', 'network_referee', 'lsif', 'dotenv',
  'cobertura', 'terraform', 'accessibility', 'cluster_applications', 'secret_detection', 'requirements', 'coverage_fuzzing',
  'browser_performance', 'load_performance', 'api_fuzzing',
] as const

/** `Ci::JobArtifact.file_formats.keys`. */
export const ARTIFACT_FORMATS = ['raw', 'zip', 'gzip'] as const

/** `max_artifacts_size` default: 100 MB, in bytes. */
export const MAX_ARTIFACTS_SIZE = 100 * 1024 * 1024

/** `default_artifacts_expire_in` default. */
const DEFAULT_EXPIRE_IN = '30 days'

const UNITS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1, m: 60, min: 60, mins: 60, minute: 60, minutes: 60, h: 3600, hr: 3600, hrs: 3600,
  hour: 3600, hours: 3600, d: 86400, day: 86400, days: 86400, w: 604800, wk: 604800, week: 604800, weeks: 604800,
  mo: 2629746, month: 2629746, months: 2629746, y: 31556952, yr: 31556952, year: 31556952, years: 31556952,
}

/** `ChronicDuration.parse` for the forms runners send (`1 week`, `2h 30m`, `3600`): seconds, or undefined. */
function durationSeconds(text: string): number | undefined {
  const t = text.trim().toLowerCase()
  if (/^\d+$/.test(t)) return Number(t)
  let total = 0
  let matched = false
  const rest = t.replace(/(\d+(?:\.\d+)?)\s*([a-z]+)/g, (whole, n: string, unit: string) => {
    const factor = UNITS[unit]
    if (factor === undefined) return whole
    total += Number(n) * factor
    matched = true
    return ''
  })
  return matched && rest.replace(/\band\b|,/g, '').trim() === '' ? Math.round(total) : undefined
}

/**
 * When an upload's artifacts expire: `expire_in` (else 30 days) after `now`; null for `never`.
 * @throws ApiError 400 `{"message":"400 Bad request - expire_in is not a duration"}` for one
 *   ChronicDuration cannot read (spec-gap: GitLab fails there with a 500).
 */
export function expireAt(expireIn: string | undefined, now: string): string | null {
  const text = expireIn === undefined || expireIn === '' ? DEFAULT_EXPIRE_IN : expireIn
  if (text.trim().toLowerCase() === 'never') return null
  const seconds = durationSeconds(text)
  if (seconds === undefined) throw apiMessage(400, '400 Bad request - expire_in is not a duration')
  return new Date(Date.parse(now) + seconds * 1000).toISOString()
}

/**
 * The files of an uploaded archive (`artifact_type=archive`, `artifact_format=zip`), directories left out.
 * @throws ApiError 400 for another type or format, or a file that is not a zip (spec-gap: fakelab
 *   keeps a job's archive only, as its files; see docs/spec-gaps.md).
 */
export function artifactFiles(type: string, format: string, bytes: Uint8Array): Record<string, Uint8Array> {
  if (type !== 'archive' || format !== 'zip') throw apiMessage(400, '400 Bad request - fakelab keeps zip archives (artifact_type=archive) only')
  let entries: Record<string, Uint8Array>
  try {
    entries = unzipSync(bytes)
  } catch {
    throw new ApiError(400, { message: '400 Bad request - the archive is not a zip file' })
  }
  return Object.fromEntries(Object.entries(entries).filter(([path]) => !path.endsWith('/')))
}
