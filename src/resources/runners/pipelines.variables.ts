/**
 * The CI variables a new pipeline's rules read (`Ci::Pipeline`/`Ci::Build#scoped_variables` as
 * far as fakelab has them), in GitLab's precedence, lowest first: the predefined variables
 * (CI, GITLAB_CI, CI_PIPELINE_SOURCE, CI_COMMIT_*, CI_DEFAULT_BRANCH, CI_PROJECT_*...), the
 * instance's, the groups' (root first) and the project's variables (protected ones only on a
 * protected ref, from the CI variables area), the pipeline's own variables (API, trigger), then a
 * schedule's variables. gitlab: app/models/ci/build.rb (`scoped_variables`),
 * app/models/ci/pipeline.rb (`predefined_variables`), app/models/project.rb
 * (`predefined_variables`, `protected_for?`), doc/ci/variables/predefined_variables.md (13.12).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import { settingsVariablesFor } from '../ci-variables/ci-variables.public.js'
import { isProtectedBranch, repositoryOf } from '../repository/repository.public.js'
import { isProtectedTag } from '../protected-tags/protected-tags.public.js'
import type { RuleCtx } from './pipelines.events.js'

/** A variable as a pipeline is given it (`key`, `value`, `variable_type`). */
export interface GivenVariable {
  readonly key: string
  readonly value: string
}

/** What the predefined variables are made from. */
export interface VariableFacts {
  readonly source: string
  readonly sha: string
  /** The short ref (a branch or tag name, or `refs/merge-requests/<iid>/head`). */
  readonly ref: string
  readonly tag: boolean
  /** The pipeline's own variables (`POST /projects/:id/pipeline`, a trigger's `variables[KEY]`). */
  readonly variables: readonly GivenVariable[]
  /** A schedule's variables (over the pipeline's own). */
  readonly scheduleVariables?: readonly GivenVariable[] | undefined
  /** Predefined variables the caller adds (a merge request pipeline's `CI_MERGE_REQUEST_*`). */
  readonly extra?: Readonly<Record<string, string>> | undefined
}

/** `CI_COMMIT_REF_SLUG`: the ref lower-cased, shortened to 63 bytes, every character but 0-9 and a-z replaced with `-`, no leading or trailing `-`. */
function slugify(ref: string): string {
  return ref.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '')
}

/** `Project#protected_for?(ref)`: a protected tag for a tag, else a protected branch. */
export function protectedRefForVariables(ctx: RuleCtx, project: ProjectRecord, ref: string, tag: boolean): boolean {
  if (tag) return isProtectedTag(ctx.db, project.id, ref)
  return isProtectedBranch(ctx.db, project, repositoryOf(ctx.db, project), ref)
}

/**
 * The variables of a new pipeline, a later key over an earlier one (see the module comment), and the keys of its layers that outrank `.gitlab-ci.yml`'s own
 * `variables:` (the instance's, groups', project's, the pipeline's and a schedule's: 13.12's
 * `Ci::Build#variables` puts the YAML's between the predefined ones and these).
 */
export function pipelineVariables(ctx: RuleCtx, project: ProjectRecord, f: VariableFacts): { variables: Record<string, string>; overrides: Set<string> } {
  const overrides = new Set<string>()
  const db = ctx.db
  const protectedRef = f.source !== 'merge_request_event' && protectedRefForVariables(ctx, project, f.ref, f.tag)
  const vars: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PROJECT_ID: String(project.id),
    CI_PROJECT_NAME: project.path,
    CI_PROJECT_TITLE: project.name,
    CI_PROJECT_PATH: `${db.namespaceFullPath(project)}/${project.path}`,
    CI_PROJECT_NAMESPACE: db.namespaceFullPath(project),
    CI_PROJECT_VISIBILITY: project.visibility,
    CI_DEFAULT_BRANCH: project.default_branch,
    CI_PIPELINE_SOURCE: f.source,
    CI_COMMIT_SHA: f.sha,
    CI_COMMIT_SHORT_SHA: f.sha.slice(0, 8),
    CI_COMMIT_REF_NAME: f.ref,
    CI_COMMIT_REF_SLUG: slugify(f.ref),
    CI_COMMIT_REF_PROTECTED: String(protectedRef),
  }
  if (f.source !== 'merge_request_event') {
    if (f.tag) vars.CI_COMMIT_TAG = f.ref
    else vars.CI_COMMIT_BRANCH = f.ref
  }
  if (f.source === 'trigger') vars.CI_PIPELINE_TRIGGERED = 'true'
  Object.assign(vars, f.extra ?? {})
  for (const v of [...settingsVariablesFor(db, project, { protectedRef }), ...f.variables, ...(f.scheduleVariables ?? [])]) {
    vars[v.key] = v.value
    overrides.add(v.key)
  }
  return { variables: vars, overrides }
}
