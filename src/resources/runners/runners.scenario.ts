/**
 * The runners part of the scenario format:
 * - top level `runners_registration_token:` (the instance registration token; generated when left
 *   out) and `runners:` (runners of every type with their tags, projects, group, `contacted_at`, and
 *   the `jobs:` they ran);
 * - `pipelines:` of projects (with their commit), which jobs refer to by `id`.
 * A runner's `runner_type` follows from what it is attached to when not written: a group makes it
 * `group_type`, projects `project_type`, nothing `instance_type`. `contacted_at` left out means
 * never connected (`not_connected`). Faker fills the rest (tokens, versions, commit data, times).
 * Source: issue 7 "Data"; gitlab-behaviour.md §2.1; STYLE.md §10.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import { z } from 'zod'
import { runnersRegistrationToken } from '../../rules/runners-token.js'
import { items, list, isRec, str, type Entry } from '../../scenario/entries.js'
import { at } from '../../scenario/problems.js'
import type { FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { fast, fastObject, GIVE_UP, withFastItems } from '../../scenario/fast-records.js'
import { fullPathSchema, idSchema, isFullPath, isTimestamp, normalTimestamp, timestampSchema } from '../../scenario/scalars.js'
import type { Db } from '../../db/db.js'
import { ciConfigSchema, CI_STATUSES, defaultAllowFailure, defaultWhen, DEFAULT_STAGES, JOB_WHEN, NOT_STARTED, pipelineJobSchema, pipelineVariableSchema, stageIndex, type ScenarioPipelineJob } from './pipelines.scenario.js'
import { storeJobArtifacts } from './jobs.artifacts.js'
import { loadPipelineRefs } from './pipelines.refs.js'
import type { JobRecord, PipelineRecord, RunnerRecord } from './runners.tables.js'
import { refProblem, scenarioRefNames } from '../repository/repository.public.js'


const commitSchema = z.strictObject({
  title: z.string().optional().describe('Commit title; faker when absent.'),
  message: z.string().optional().describe('Commit message; the title when absent.'),
  parent_ids: z.array(z.string()).optional().describe('Parent commit shas.'),
  author_name: z.string().optional().describe('Author name; faker when absent.'),
  author_email: z.string().optional().describe('Author email; faker when absent.'),
  authored_date: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  committer_name: z.string().optional().describe('Committer name; the author when absent.'),
  committer_email: z.string().optional().describe('Committer email; the author when absent.'),
  committed_date: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); the authored date when absent.'),
})

const pipelineSchema = z.strictObject({
  id: idSchema.optional().describe('Pipeline id (jobs name it); the next free one when absent.'),
  sha: z.string().regex(/^[0-9a-f]{40}$/, { error: 'must be a 40-character hex commit sha' }).optional().describe('The 40-character hex commit sha; faker when absent.'),
  ref: z.string().min(1).optional().describe('Branch or tag; the project\'s default branch when absent.'),
  tag: z.boolean().default(false).describe('Whether ref is a tag. Default false.'),
  status: z.enum(CI_STATUSES).default('success').describe('A CI status (created, pending, running, success, failed, canceled, skipped, manual, ...). Default success.'),
  user: z.string().optional().describe('Username of who ran it.'),
  commit: commitSchema.default({}).describe('The commit it ran on.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  jobs: z.array(pipelineJobSchema).default([]).describe('Jobs of this pipeline no runner picked (created, pending, manual, skipped, ...); runners list the jobs they ran.'),
  variables: z.array(pipelineVariableSchema).default([]).describe('Variables it was created with (GET /projects/:id/pipelines/:pipeline_id/variables).'),
})

/** A runner's job, as a scenario writes it. */
export const jobSchema = z.strictObject({
  id: idSchema.optional().describe('Job id; the next free one when absent.'),
  /** The project's full path; the runner's only project when left out. */
  project: fullPathSchema.optional().describe('The project\'s full path; the runner\'s only project when left out.'),
  /** The `id` of a pipeline of that project. */
  pipeline: idSchema.describe('The id of a pipeline of that project.'),
  /** Username; the pipeline's user when left out. */
  user: z.string().optional().describe('Username; the pipeline\'s user when left out.'),
  status: z.enum(CI_STATUSES).default('success').describe('A CI status (created, pending, running, success, failed, canceled, ...). Default success.'),
  stage: z.string().default('test').describe('Stage name. Default test.'),
  name: z.string().optional().describe('Job name; faker when absent.'),
  ref: z.string().optional().describe('Branch or tag; the pipeline\'s ref when absent.'),
  tag: z.boolean().default(false).describe('Whether ref is a tag. Default false.'),
  coverage: z.number().nullable().default(null).describe('Coverage percentage; null = none. Default null.'),
  allow_failure: z.boolean().default(false).describe('Whether the job may fail without failing the pipeline. Default false.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  started_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); null = not started.'),
  finished_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); null = not finished.'),
  when: z.enum(JOB_WHEN).optional().describe('on_success, manual, always or on_failure; default manual for a manual job, else on_success.'),
  trace: z.string().nullable().default(null).describe('The job log GET /projects/:id/jobs/:job_id/trace returns; null = none. Default null.'),
  artifacts: z.record(z.string(), z.string()).optional().describe('Its artifacts archive: file path ("dist/app.txt") to text content; GET /projects/:id/jobs/:job_id/artifacts serves them as a zip. None when absent.'),
  artifacts_expire_at: timestampSchema.nullable().default(null).describe('When its artifacts expire (ISO 8601); null = never. Default null.'),
})

