/**
 * Runner presenters: `Runner` (lists, enable-in-project), `RunnerDetails` (get, update),
 * `RunnerRegistrationDetails` (registration), the runner job (`JobBasicWithProject`) and the job
 * of a CI job token (`Job`).
 * Field order follows GitLab 13.x lib/api/entities/runner.rb, runner_details.rb,
 * runner_registration_details.rb, ci/job_basic.rb, commit.rb, ci/pipeline_basic.rb.
 * Source: api-spec.md "Runner (summary form …)", "Runner (detail form …)", "Runner job";
 * gitlab-behaviour.md §2.1, §14 items 3 and 4.
 * @module
 */
import { AccessLevel, groupAccessLevel, projectAccessLevel } from '../../rules/access.js'
import type { Ctx } from '../../core/route.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../../db/schema.js'
import { BasicGroupDetails } from '../../entities/group.js'
import { BasicProjectDetails, ProjectIdentity } from '../../entities/project.js'
import { projectWebUrl } from '../../entities/urls.js'
import { User } from '../../entities/user.js'
import { runnerGroupIds, runnerOnline, runnerProjectIds, runnerStatus } from './runners.service.js'
import type { JobRecord, PipelineRecord, RunnerRecord } from './runners.tables.js'
import { artifactsOf } from './jobs.artifacts.js'
import type { JobArtifactRecord } from './jobs.artifacts.tables.js'
import { artifactsZip } from './jobs.artifacts.zip.js'

/** The instant the derived `online`/`status` are judged at: the injected clock (ms). */
function nowMs(ctx: Ctx<unknown>): number {
  return Date.parse(ctx.now)
}

/**
 * `Runner`: `id, description, ip_address, active, is_shared, runner_type, name, online, status`.
 * `online` is null for a runner that never connected; `status` one of `online`, `offline`,
 * `paused`, `not_connected`, both by the scenario clock.
 */
export function Runner(runner: RunnerRecord, ctx: Ctx<unknown>) {
  const now = nowMs(ctx)
  return {
    id: runner.id,
    description: runner.description,
    ip_address: runner.ip_address,
    active: runner.active,
    is_shared: runner.runner_type === 'instance_type',
    runner_type: runner.runner_type,
    name: runner.name,
    online: runnerOnline(runner, now),
    status: runnerStatus(runner, now),
  }
}

/**
 * `RunnerDetails`: {@link Runner} then `tag_list, run_untagged, locked, maximum_timeout,
 * access_level, version, revision, platform, architecture, contacted_at, projects, groups`.
 * `projects` (full `BasicProjectDetails`) and `groups` (`{id, web_url, name}`) hold only what the
 * caller is a member of (`authorized_projects`/`authorized_groups`); administrators see all.
 * Never the `token` (removed in 13.0).
 */
export function RunnerDetails(runner: RunnerRecord, ctx: Ctx<unknown>) {
  // spec-gap: api-spec.md lists five fields per project and no `groups`; GitLab 13.x presents full
  // BasicProjectDetails and `groups` (gitlab-behaviour.md §14 item 3), and issue 7 asks for the
  // detail form exactly as GitLab presents it, `groups` included: GitLab's form.
  const user = ctx.currentUser
  const sees = (level: number) => user !== null && (user.admin || level >= AccessLevel.GUEST)
  const projects = runnerProjectIds(ctx.db, runner)
    .map((id) => ctx.db.tables.projects.get(id))
    .filter((p): p is ProjectRecord => p !== undefined && sees(projectAccessLevel(ctx.db, user, p, ctx.today)))
  const groups = runnerGroupIds(ctx.db, runner)
    .map((id) => ctx.db.tables.groups.get(id))
    .filter((g): g is GroupRecord => g !== undefined && sees(groupAccessLevel(ctx.db, user, g, ctx.today)))
  return {
    ...Runner(runner, ctx),
    tag_list: [...runner.tag_list],
    run_untagged: runner.run_untagged,
    locked: runner.locked,
    maximum_timeout: runner.maximum_timeout,
    access_level: runner.access_level,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contacted_at,
    projects: projects.map((p) => BasicProjectDetails(p, ctx)),
    groups: groups.map((g) => BasicGroupDetails(g, ctx)),
  }
}

/** `RunnerRegistrationDetails`: `{id, token}`, the only place the authentication token is shown. */
export function RunnerRegistrationDetails(runner: RunnerRecord) {
  return { id: runner.id, token: runner.token }
}

/** What a page of jobs refers to, read once per page (users, pipelines, projects by id). */
export interface JobRelations {
  users: ReadonlyMap<number, UserRecord>
  pipelines: ReadonlyMap<number, PipelineRecord>
  projects: ReadonlyMap<number, ProjectRecord>
  /** The runner's IP address (see {@link RunnerJob}). */
  ipAddress: string | null
}

/** Reads the users, pipelines and projects a page of jobs refers to, each once (`runner` gives `ipAddress`). */
export function jobRelations(ctx: Ctx<unknown>, runner: RunnerRecord | null, jobs: readonly JobRecord[]): JobRelations {
  const users = new Map<number, UserRecord>()
  const pipelines = new Map<number, PipelineRecord>()
  const projects = new Map<number, ProjectRecord>()
  for (const job of jobs) {
    const user = job.user_id === null ? undefined : ctx.db.tables.users.get(job.user_id)
    if (user) users.set(user.id, user)
    const pipeline = ctx.db.tables.pipelines.get(job.pipeline_id)
    if (pipeline) pipelines.set(pipeline.id, pipeline)
    const project = ctx.db.tables.projects.get(job.project_id)
    if (project) projects.set(project.id, project)
  }
  return { users, pipelines, projects, ipAddress: runner?.ip_address ?? null }
}

