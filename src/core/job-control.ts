/**
 * The control API's face of CI jobs (`POST /-/fakelab/jobs/run`): core knows no area, so the
 * runners area registers what the control route calls when it loads. Browser-safe.
 * @module
 */
import type { Db } from '../db/db.js'

/** What a test says a runner did with a job (the body of `POST /-/fakelab/jobs/run`). */
export interface JobRunInput {
  /** The job's id. */
  readonly job: number
  /** Its new status: `running`, `success` (default), `failed` or `canceled`. */
  readonly status?: string
  /** Its log, replacing any it had. */
  readonly trace?: string
  /** Its artifacts archive: file path → text content, replacing any it had. */
  readonly artifacts?: Readonly<Record<string, string>>
  /** When the artifacts expire (ISO 8601), or null (default) for never. */
  readonly artifacts_expire_at?: string | null
}

/** The answer: the job's new status, its pipeline's, and the archive's file paths. */
export interface JobRunResult {
  readonly id: number
  readonly status: string
  readonly pipeline_id: number
  readonly pipeline_status: string
  readonly artifacts: readonly string[]
}

/** What the control API needs of jobs; the runners area registers it. */
export interface JobControl {
  /**
   * Applies `input` in one store transaction, at `now`, with `baseUrl` for the facts it publishes.
   * @throws ApiError 400 for a bad input, 404 for an unknown job.
   */
  run(db: Db, input: JobRunInput, baseUrl: string, now: Date): JobRunResult
}

let jobControl: JobControl | undefined

/** Registers the jobs' control face (called once by the runners area). */
export function registerJobControl(control: JobControl): void {
  jobControl = control
}

/** The registered job control, or undefined when no runners area is composed in. */
export function registeredJobControl(): JobControl | undefined {
  return jobControl
}