/**
 * {@link jobSchema} the fast way, for lists of plainly valid jobs (see `scenario/fast-records.ts`):
 * the same fields in the same order; `test/unit/scale-load-helpers.test.ts` holds it to the schema.
 */
export const fastJob = fastObject({
  id: fast.optional(fast.positiveInt),
  project: fast.optional(fast.refined(isFullPath)),
  pipeline: fast.required(fast.positiveInt),
  user: fast.optional(fast.string),
  status: fast.withDefault('success', fast.oneOf(CI_STATUSES)),
  stage: fast.withDefault('test', fast.string),
  name: fast.optional(fast.string),
  ref: fast.optional(fast.string),
  tag: fast.withDefault(false, fast.boolean),
  coverage: fast.withDefault(null, fast.nullable(fast.number)),
  allow_failure: fast.withDefault(false, fast.boolean),
  created_at: fast.optional(fast.refined(isTimestamp, normalTimestamp)),
  started_at: fast.optional(fast.nullable(fast.refined(isTimestamp, normalTimestamp))),
  finished_at: fast.optional(fast.nullable(fast.refined(isTimestamp, normalTimestamp))),
  when: fast.optional(fast.oneOf(JOB_WHEN)),
  trace: fast.withDefault(null, fast.nullable(fast.string)),
  // A job with artifacts takes zod's way (`z.record` has no fast checker).
  artifacts: fast.optional(() => GIVE_UP),
  artifacts_expire_at: fast.withDefault(null, fast.nullable(fast.refined(isTimestamp, normalTimestamp))),
})

