/**
 * fakelab's export file: a tar.gz holding `VERSION` (GitLab's import/export version of 13.12,
 * `0.2.4`) and `project.json` or `group.json`: the project's attributes and its repository (the
 * rows it follows from), or the group's attributes. It is what `POST /projects/import` and
 * `POST /groups/import` read back. Tar by nanotar, gzip by fflate.
 * spec-gap: GitLab's export holds every relation (issues, merge requests, labels, members ...) as
 * NDJSON and the repository as a git bundle; fakelab's holds the attributes and the repository only.
 * gitlab: lib/gitlab/import_export/ (13.12: `Gitlab::ImportExport.version` 0.2.4).
 * @module
 */
import { gunzipSync, gzipSync } from 'fflate'
import { createTar, parseTar } from 'nanotar'

/** `Gitlab::ImportExport.version` of 13.12. */
const EXPORT_VERSION = '0.2.4'

const utf8 = new TextEncoder()

/** The tar.gz of `VERSION` and `<name>.json` holding `data`, dated `now`. */
export function writeExport(name: 'project' | 'group', data: unknown, now: string): Uint8Array {
  const mtime = Date.parse(now)
  const tar = createTar([
    { name: 'VERSION', data: utf8.encode(EXPORT_VERSION), attrs: { mtime, mode: '644', uid: 0, gid: 0, user: 'git', group: 'git' } },
    { name: `${name}.json`, data: utf8.encode(JSON.stringify(data)), attrs: { mtime, mode: '644', uid: 0, gid: 0, user: 'git', group: 'git' } },
  ])
  return gzipSync(tar, { level: 6, mtime: 0 })
}

/**
 * The `<name>.json` of an export file.
 * @throws Error with GitLab's wording when the file is not a gzipped tar, has another version, or
 *   lacks the JSON.
 */
export function readExport(name: 'project' | 'group', bytes: Uint8Array): Record<string, unknown> {
  let entries
  try {
    entries = parseTar(gunzipSync(bytes))
  } catch {
    throw new Error('Unable to decompress the import file')
  }
  const version = entries.find((e) => e.name === 'VERSION' || e.name === './VERSION')
  if (!version) throw new Error('Invalid file: VERSION not found')
  if (version.text.trim() !== EXPORT_VERSION) throw new Error(`Import version mismatch: Required ${EXPORT_VERSION} but was ${version.text.trim()}`)
  const json = entries.find((e) => e.name === `${name}.json` || e.name === `./${name}.json`)
  if (!json) throw new Error(`Invalid file: ${name}.json not found`)
  try {
    const value = JSON.parse(json.text) as unknown
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error()
    return value as Record<string, unknown>
  } catch {
    throw new Error(`Invalid file: ${name}.json is not valid`)
  }
}

/** `export_filename`: `<%Y-%m-%d_%H-%M-%3N>_<full path, / as _>_export.tar.gz`. */
export function exportFilename(fullPath: string, now: string): string {
  const d = new Date(now)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  const stamp = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}_${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCMilliseconds(), 3)}`
  return `${stamp}_${fullPath.replace(/\//g, '_')}_export.tar.gz`
}
