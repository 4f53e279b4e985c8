/**
 * The job payload a runner gets from `POST /jobs/request` (`Entities::JobRequest::Response` over
 * `Ci::BuildRunnerPresenter`), key by key in 13.12's order: `id`, `token`, `allow_git_fetch`,
 * `job_info`, `git_info`, `runner_info`, `variables`, `steps`, `image`, `services`, `artifacts`,
 * `cache`, `credentials`, `dependencies`, `features`.
 * gitlab (13.12): lib/api/entities/job_request/*.rb, app/presenters/ci/build_runner_presenter.rb
 * (`artifacts`, `ref_type`, `git_depth`, `refspecs`), app/models/ci/build.rb (`steps`, `cache`,
 * `features`), lib/gitlab/ci/build/step.rb, lib/gitlab/ci/build/image.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { ARCHIVE_FILENAME, artifactsOf, artifactsZip, buildDependencies, PROJECT_BUILD_TIMEOUT, type JobImage, type JobRecord, type PipelineRecord, type RunnerRecord } from '../runners/runners.public.js'
import { repoUrl, runnerVariables } from './runner-jobs.variables.js'

/** `project.ci_default_git_depth` of a new project. */
const GIT_DEPTH = 50

/** `Gitlab::Git::BLANK_SHA`. */
const BLANK_SHA = '0'.repeat(40)

/** `Entities::JobRequest::Image` (`name`, `entrypoint`, `ports`). */
function Image(image: JobImage) {
  return { name: image.name, entrypoint: image.entrypoint ?? null, ports: [] as unknown[] }
}

/** `Entities::JobRequest::Service`: the image's fields, `alias`, `command`. */
function Service(service: JobImage) {
  return { ...Image(service), alias: service.alias ?? null, command: service.command ?? null }
}

/** `Entities::JobRequest::Step` of `Step.from_commands` and `Step.from_after_script`. */
function steps(job: JobRecord, timeout: number) {
  const o = job.options
  const out: { name: string; script: string[]; timeout: number; when: string; allow_failure: boolean }[] = [
    { name: 'script', script: [...(o?.before_script ?? []), ...(o?.script ?? [])], timeout, when: 'on_success', allow_failure: false },
  ]
  if (o?.after_script && o.after_script.length > 0) out.push({ name: 'after_script', script: o.after_script, timeout, when: 'always', allow_failure: true })
  return out
}

/**
 * `BuildRunnerPresenter#artifacts`: null without `artifacts:`; else the archive entry when `paths`
 * or `untracked` are written (reports are not read: see docs/spec-gaps.md).
 */
function artifacts(job: JobRecord) {
  const a = job.options?.artifacts
  if (!a) return null
  if (a.untracked === undefined && a.paths === undefined) return []
  return [{
    name: a.name ?? null,
    untracked: a.untracked ?? null,
    paths: a.paths ?? null,
    ...(a.exclude && a.exclude.length > 0 ? { exclude: a.exclude } : {}),
    when: a.when ?? null,
    expire_in: a.expire_in ?? null,
    artifact_type: 'archive',
    artifact_format: 'zip',
  }]
}

/** `BuildRunnerPresenter#refspecs` with a positive depth: the branch's or the tag's (no persistent pipeline ref: see docs/spec-gaps.md). */
function refspecs(pipeline: PipelineRecord): string[] {
  if (pipeline.tag) return [`+refs/tags/${pipeline.ref}:refs/tags/${pipeline.ref}`]
  if (pipeline.ref.startsWith('refs/')) return [`+${pipeline.ref}:${pipeline.ref}`]
  return [`+refs/heads/${pipeline.ref}:refs/remotes/origin/${pipeline.ref}`]
}

/** `Entities::JobRequest::Dependency` (`id`, `name`, `token`, and `artifacts_file` when it has artifacts). */
function Dependency(db: Db, job: JobRecord) {
  const archive = artifactsOf(db, job)
  return {
    id: job.id,
    name: job.name,
    token: job.token ?? null,
    ...(archive ? { artifacts_file: { filename: ARCHIVE_FILENAME, size: artifactsZip(archive).length } } : {}),
  }
}

/** What the payload is made from: the picked build (running, with its token and timeout) and where it runs. */
export interface JobRequestFacts {
  readonly job: JobRecord
  readonly pipeline: PipelineRecord
  readonly project: ProjectRecord
  readonly runner: RunnerRecord
}

/** `Entities::JobRequest::Response` (see the module comment). */
export function JobRequestResponse(ctx: PresentCtx, f: JobRequestFacts) {
  const { job, pipeline, project, runner } = f
  const token = job.token ?? ''
  const timeout = job.timeout ?? PROJECT_BUILD_TIMEOUT
  const url = repoUrl(ctx, ctx.db, project, token)
  return {
    id: job.id,
    token,
    allow_git_fetch: true,
    job_info: { id: job.id, name: job.name, stage: job.stage, project_id: project.id, project_name: project.name },
    git_info: {
      repo_url: url,
      ref: pipeline.ref,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha ?? BLANK_SHA,
      ref_type: pipeline.tag ? 'tag' : 'branch',
      refspecs: refspecs(pipeline),
      depth: GIT_DEPTH,
    },
    runner_info: { timeout, runner_session_url: null },
    variables: runnerVariables(ctx, { job, pipeline, project, runner, repoUrl: url }),
    steps: steps(job, timeout),
    image: job.options?.image ? Image(job.options.image) : null,
    services: (job.options?.services ?? []).map(Service),
    artifacts: artifacts(job),
    cache: job.options?.cache ?? [],
    credentials: [] as unknown[],
    dependencies: buildDependencies(ctx.db, job).map((d) => Dependency(ctx.db, d)),
    features: { trace_sections: true },
  }
}
