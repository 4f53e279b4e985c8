/**
 * Job artifacts' rules: a job's archive stored and found, kept, erased, the latest successful
 * job of a name on a ref, and the paths an archive entry may be read at. Nothing here loads fflate
 * (the scenario loader stores artifacts at every start); the zip is built in `jobs.artifacts.zip.ts`.
 * gitlab (13.12): app/models/ci/build.rb (`artifacts?`, `keep_artifacts!`,
 * `erase_erasable_artifacts!`), app/models/project.rb (`latest_successful_build_for_ref!`),
 * lib/gitlab/ci/build/artifacts/path.rb.
 * @module
 */
import { uint8ArrayToBase64 } from 'uint8array-extras'
import type { Db } from '../../db/db.js'
import type { JobArtifactRecord } from './jobs.artifacts.tables.js'
import type { JobRecord } from './runners.tables.js'

const UTF8 = new TextEncoder()

/** A job's artifacts archive, if it has one (`build.artifacts?`). */
export function artifactsOf(db: Db, job: JobRecord): JobArtifactRecord | undefined {
  return db.tables.job_artifacts.where('job_id', job.id)[0]
}

/**
 * Stores `files` (path → UTF-8 text, or bytes) as the job's artifacts archive, replacing any it
 * had. Paths are kept as given, without a leading `./` or `/`.
 * @param expireAt when they expire (ISO 8601), or null for never.
 */
export function storeJobArtifacts(db: Db, job: JobRecord, files: Readonly<Record<string, string | Uint8Array>>, expireAt: string | null, now: string): JobArtifactRecord {
  const existing = artifactsOf(db, job)
  if (existing) db.tables.job_artifacts.delete(existing.id)
  const entries = Object.entries(files).map(([path, content]) => ({
    path: path.replace(/^(\.\/|\/)+/, ''),
    content: uint8ArrayToBase64(typeof content === 'string' ? UTF8.encode(content) : content),
  }))
  return db.tables.job_artifacts.insert({ job_id: job.id, project_id: job.project_id, files: entries, expire_at: expireAt, created_at: now })
}

/** `build.keep_artifacts!`: the artifacts never expire. */
export function keepJobArtifacts(db: Db, artifacts: JobArtifactRecord): void {
  if (artifacts.expire_at !== null) db.tables.job_artifacts.update(artifacts.id, { expire_at: null })
}

/** `build.erase_erasable_artifacts!`: the archive is gone. */
export function eraseJobArtifacts(db: Db, job: JobRecord): void {
  const artifacts = artifactsOf(db, job)
  if (artifacts) db.tables.job_artifacts.delete(artifacts.id)
}

/**
 * `project.latest_successful_build_for_ref(job_name, ref)`: the job of that name with artifacts
 * in the newest successful pipeline of the ref; undefined when there is none.
 */
export function latestSuccessfulBuildForRef(db: Db, projectId: number, jobName: string, ref: string): JobRecord | undefined {
  const pipeline = db.tables.pipelines
    .where('project_id', projectId)
    .filter((p) => p.ref === ref && p.status === 'success')
    .at(-1)
  if (!pipeline) return undefined
  return db.tables.jobs
    .where('pipeline_id', pipeline.id)
    .filter((j) => j.type === 'Ci::Build' && !j.retried && j.name === jobName && artifactsOf(db, j) !== undefined)
    .at(-1)
}

/**
 * `Gitlab::Ci::Build::Artifacts::Path#valid?`: no NUL byte, valid UTF-8 (the request layer has
 * checked that), and no `..` segment.
 */
export function validArtifactPath(path: string): boolean {
  if (path.includes('\0')) return false
  return !path.split('/').includes('..')
}