const runnerSchema = z.strictObject({
  id: idSchema.optional().describe('Runner id; the next free one when absent.'),
  runner_type: z.enum(['instance_type', 'group_type', 'project_type']).optional().describe('instance_type, group_type or project_type; from groups/projects when absent.'),
  /** The authentication token (generated when left out). */
  token: z.string().min(1).optional().describe('The authentication token (generated when left out).'),
  description: z.string().optional().describe('Description; faker when absent.'),
  ip_address: z.string().nullable().optional().describe('IP address it last contacted from; null = unknown.'),
  active: z.boolean().default(true).describe('Whether it takes jobs (paused = false). Default true.'),
  locked: z.boolean().default(false).describe('Locked to its current projects. Default false.'),
  run_untagged: z.boolean().default(true).describe('Whether it picks jobs without tags. Default true.'),
  access_level: z.enum(['not_protected', 'ref_protected']).default('not_protected').describe('not_protected or ref_protected. Default not_protected.'),
  maximum_timeout: z.int().min(600).nullable().default(null).describe('Maximum job timeout, in seconds (600 or more); null = none. Default null.'),
  tag_list: z.array(z.string().min(1)).default([]).describe('Tags.'),
  name: z.string().nullable().optional().describe('Runner software name (gitlab-runner); null = unknown.'),
  version: z.string().nullable().optional().describe('Runner version; null = unknown.'),
  revision: z.string().nullable().optional().describe('Runner revision; null = unknown.'),
  platform: z.string().nullable().optional().describe('Platform (linux); null = unknown.'),
  architecture: z.string().nullable().optional().describe('Architecture (amd64); null = unknown.'),
  contacted_at: timestampSchema.nullable().default(null).describe('An ISO 8601 instant (2021-04-01T12:00:00Z) of its last contact; null = never. Default null.'),
  /** Full paths of the projects it is enabled in (project runners). */
  projects: z.array(fullPathSchema).default([]).describe('Full paths of the projects it is enabled in (project runners).'),
  /** Full path of its group (group runners): a list of one, as GitLab stores it. */
  groups: z.array(fullPathSchema).max(1).default([]).describe('Full path of its group (group runners): a list of one, as GitLab stores it.'),
  jobs: withFastItems(z.array(jobSchema), fastJob).default([]).describe('Jobs it ran or runs.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const rootFields = {
  runners_registration_token: z.string().min(1).optional().describe('The instance\'s runner registration token; faker when absent.'),
  runners: z.array(runnerSchema).default([]).describe('CI runners (instance, group and project runners).'),
}

const projectFields = {
  pipelines: z.array(pipelineSchema).default([]).describe('CI pipelines of this project (runner jobs name them by id).'),
  ci_config: ciConfigSchema.optional(),
  public_builds: z.boolean().default(true).describe('Whether non-members and guests see its pipelines and jobs (GitLab\'s "Public pipelines"). Default true.'),
}

/** A runner of the scenario, as parsed. */
export type ScenarioRunner = z.output<typeof runnerSchema>
/** The `pipelines` field of projects, as parsed. */
export type PipelineFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends PipelineFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
  interface ScenarioInput extends FieldsInput<typeof rootFields> {}
}

/** The runner type a scenario runner ends up with (written, or from what it is attached to). */
function runnerTypeOf(runner: { runner_type?: unknown; groups?: unknown; projects?: unknown }): string {
  if (typeof runner.runner_type === 'string') return runner.runner_type
  if (list(runner.groups).length > 0) return 'group_type'
  return list(runner.projects).length > 0 ? 'project_type' : 'instance_type'
}

/** Reference and shape checks of `runners:` (raw values; the schema reports wrong types). */
function checkRunners(ctx: Parameters<NonNullable<ScenarioFragment['check']>>[0]): void {
  const root = ctx.root
  if (!root) return
  const tokens = new Map<string, string>()
  const claim = (loc: Entry, value: unknown, what: string): void => {
    const token = str(value)
    if (token === undefined) return
    const first = tokens.get(token)
    if (first) ctx.report(loc, `token "${token}" is already used by ${first}`)
    else tokens.set(token, what)
  }
  claim({ ...at(root, 'runners_registration_token'), value: {} }, root.value.runners_registration_token, 'runners_registration_token')
  const runnerIds = new Set<number>()
  const jobIds = new Set<number>()
  // Pipelines' own jobs share the job ids with the runners' jobs.
  for (const project of ctx.model.project) {
    for (const [pipeline, i] of list(project.value.pipelines)) {
      if (!isRec(pipeline)) continue
      for (const jobLoc of items({ ...at(project, 'pipelines', i), value: pipeline }, 'jobs')) {
        const job = jobLoc.value
        ctx.checkUser(at(jobLoc, 'user'), job.user)
        if (typeof job.id !== 'number') continue
        if (jobIds.has(job.id)) ctx.report(at(jobLoc, 'id'), `duplicate jobs id ${job.id}`)
        jobIds.add(job.id)
      }
    }
  }
  // The written pipeline ids of each project jobs name, read once per project rather than per job.
  const pipelinesOf = new Map<Entry, Set<unknown>>()
  const pipelineIds = (project: Entry): Set<unknown> => {
    let ids = pipelinesOf.get(project)
    if (!ids) {
      ids = new Set(list(project.value.pipelines).map(([p]) => (isRec(p) ? p.id : undefined)))
      pipelinesOf.set(project, ids)
    }
    return ids
  }
  for (const [runner, i] of list(root.value.runners)) {
    if (!isRec(runner)) continue
    const here: Entry = { ...at(root, 'runners', i), value: runner }
    if (typeof runner.id === 'number') {
      if (runnerIds.has(runner.id)) ctx.report(at(here, 'id'), `duplicate runners id ${runner.id}`)
      runnerIds.add(runner.id)
    }
    claim({ ...at(here, 'token'), value: {} }, runner.token, `runners[${i}]`)
    const type = runnerTypeOf(runner)
    const projects = list(runner.projects)
    const groups = list(runner.groups)
    if (type === 'instance_type' && (projects.length > 0 || groups.length > 0)) ctx.report(here, 'an instance_type runner belongs to no project or group')
    if (type === 'group_type' && (groups.length !== 1 || projects.length > 0)) ctx.report(here, 'a group_type runner belongs to exactly one group (groups: [path]) and no project')
    if (type === 'project_type' && (projects.length === 0 || groups.length > 0)) ctx.report(here, 'a project_type runner belongs to at least one project (projects: [path]) and no group')
    for (const [path, j] of projects) {
      if (typeof path === 'string' && !ctx.index.projects.has(path.toLowerCase())) ctx.report(at(here, 'projects', j), `unknown project "${path}"`)
    }
    for (const [path, j] of groups) {
      if (typeof path === 'string' && !ctx.index.groups.has(path.toLowerCase())) ctx.report(at(here, 'groups', j), `unknown group "${path}"`)
    }
    for (const jobLoc of items(here, 'jobs')) {
      const job = jobLoc.value
      if (typeof job.id === 'number') {
        if (jobIds.has(job.id)) ctx.report(at(jobLoc, 'id'), `duplicate jobs id ${job.id}`)
        jobIds.add(job.id)
      }
      ctx.checkUser(at(jobLoc, 'user'), job.user)
      const path = str(job.project) ?? (projects.length === 1 ? str(projects[0]![0]) : undefined)
      if (path === undefined) {
        if (job.project === undefined) ctx.report(jobLoc, 'needs a project (the runner has no single project)')
        continue
      }
      const project = ctx.index.projects.get(path.toLowerCase())
      if (!project) {
        ctx.report(at(jobLoc, 'project'), `unknown project "${path}"`)
        continue
      }
      if (typeof job.pipeline === 'number' && !pipelineIds(project).has(job.pipeline)) {
        ctx.report(at(jobLoc, 'pipeline'), `unknown pipeline ${job.pipeline} of project "${path}"`)
      }
      // A job's own ref, like its pipeline's, is one of the project's branches or tags (issue 38 item 2).
      const refs = scenarioRefNames(project)
      const ref = str(job.ref)
      const problem = refs && ref !== undefined ? refProblem('branch or tag', ref, refs, ctx.index.fullPath(project) ?? path) : undefined
      if (problem) ctx.report(at(jobLoc, 'ref'), problem)
    }
  }
}

/** A hex string of `length` characters (commit shas). */
function hex(f: Faker, length: number): string {
  return f.string.hexadecimal({ length, casing: 'lower', prefix: '' })
}

/** The next ids of a table for records without one: past the explicit ones and the table's. */
function allocate(ctx: LoadContext, table: 'runners' | 'jobs', records: readonly { id?: number | undefined }[]): number[] {
  // A loop, not Math.max(...ids): spreading 100,000 ids overflows the stack.
  let next = ctx.db.tables[table].peekNextId() - 1
  for (const r of records) if (r.id !== undefined && r.id > next) next = r.id
  return records.map((r) => r.id ?? ++next)
}

function projectId(ctx: LoadContext, path: string): number {
  const entry = ctx.index.projects.get(path.toLowerCase())
  if (!entry) throw new Error(`scenario: unknown project "${path}"`)
  return ctx.row('project', entry).id
}

/** Loads the runners, their links and jobs, and the instance registration token. */
function loadRoot(ctx: LoadContext, scenario: Readonly<Record<string, unknown>>): void {
  const root = scenario as { runners_registration_token?: string; runners?: ScenarioRunner[] }
  const runners = root.runners ?? []
  ctx.db.tables.application_settings.insert({
    id: 1,
    runners_registration_token: root.runners_registration_token ?? runnersRegistrationToken(ctx.fake('application_settings')),
  })
  const runnerIds = allocate(ctx, 'runners', runners)
  const jobs = runners.flatMap((runner, i) => runner.jobs.map((job) => ({ job, runner, runnerId: runnerIds[i]! })))
  const own = pendingPipelineJobs.get(ctx.db) ?? []
  pendingPipelineJobs.delete(ctx.db)
  const allJobIds = allocate(ctx, 'jobs', [...jobs.map((j) => j.job), ...own.map((o) => o.job)])
  const jobIds = allJobIds.slice(0, jobs.length)
  const pipelines = new Map<number, PipelineRecord>()
  for (const row of ctx.db.tables.pipelines.all()) pipelines.set(row.id, row)
  runners.forEach((runner, i) => {
    const id = runnerIds[i]!
    const f = ctx.fake(`runner:${id}`)
    const created_at = runner.created_at ?? ctx.past(f)
    const record: RunnerRecord = {
      id,
      runner_type: runnerTypeOf(runner) as RunnerRecord['runner_type'],
      token: runner.token ?? f.string.alphanumeric(20),
      description: runner.description ?? `${f.word.adjective()}-runner-${id}`,
      ip_address: runner.ip_address === undefined ? f.internet.ipv4() : runner.ip_address,
      active: runner.active,
      locked: runner.locked,
      run_untagged: runner.run_untagged,
      access_level: runner.access_level,
      maximum_timeout: runner.maximum_timeout,
      tag_list: [...runner.tag_list],
      name: runner.name === undefined ? 'gitlab-runner' : runner.name,
      version: runner.version === undefined ? '13.10.0' : runner.version,
      revision: runner.revision === undefined ? hex(f, 8) : runner.revision,
      platform: runner.platform === undefined ? 'linux' : runner.platform,
      architecture: runner.architecture === undefined ? 'amd64' : runner.architecture,
      contacted_at: runner.contacted_at,
      created_at,
      updated_at: created_at,
    }
    ctx.db.tables.runners.insert(record)
    for (const path of runner.projects) {
      ctx.db.tables.runner_projects.insert({ runner_id: id, project_id: projectId(ctx, path), created_at })
    }
    for (const path of runner.groups) {
      const entry = ctx.index.groups.get(path.toLowerCase())
      if (!entry) throw new Error(`scenario: unknown group "${path}"`)
      ctx.db.tables.runner_namespaces.insert({ runner_id: id, namespace_id: ctx.row('group', entry).id })
    }
  })
  // Adopted as one write at the end: 50,000 jobs inserted one by one cost a copy and an undo each.
  const jobRecords: JobRecord[] = []
  jobs.forEach(({ job, runner, runnerId }, i) => {
    const id = jobIds[i]!
    const f = ctx.fake(`job:${id}`)
    const pipeline = pipelines.get(job.pipeline)
    if (!pipeline) throw new Error(`scenario: unknown pipeline ${job.pipeline}`)
    const created_at = job.created_at ?? ctx.between(f, pipeline.created_at)
    const started = job.started_at !== undefined ? job.started_at : NOT_STARTED.has(job.status) ? null : ctx.between(f, created_at)
    const running = ['running', 'created', 'pending', 'waiting_for_resource', 'preparing', 'manual', 'scheduled'].includes(job.status)
    const finished = job.finished_at !== undefined ? job.finished_at : running || started === null ? null : ctx.between(f, started)
    const when = defaultWhen(job.status, job.when)
    const jobProjectId = job.project !== undefined ? projectId(ctx, job.project) : projectId(ctx, runner.projects[0]!)
    const record: JobRecord = {
      id,
      type: 'Ci::Build',
      runner_id: runnerId,
      project_id: jobProjectId,
      pipeline_id: pipeline.id,
      user_id: job.user !== undefined ? ctx.userId(job.user) : pipeline.user_id,
      status: job.status,
      stage: job.stage,
      name: job.name ?? `${job.stage}-${f.word.noun()}`,
      ref: job.ref ?? pipeline.ref,
      tag: job.tag,
      coverage: job.coverage,
      allow_failure: job.allow_failure,
      when,
      stage_idx: stageIndex(stagesOf(ctx.db, jobProjectId), job.stage),
      retried: false,
      trace: job.trace,
      erased_at: null,
      target_url: null,
      description: null,
      created_at,
      started_at: started,
      finished_at: finished,
    }
    jobRecords.push(record)
  })
  own.forEach((o, i) => jobRecords.push(pipelineJobRecord(ctx, o, allJobIds[jobs.length + i]!)))
  ctx.db.tables.jobs.adoptAll(jobRecords)
  // Jobs' artifacts archives (issue 36 item 5), dated when the job finished (else was created).
  const written = [...jobs.map((j) => j.job), ...own.map((o) => o.job)]
  written.forEach((job, i) => {
    if (!job.artifacts) return
    const record = jobRecords[i]!
    storeJobArtifacts(ctx.db, record, job.artifacts, job.artifacts_expire_at, record.finished_at ?? record.created_at)
  })
}

/** A pipeline's own job waiting for the root loader, which allocates job ids once for all jobs. */
interface PendingPipelineJob {
  job: ScenarioPipelineJob
  pipeline: PipelineRecord
  stages: readonly string[]
}

/**
 * Pipelines' own jobs, read by the project loader and stored by the root loader (job ids are
 * allocated past every explicit one, the runners' jobs' included), per store being loaded.
 */
const pendingPipelineJobs = new WeakMap<Db, PendingPipelineJob[]>()

/** The stages of a project's CI definition, or the default ones. */
function stagesOf(db: Db, projectId: number): readonly string[] {
  return db.tables.project_ci_configs.get(projectId)?.stages ?? DEFAULT_STAGES
}

/** The store row of a pipeline's own job. */
function pipelineJobRecord(ctx: LoadContext, { job, pipeline, stages }: PendingPipelineJob, id: number): JobRecord {
  const f = ctx.fake(`job:${id}`)
  const created_at = job.created_at ?? pipeline.created_at
  const started = job.started_at !== undefined ? job.started_at : NOT_STARTED.has(job.status) ? null : ctx.between(f, created_at)
  const finished = job.finished_at !== undefined ? job.finished_at : started === null || job.status === 'running' ? null : ctx.between(f, started)
  const when = defaultWhen(job.status, job.when)
  return {
    id,
    type: 'Ci::Build',
    runner_id: null,
    project_id: pipeline.project_id,
    pipeline_id: pipeline.id,
    user_id: job.user !== undefined ? ctx.userId(job.user) : pipeline.user_id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: pipeline.ref,
    tag: pipeline.tag,
    coverage: job.coverage,
    allow_failure: defaultAllowFailure(when, job.allow_failure),
    when,
    stage_idx: stageIndex(stages, job.stage),
    retried: false,
    trace: job.trace,
    erased_at: null,
    target_url: null,
    description: null,
    created_at,
    started_at: started,
    finished_at: finished,
  }
}

/**
 * A CI definition's jobs as GitLab's YAML would accept them: each name once (YAML keys), each
 * stage one of `stages` (GitLab: `jobs:<name> stage parameter should be …`). `ci_config:` is the
 * stand-in for a project without a `repository:`: beside one it is a problem (issue 40 item 4),
 * as the definition is then the repository's `.gitlab-ci.yml` and a commit without the file has
 * none ("Missing CI config file"), as on GitLab.
 */
function checkCiConfig(ctx: Parameters<NonNullable<ScenarioFragment['check']>>[0], project: Entry): void {
  const config = project.value.ci_config
  if (!isRec(config)) return
  const here: Entry = { ...at(project, 'ci_config'), value: config }
  if (project.value.repository !== undefined) {
    ctx.report(here, 'ci_config stands in for .gitlab-ci.yml only in a project without a `repository:`; this project has one: commit the definition as `.gitlab-ci.yml` in its `repository: commits:` instead')
    return
  }
  const stages = Array.isArray(config.stages) ? config.stages.filter((s): s is string => typeof s === 'string') : DEFAULT_STAGES
  const names = new Set<string>()
  for (const job of items(here, 'jobs')) {
    const name = str(job.value.name)
    if (name !== undefined) {
      if (names.has(name)) ctx.report(at(job, 'name'), `duplicate job name "${name}"`)
      names.add(name)
    }
    const stage = job.value.stage === undefined ? 'test' : str(job.value.stage)
    if (stage !== undefined && !stages.includes(stage)) ctx.report(at(job, 'stage'), `stage "${stage}" is not one of the stages (${stages.join(', ')})`)
  }
}

/** The runners fragment (see the module comment). */
export const runnerFragment: ScenarioFragment = {
  need: { always: 'load.root inserts the application_settings row, its runner registration token generated when the scenario writes none' },
  root: rootFields,
  fields: { project: projectFields },
  collections: [{ table: 'pipelines', field: 'pipelines', on: ['project'] }],
  check(ctx) {
    checkRunners(ctx)
    for (const project of ctx.model.project) {
      // With a repository, a pipeline's ref is one of its branches or tags (issue 38 item 2).
      const refs = scenarioRefNames(project)
      const name = ctx.index.fullPath(project) ?? String(project.value.path)
      for (const [pipeline, i] of list(project.value.pipelines)) {
        if (!isRec(pipeline)) continue
        ctx.checkUser(at(project, 'pipelines', i, 'user'), pipeline.user)
        if (!refs) continue
        const here = { ...at(project, 'pipelines', i), value: pipeline }
        const ref = str(pipeline.ref)
        const problem = ref === undefined ? undefined : refProblem('branch or tag', ref, refs, name)
        if (problem) ctx.report(at(here, 'ref'), problem)
      }
      checkCiConfig(ctx, project)
    }
  },
  load: {
    project(ctx, project, parent) {
      const row = ctx.row('project', parent.entry)
      const config = project.ci_config
      const stages = config?.stages ?? DEFAULT_STAGES
      if (config) {
        ctx.stage('project_ci_configs', {
          id: parent.id,
          project_id: parent.id,
          stages: [...stages],
          jobs: config.jobs.map((job) => ({ name: job.name, stage: job.stage, when: job.when, allow_failure: defaultAllowFailure(job.when, job.allow_failure) })),
        })
      }
      if (!project.public_builds) ctx.stage('project_ci_settings', { id: parent.id, project_id: parent.id, public_builds: false })
      let pending = pendingPipelineJobs.get(ctx.db)
      if (!pending) pendingPipelineJobs.set(ctx.db, (pending = []))
      for (const pipeline of project.pipelines) {
        const id = ctx.idOf(pipeline)
        const f = ctx.fake(`pipeline:${parent.key}:${id}`)
        const { created_at, updated_at } = ctx.timestamps(f, pipeline, parent.createdAt)
        const c = pipeline.commit
        const author = f.person.fullName()
        const email = f.internet.email({ firstName: author.split(' ')[0], provider: 'example.com' }).toLowerCase()
        const title = c.title ?? (c.message ?? '').split('\n')[0] ?? ''
        const commitTitle = title !== '' ? title : `${f.hacker.verb()} the ${f.hacker.noun()}`
        const record: PipelineRecord = {
          id,
          project_id: parent.id,
          sha: pipeline.sha ?? hex(f, 40),
          ref: pipeline.ref ?? row.default_branch,
          tag: pipeline.tag,
          status: pipeline.status,
          source: 'push',
          user_id: pipeline.user !== undefined ? ctx.userId(pipeline.user) : null,
          created_at,
          updated_at,
          commit_title: commitTitle,
          commit_message: c.message ?? `${commitTitle}\n`,
          parent_ids: c.parent_ids ?? [hex(f, 40)],
          author_name: c.author_name ?? author,
          author_email: c.author_email ?? email,
          authored_date: c.authored_date ?? created_at,
          committer_name: c.committer_name ?? c.author_name ?? author,
          committer_email: c.committer_email ?? c.author_email ?? email,
          committed_date: c.committed_date ?? created_at,
        }
        ctx.stage('pipelines', record)
        for (const job of pipeline.jobs) pending.push({ job, pipeline: record, stages })
        for (const variable of pipeline.variables) {
          ctx.db.tables.pipeline_variables.insert({ pipeline_id: id, key: variable.key, value: variable.value, variable_type: variable.variable_type })
        }
      }
    },
    // Then the persistent refs of the pipelines a runner had started (pipelines.refs.ts).
    root(ctx, scenario) {
      loadRoot(ctx, scenario)
      loadPipelineRefs(ctx.db)
    },
  },
}
