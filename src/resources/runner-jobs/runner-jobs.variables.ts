/**
 * The variables a runner is sent with a job (`Ci::BuildRunnerPresenter#runner_variables` with
 * `variable_inside_variable` off: `Ci::Build#variables.to_runner_variables`), in GitLab 13.12's
 * order, duplicates kept (the runner takes the last): the persisted ones (pipeline and job ids,
 * URLs, the job token), then `scoped_variables` (the job's, the project's and instance's, the
 * pipeline's and commit's, the runner's predefined ones; the YAML's; the user's; the instance's,
 * groups' and project's CI variables, protected ones on protected refs only and environment
 * scopes matched; the pipeline's own variables, trigger ones among them; a schedule's), then the
 * environment's. Each is `{key, value, public, masked}` (`file: true` before `masked` for a file
 * variable): predefined and YAML ones are public, settings and pipeline ones are not.
 * gitlab (13.12): app/models/ci/build.rb (`variables`, `persisted_variables`,
 * `persisted_environment_variables`), app/models/concerns/ci/contextable.rb (`scoped_variables`,
 * `predefined_variables`, `user_variables`), app/models/project.rb (`predefined_variables`,
 * `predefined_ci_server_variables`, `api_variables`), app/models/ci/pipeline.rb
 * (`predefined_variables`, `predefined_commit_variables`, `persisted_variables`),
 * app/models/ci/runner.rb (`predefined_variables`), lib/gitlab/ci/variables/collection/item.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { projectWebUrl } from '../../entities/urls.js'
import { settingsVariablesFor } from '../ci-variables/ci-variables.public.js'
import { scheduleVariablesOfPipeline } from '../ci-triggers/ci-triggers.public.js'
import { environmentByName } from '../environments/environments.public.js'
import { repositoryLanguages } from '../repository-languages/repository-languages.public.js'
import { pipelineIid, protectedRefForVariables, variablesOfPipeline, type JobRecord, type PipelineRecord, type RunnerRecord } from '../runners/runners.public.js'
import { GITLAB_REVISION, GITLAB_VERSION } from '../version/version.public.js'

/** One variable as the runner receives it (`Collection::Item#to_runner_variable`). */
export interface RunnerVariable {
  key: string
  value: string
  public: boolean
  file?: true
  masked: boolean
}

/** `Gitlab::Ci::Variables::Collection`: appends items in order. */
class Collection {
  readonly items: RunnerVariable[] = []
  add(key: string, value: string | null | undefined, options: { public?: boolean; masked?: boolean; file?: boolean } = {}): this {
    const item: RunnerVariable = { key, value: value ?? '', public: options.public ?? true, masked: options.masked ?? false }
    if (options.file) {
      // Key order of `{key, value, public, file, masked}` with `file: false` dropped.
      this.items.push({ key, value: item.value, public: item.public, file: true, masked: item.masked })
    } else this.items.push(item)
    return this
  }
}

/** `CI_COMMIT_REF_SLUG` (`Gitlab::Utils.slugify`): lower case, non-alphanumerics `-`, 63 bytes, no `-` at either end. */
function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '')
}

/** `Gitlab::Git::BLANK_SHA`: a pipeline's `before_sha` when it has none. */
const BLANK_SHA = '0'.repeat(40)

/** `Time#xmlschema` of a stored timestamp: `2021-04-01T12:00:00+00:00`. */
function xmlschema(at: string): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, '+00:00')
}

/** What the job's variables are made from. */
export interface JobVariableFacts {
  readonly job: JobRecord
  readonly pipeline: PipelineRecord
  readonly project: ProjectRecord
  readonly runner: RunnerRecord
  /** `Ci::Build#repo_url`: the project's HTTP clone URL with `gitlab-ci-token:<token>@`. */
  readonly repoUrl: string
}