/** Seconds between two timestamps (GitLab's `duration`: until now while still running), or null. */
function duration(job: JobRecord, now: number): number | null {
  if (job.started_at === null) return null
  const end = job.finished_at === null ? now : Date.parse(job.finished_at)
  return (end - Date.parse(job.started_at)) / 1000
}

/**
 * `Entities::Ci::JobBasic` (13.x): `id, status, stage, name, ref, tag, coverage, allow_failure,
 * created_at, started_at, finished_at, duration, user (User), commit, pipeline (PipelineBasic),
 * web_url`. `duration` is in seconds, up to now while the job runs.
 */
export function JobBasic(job: JobRecord, ctx: Ctx<unknown>, rel: Omit<JobRelations, 'ipAddress'>) {
  // `allow_failure`, `web_url` and the pipeline's timestamps are GitLab's, where the spec is silent.
  const project = rel.projects.get(job.project_id)
  const pipeline = rel.pipelines.get(job.pipeline_id)
  const user = job.user_id === null ? undefined : rel.users.get(job.user_id)
  const projectUrl = project ? projectWebUrl(ctx, project) : ctx.baseUrl
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: job.coverage,
    allow_failure: job.allow_failure,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    duration: duration(job, nowMs(ctx)),
    user: user ? User(user, ctx) : null,
    commit: pipeline ? Commit(pipeline, projectUrl) : null,
    pipeline: pipeline
      ? {
          id: pipeline.id,
          project_id: pipeline.project_id,
          sha: pipeline.sha,
          ref: pipeline.ref,
          status: pipeline.status,
          created_at: pipeline.created_at,
          updated_at: pipeline.updated_at,
          web_url: `${projectUrl}/-/pipelines/${pipeline.id}`,
        }
      : null,
    web_url: `${projectUrl}/-/jobs/${job.id}`,
  }
}

/**
 * A runner job (`JobBasicWithProject`): `id, ip_address, status, stage, name, ref, tag, coverage,
 * allow_failure, created_at, started_at, finished_at, duration, user (User), commit, pipeline,
 * web_url, project (ProjectIdentity)`.
 */
export function RunnerJob(job: JobRecord, ctx: Ctx<unknown>, rel: JobRelations) {
  // spec-gap: api-spec.md "Runner job" lists `ip_address`, which GitLab 13.x's entity lacks
  // (gitlab-behaviour.md §14 item 4). The spec names the field, so it is here: the runner's address.
  const { id, ...basic } = JobBasic(job, ctx, rel)
  const project = rel.projects.get(job.project_id)
  return {
    id,
    ip_address: rel.ipAddress,
    ...basic,
    project: project ? ProjectIdentity(project, ctx) : null,
  }
}

/**
 * `Entities::Ci::Job` (13.x): {@link JobBasic} then `artifacts_file` (`{filename, size}`, only
 * when the job has an artifacts archive), `artifacts` (`JobArtifact`s: the archive), `runner` (`Runner`, null when none ran it), `artifacts_expire_at` and `tag_list`
 * (the job's own tags, sorted). Source:
 * gitlab: lib/api/entities/ci/job.rb; `GET /job`.
 */
export function Job(job: JobRecord, ctx: Ctx<unknown>) {
  const rel = jobRelations(ctx, null, [job])
  const runner = job.runner_id === null ? undefined : ctx.db.tables.runners.get(job.runner_id)
  const archive = artifactsOf(ctx.db, job)
  return {
    ...JobBasic(job, ctx, rel),
    ...(archive ? { artifacts_file: { filename: ARCHIVE_FILENAME, size: artifactsZip(archive).length } } : {}),
    artifacts: JobArtifacts(archive),
    runner: runner ? Runner(runner, ctx) : null,
    artifacts_expire_at: archive?.expire_at ?? null,
    // spec-gap: scenario jobs carry no `tags:` of their own (the runner's tag_list is not the job's), so [].
    tag_list: [],
  }
}

/** The name GitLab gives a job's archive (`artifacts_file.filename`). */
export const ARCHIVE_FILENAME = 'artifacts.zip'

/**
 * `job_artifacts` as `Entities::Ci::JobArtifact` (`file_type, size, filename, file_format`): the
 * archive (`archive`, `artifacts.zip`, `zip`) when there is one.
 * spec-gap: GitLab also lists the archive's `metadata.gz` and, once archived, the log (`trace`,
 * `job.log`); fakelab keeps logs on the job (`GET …/trace`) and lists neither.
 */
function JobArtifacts(archive: JobArtifactRecord | undefined) {
  const list: { file_type: string; size: number; filename: string; file_format: string }[] = []
  if (archive) list.push({ file_type: 'archive', size: artifactsZip(archive).length, filename: ARCHIVE_FILENAME, file_format: 'zip' })
  return list
}

/** `Commit` (13.x): the pipeline's commit; `created_at` is the commit date, as `Commit#created_at`. */
function Commit(pipeline: PipelineRecord, projectUrl: string) {
  return {
    id: pipeline.sha,
    short_id: pipeline.sha.slice(0, 8),
    created_at: pipeline.committed_date,
    parent_ids: [...pipeline.parent_ids],
    title: pipeline.commit_title,
    message: pipeline.commit_message,
    author_name: pipeline.author_name,
    author_email: pipeline.author_email,
    authored_date: pipeline.authored_date,
    committer_name: pipeline.committer_name,
    committer_email: pipeline.committer_email,
    committed_date: pipeline.committed_date,
    trailers: {},
    web_url: `${projectUrl}/-/commit/${pipeline.sha}`,
  }
}
