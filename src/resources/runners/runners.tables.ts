/**
 * The runners area's tables: runners, their project and group links, pipelines, jobs, pipeline
 * variables, projects' CI definitions and CI settings, and the instance's application settings (the
 * instance registration token).
 * gitlab: db/structure.sql (`ci_runners`, `ci_runner_projects`, `ci_runner_namespaces`,
 * `ci_pipelines`, `ci_builds`, `ci_pipeline_variables`, `projects.public_builds`, `application_settings`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** `instance_type` (shared), `group_type` or `project_type` (GitLab's `runner_type` enum). */
export type RunnerType = 'instance_type' | 'group_type' | 'project_type'

/** A runner's `access_level` (not a member's integer one): which refs it runs jobs for. */
export type RunnerAccessLevel = 'not_protected' | 'ref_protected'

/** A CI runner (`ci_runners`). `token` is its authentication token, never presented. */
export interface RunnerRecord extends Row {
  runner_type: RunnerType
  /** Authentication token, returned once by registration; used by verify and delete-by-token. */
  token: string
  description: string
  ip_address: string | null
  active: boolean
  locked: boolean
  run_untagged: boolean
  access_level: RunnerAccessLevel
  /** Seconds; null = no limit. */
  maximum_timeout: number | null
  /** Tags in the order they were given (GitLab's `tag_list`). */
  tag_list: string[]
  name: string | null
  version: string | null
  revision: string | null
  platform: string | null
  architecture: string | null
  /** Last contact with the instance; null = never connected. Drives `online` and `status`. */
  contacted_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A project a runner is enabled in (`ci_runner_projects`). */
export interface RunnerProjectRecord extends Row {
  runner_id: number
  project_id: number
  created_at: Timestamp
}

/** The group a group runner belongs to (`ci_runner_namespaces`). */
export interface RunnerNamespaceRecord extends Row {
  runner_id: number
  namespace_id: number
}

/** A pipeline and the commit it ran for (`ci_pipelines` plus the commit's fields). */
export interface PipelineRecord extends Row {
  project_id: number
  sha: string
  ref: string
  /** Whether `ref` is a tag (else a branch). */
  tag: boolean
  status: string
  /** What started it (GitLab's `source` enum name): `push` for the scenario's, `api` for `POST /projects/:id/pipeline`. */
  source: string
  user_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The commit: title (first line of the message), message, author and committer. */
  commit_title: string
  commit_message: string
  parent_ids: string[]
  author_name: string
  author_email: string
  authored_date: Timestamp
  committer_name: string
  committer_email: string
  committed_date: Timestamp
  /** A push pipeline's `before_sha` (the ref before the push; blank for a new ref); absent for others. */
  before_sha?: string
  /** The CI definition's error of a pipeline a push made failed (`yaml_errors`); absent for none. */
  yaml_errors?: string
}

/**
 * What a `ci_builds` row is (GitLab's STI `type` column): a job a runner runs, or a commit status
 * an outside system posted (`POST /projects/:id/statuses/:sha`).
 */
export type JobType = 'Ci::Build' | 'GenericCommitStatus'

/**
 * A CI job or a generic commit status (`ci_builds`, GitLab's `CommitStatus` and its subclasses),
 * of a pipeline of a project: a build is run by a runner, a generic status is set by the statuses
 * API. Both count in their pipeline's status; the jobs API shows builds only.
 */
export interface JobRecord extends Row {
  /** `Ci::Build` or `GenericCommitStatus`. */
  type: JobType
  runner_id: number | null
  project_id: number
  pipeline_id: number
  user_id: number | null
  status: string
  stage: string
  name: string
  ref: string
  tag: boolean
  coverage: number | null
  allow_failure: boolean
  /** When it runs (GitLab's `when`): `on_success`, `manual`, `always` or `on_failure`. */
  when: JobWhen
  /** Its stage's position in the pipeline (`stage_idx`): jobs of earlier stages decide whether it runs. */
  stage_idx: number
  /** Replaced by a retry (GitLab's `retried`): only the latest job of a name counts. */
  retried: boolean
  /** The job log (`trace`), null when there is none (never ran, or erased). */
  trace: string | null
  /** When `POST …/erase` removed its log; null otherwise. */
  erased_at: Timestamp | null
  /** A generic status's link to the outside system's page (`target_url`); null for builds. */
  target_url: string | null
  /** A generic status's `description`; null for builds. */
  description: string | null
  created_at: Timestamp
  started_at: Timestamp | null
  finished_at: Timestamp | null
  /**
   * The environment its `.gitlab-ci.yml` declares (`environment:`, GitLab's `ci_builds.environment`
   * and `options[:environment]`); absent for a job that declares none.
   */
  environment?: JobEnvironment | undefined
  /** What its `.gitlab-ci.yml` gives a runner (`ci_builds_metadata.config_options`); absent for a scenario stand-in's job. */
  options?: JobOptions | undefined
  /** Its `variables:` and the global ones, YAML's (`ci_builds.yaml_variables`), global first; absent for none. */
  yaml_variables?: { key: string; value: string }[] | undefined
  /** Its `tags:` (`ci_builds.tag_list`): a runner must carry every one; absent for none. */
  tag_list?: string[] | undefined
  /** Its job token (`ci_builds.token`), made when a runner picks it (`CI_JOB_TOKEN`); absent before. */
  token?: string | undefined
  /** Why it failed, as its runner said (`failure_reason`); absent when it did not fail that way. */
  failure_reason?: string | undefined
  /** Its timeout in seconds, fixed when a runner picks it (`ci_builds_metadata.timeout`); absent before. */
  timeout?: number | undefined
}

/**
 * What a runner is sent of a job (`Ci::Build#options` as `BuildRunnerPresenter` reads them): its
 * commands, image and services, artifacts, caches, dependencies and timeout, the global
 * `default:` (or legacy top-level) ones filled in. gitlab: lib/gitlab/ci/config/entry/job.rb (13.12).
 */
export interface JobOptions {
  before_script?: string[] | undefined
  script: string[]
  after_script?: string[] | undefined
  image?: JobImage | undefined
  services?: JobImage[] | undefined
  artifacts?: JobArtifactsOption | undefined
  cache?: JobCacheOption[] | undefined
  /** `dependencies:` names (absent: every job of the earlier stages). */
  dependencies?: string[] | undefined
  /** `timeout:` in seconds (absent: the project's). */
  timeout?: number | undefined
}

/** An `image:` or a `services:` entry: a name, or `{name, entrypoint, alias, command}`. */
export interface JobImage {
  name: string
  entrypoint?: string[] | undefined
  alias?: string | undefined
  command?: string[] | undefined
}

/** `artifacts:` as written (`Entry::Artifacts`). */
export interface JobArtifactsOption {
  name?: string | undefined
  untracked?: boolean | undefined
  paths?: string[] | undefined
  exclude?: string[] | undefined
  when?: string | undefined
  expire_in?: string | undefined
}

/** One `cache:` entry (`Entry::Cache`, its defaults filled in). */
export interface JobCacheOption {
  key: string
  untracked: boolean
  paths: string[]
  policy: string
  when: string
}

/**
 * A job's `environment:` (a string is `{name}`): its name, its `url`, and its `action`
 * (`start`, the default, deploys; `stop` stops the environment; `prepare` neither).
 * gitlab: lib/gitlab/ci/config/entry/environment.rb (13.12).
 */
export interface JobEnvironment {
  name: string
  url: string | null
  action: 'start' | 'stop' | 'prepare'
}

/** GitLab's job `when` values fakelab runs (`delayed` is not simulated). */
export type JobWhen = 'on_success' | 'manual' | 'always' | 'on_failure'

/** A variable given to a pipeline when it was created (`ci_pipeline_variables`). */
export interface PipelineVariableRecord extends Row {
  pipeline_id: number
  key: string
  value: string
  /** `env_var` or `file`. */
  variable_type: string
}

/**
 * A project's CI definition, the scenario's stand-in for `.gitlab-ci.yml` (one row per project
 * that has one, `id` = the project's id): its stages and jobs, read by `POST /projects/:id/pipeline`.
 */
export interface ProjectCiConfigRecord extends Row {
  project_id: number
  /** Stage names in order. */
  stages: string[]
  /** The jobs, in the order they are written. */
  jobs: CiConfigJob[]
}

/** One job of a {@link ProjectCiConfigRecord}. */
export interface CiConfigJob {
  name: string
  stage: string
  when: JobWhen
  allow_failure: boolean
}

/** A project's CI settings this area keeps (`projects.public_builds`): one row per project that sets them, `id` = the project's id. */
export interface ProjectCiSettingRecord extends Row {
  project_id: number
  /** Whether non-members (and guests) may see pipelines and jobs (GitLab's "Public pipelines"). */
  public_builds: boolean
}

/** The instance's settings (one row, id 1): the instance runner registration token. */
export interface ApplicationSettingRecord extends Row {
  runners_registration_token: string
}

declare module '../../db/schema.js' {
  interface Tables {
    runners: RunnerRecord
    runner_projects: RunnerProjectRecord
    runner_namespaces: RunnerNamespaceRecord
    pipelines: PipelineRecord
    jobs: JobRecord
    pipeline_variables: PipelineVariableRecord
    project_ci_configs: ProjectCiConfigRecord
    project_ci_settings: ProjectCiSettingRecord
    application_settings: ApplicationSettingRecord
  }
  /** This area's column on core's groups (GitLab `namespaces.runners_token`). */
  interface GroupRecord {
    /** Registration token for group runners. */
    runners_token: string
  }
  /** This area's column on core's projects (GitLab `projects.runners_token`). */
  interface ProjectRecord {
    /** Registration token for project runners. */
    runners_token: string
  }
  /** This area's column on core's CI job tokens. */
  interface CiJobTokenRecord {
    /**
     * The job (`jobs`) whose `CI_JOB_TOKEN` this is, presented by `GET /job`; absent or null when
     * the scenario names none.
     */
    job_id?: number | null
  }
}

/** The tables and their indexes (the foreign keys the lists filter on; tokens for the runner API). */
export const runnerTables = {
  runners: table<RunnerRecord>(['token']),
  runner_projects: table<RunnerProjectRecord>(['runner_id', 'project_id']),
  runner_namespaces: table<RunnerNamespaceRecord>(['runner_id', 'namespace_id']),
  pipelines: table<PipelineRecord>(['project_id']),
  jobs: table<JobRecord>(['runner_id', 'pipeline_id', 'project_id']),
  pipeline_variables: table<PipelineVariableRecord>(['pipeline_id']),
  project_ci_configs: table<ProjectCiConfigRecord>(['project_id']),
  project_ci_settings: table<ProjectCiSettingRecord>(['project_id']),
  application_settings: table<ApplicationSettingRecord>(),
}
