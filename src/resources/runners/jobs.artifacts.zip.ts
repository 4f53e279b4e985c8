/**
 * The zip of a job's artifacts archive, built with fflate from the stored files (deterministic:
 * every entry dated the artifacts' creation), and one entry read back. Loaded with the routes
 * and entities only. gitlab: the runner's `artifacts.zip` upload (app/uploaders/job_artifact_uploader.rb).
 * @module
 */
import { zipSync, type Zippable } from 'fflate'
import { base64ToUint8Array } from 'uint8array-extras'
import type { JobArtifactRecord } from './jobs.artifacts.tables.js'

const zips = new WeakMap<JobArtifactRecord, Uint8Array>()

/** The archive's zip bytes (`artifacts.zip`), built once per stored record. */
export function artifactsZip(artifacts: JobArtifactRecord): Uint8Array {
  const cached = zips.get(artifacts)
  if (cached) return cached
  // fflate writes the DOS date from local time fields: shift so they read as UTC.
  const utc = new Date(artifacts.created_at)
  const date = new Date(utc.getTime() + utc.getTimezoneOffset() * 60_000)
  const files: Zippable = {}
  for (const entry of artifacts.files) files[entry.path] = [base64ToUint8Array(entry.content), { mtime: date }]
  const bytes = zipSync(files, { level: 6 })
  zips.set(artifacts, bytes)
  return bytes
}

/** The bytes of the file at `path` in the archive; undefined when it has none (a directory is none). */
export function artifactEntry(artifacts: JobArtifactRecord, path: string): Uint8Array | undefined {
  const entry = artifacts.files.find((f) => f.path === path)
  return entry ? base64ToUint8Array(entry.content) : undefined
}