/** The variables of a job picked by a runner (see the module comment). */
export function runnerVariables(ctx: PresentCtx, f: JobVariableFacts): RunnerVariable[] {
  const { job, pipeline, project, runner } = f
  const db = ctx.db
  const v = new Collection()
  const web = projectWebUrl(ctx, project)
  const token = job.token ?? ''
  // Ci::Build#persisted_variables (the pipeline's first).
  v.add('CI_PIPELINE_ID', String(pipeline.id)).add('CI_PIPELINE_URL', `${web}/-/pipelines/${pipeline.id}`)
  v.add('CI_JOB_ID', String(job.id)).add('CI_JOB_URL', `${web}/-/jobs/${job.id}`)
  v.add('CI_JOB_TOKEN', token, { public: false, masked: true })
  v.add('CI_BUILD_ID', String(job.id)).add('CI_BUILD_TOKEN', token, { public: false, masked: true })
  v.add('CI_REGISTRY_USER', 'gitlab-ci-token').add('CI_REGISTRY_PASSWORD', token, { public: false, masked: true })
  v.add('CI_REPOSITORY_URL', f.repoUrl, { public: false })
  // Contextable#scoped_variables: the job's predefined variables.
  const manual = job.when === 'manual'
  const triggered = pipeline.source === 'trigger'
  v.add('CI_JOB_NAME', job.name).add('CI_JOB_STAGE', job.stage)
  if (manual) v.add('CI_JOB_MANUAL', 'true')
  if (triggered) v.add('CI_PIPELINE_TRIGGERED', 'true')
  v.add('CI_NODE_TOTAL', '1')
  v.add('CI_BUILD_NAME', job.name).add('CI_BUILD_STAGE', job.stage)
  if (triggered) v.add('CI_BUILD_TRIGGERED', 'true')
  if (manual) v.add('CI_BUILD_MANUAL', 'true')
  // Project#predefined_variables: the server's, the project's, the API's.
  const base = new URL(ctx.baseUrl)
  const protocol = base.protocol.replace(':', '')
  const [major, minor, patch] = GITLAB_VERSION.split('.')
  v.add('CI', 'true').add('GITLAB_CI', 'true').add('CI_SERVER_URL', ctx.baseUrl).add('CI_SERVER_HOST', base.hostname)
  v.add('CI_SERVER_PORT', base.port !== '' ? base.port : protocol === 'https' ? '443' : '80').add('CI_SERVER_PROTOCOL', protocol)
  v.add('CI_SERVER_NAME', 'GitLab').add('CI_SERVER_VERSION', GITLAB_VERSION).add('CI_SERVER_VERSION_MAJOR', major).add('CI_SERVER_VERSION_MINOR', minor)
  v.add('CI_SERVER_VERSION_PATCH', patch).add('CI_SERVER_REVISION', GITLAB_REVISION)
  const namespace = db.namespaceFullPath(project)
  const fullPath = db.projectFullPath(project)
  const group = db.projectGroup(project)
  const root = group ? db.groupSelfAndAncestors(group).at(-1)!.path : namespace
  v.add('GITLAB_FEATURES', '')
  v.add('CI_PROJECT_ID', String(project.id)).add('CI_PROJECT_NAME', project.path).add('CI_PROJECT_TITLE', project.name)
  v.add('CI_PROJECT_PATH', fullPath).add('CI_PROJECT_PATH_SLUG', slugify(fullPath)).add('CI_PROJECT_NAMESPACE', namespace)
  v.add('CI_PROJECT_ROOT_NAMESPACE', root).add('CI_PROJECT_URL', web).add('CI_PROJECT_VISIBILITY', project.visibility)
  v.add('CI_PROJECT_REPOSITORY_LANGUAGES', Object.keys(repositoryLanguages(db, project)).join(',').toLowerCase())
  v.add('CI_DEFAULT_BRANCH', project.default_branch).add('CI_PROJECT_CONFIG_PATH', '.gitlab-ci.yml')
  v.add('CI_API_V4_URL', `${ctx.baseUrl}/api/v4`)
  // Ci::Pipeline#predefined_variables and its commit's.
  const mergeRequest = pipeline.source === 'merge_request_event'
  const iid = /^refs\/merge-requests\/(\d+)\/head$/.exec(pipeline.ref)?.[1]
  const sourceRef = pipeline.ref
  const protectedRef = !mergeRequest && protectedRefForVariables(ctx, project, pipeline.ref, pipeline.tag)
  const before = pipeline.before_sha ?? BLANK_SHA
  const newline = pipeline.commit_message.indexOf('\n')
  const description = newline < 0 ? '' : pipeline.commit_message.slice(newline + 1).replace(/^\n+/, '')
  v.add('CI_PIPELINE_IID', String(pipelineIid(db, pipeline))).add('CI_PIPELINE_SOURCE', pipeline.source).add('CI_CONFIG_PATH', '.gitlab-ci.yml')
  v.add('CI_COMMIT_SHA', pipeline.sha).add('CI_COMMIT_SHORT_SHA', pipeline.sha.slice(0, 8)).add('CI_COMMIT_BEFORE_SHA', before)
  v.add('CI_COMMIT_REF_NAME', sourceRef).add('CI_COMMIT_REF_SLUG', slugify(sourceRef))
  if (!pipeline.tag && !mergeRequest) v.add('CI_COMMIT_BRANCH', pipeline.ref)
  if (pipeline.tag) v.add('CI_COMMIT_TAG', pipeline.ref)
  v.add('CI_COMMIT_MESSAGE', pipeline.commit_message).add('CI_COMMIT_TITLE', pipeline.commit_title).add('CI_COMMIT_DESCRIPTION', description)
  v.add('CI_COMMIT_REF_PROTECTED', String(protectedRef)).add('CI_COMMIT_TIMESTAMP', xmlschema(pipeline.committed_date))
  v.add('CI_COMMIT_AUTHOR', `${pipeline.author_name} <${pipeline.author_email}>`)
  v.add('CI_BUILD_REF', pipeline.sha).add('CI_BUILD_BEFORE_SHA', before).add('CI_BUILD_REF_NAME', sourceRef).add('CI_BUILD_REF_SLUG', slugify(sourceRef))
  if (pipeline.tag) v.add('CI_BUILD_TAG', pipeline.ref)
  if (mergeRequest && iid !== undefined) v.add('CI_MERGE_REQUEST_IID', iid).add('CI_MERGE_REQUEST_REF_PATH', pipeline.ref)
  // Ci::Runner#predefined_variables.
  v.add('CI_RUNNER_ID', String(runner.id)).add('CI_RUNNER_DESCRIPTION', runner.description).add('CI_RUNNER_TAGS', runner.tag_list.join(', '))
  // The YAML's, the user's.
  for (const y of job.yaml_variables ?? []) v.add(y.key, y.value)
  const user = job.user_id === null ? undefined : db.tables.users.get(job.user_id)
  if (user) v.add('GITLAB_USER_ID', String(user.id)).add('GITLAB_USER_EMAIL', user.email).add('GITLAB_USER_LOGIN', user.username).add('GITLAB_USER_NAME', user.name)
  // The instance's, groups' and project's CI variables.
  for (const s of settingsVariablesFor(db, project, { protectedRef, environment: job.environment?.name })) {
    v.add(s.key, s.value, { public: false, file: s.variable_type === 'file', masked: s.masked })
  }
  // The pipeline's own (API, trigger, push options), then a schedule's.
  for (const p of variablesOfPipeline(db, pipeline.id)) v.add(p.key, p.value, { public: false, file: p.variable_type === 'file' })
  for (const s of scheduleVariablesOfPipeline(db, pipeline.id)) v.add(s.key, s.value, { public: false, file: s.variable_type === 'file' })
  // Ci::Build#persisted_environment_variables.
  if (job.environment) {
    const env = environmentByName(db, project.id, job.environment.name)
    if (env) {
      v.add('CI_ENVIRONMENT_NAME', env.name).add('CI_ENVIRONMENT_SLUG', env.slug)
      if (job.environment.url !== null) v.add('CI_ENVIRONMENT_URL', job.environment.url)
    }
  }
  return v.items
}

/** The project's HTTP clone URL with the job token (`Ci::Build#repo_url`). */
export function repoUrl(ctx: PresentCtx, db: Db, project: ProjectRecord, token: string): string {
  return `${projectWebUrl(ctx, project)}.git`.replace(/^(https?:\/\/)/, `$1gitlab-ci-token:${token}@`)
}
