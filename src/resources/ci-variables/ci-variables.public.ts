/**
 * What other areas may use of the CI variables area: the variables a pipeline of a project gets
 * from the instance, the project's groups and the project (`Ci::Pipeline`/`Ci::Build`
 * `#scoped_variables`: `ci_instance_variables_for`, `group.ci_variables_for`,
 * `project.ci_variables_for`), for the runners area to read while it makes a pipeline.
 * Nothing here imports another area. gitlab: app/models/project.rb (`ci_variables_for`,
 * `protected_for?`), app/models/group.rb (`ci_variables_for`), app/models/ci/build.rb
 * (`scoped_variables`), app/models/concerns/has_environment_scope.rb (`on_environment`) (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'

/** One variable as a pipeline receives it. */
export interface CiVariable {
  readonly key: string
  readonly value: string
  /** `env_var` or `file`. */
  readonly variable_type: string
  readonly masked: boolean
  readonly protected: boolean
}

/** What decides which variables a pipeline (or job) gets. */
export interface CiVariableScope {
  /** Whether the pipeline's ref is protected (a protected branch or tag): protected variables only then. */
  readonly protectedRef: boolean
  /** The job's environment name, when it deploys to one (scoped variables match it); absent: `*` only. */
  readonly environment?: string | undefined
}

/** `HasEnvironmentScope.on_environment`: whether a scope (`*`, a name, a `review/*` pattern) covers the environment. */
function scopeMatches(scope: string, environment: string | undefined): boolean {
  if (scope === '*') return true
  if (environment === undefined) return false
  if (!scope.includes('*')) return scope === environment
  const pattern = new RegExp(`^${scope.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
  return pattern.test(environment)
}

/** Order of scope precedence: `*` first, then wildcard patterns, then exact names (the later wins). */
function scopeRank(scope: string): number {
  return scope === '*' ? 0 : scope.includes('*') ? 1 : 2
}

/**
 * The CI variables a pipeline of the project gets from settings, in GitLab's precedence, lowest
 * first (a later one of the same key wins): the instance's, then each group's from the root group
 * down to the project's own, then the project's. Protected ones only when `protectedRef`; project
 * variables of other environment scopes than `*` only when `environment` matches them.
 */
export function settingsVariablesFor(db: Db, project: ProjectRecord, scope: CiVariableScope): CiVariable[] {
  const visible = (v: { protected: boolean }) => scope.protectedRef || !v.protected
  const out: CiVariable[] = []
  const pick = (v: CiVariable) => out.push({ key: v.key, value: v.value, variable_type: v.variable_type, masked: v.masked, protected: v.protected })
  db.tables.ci_instance_variables.all().filter(visible).forEach(pick)
  const group = db.projectGroup(project)
  if (group) {
    for (const ancestor of db.groupSelfAndAncestors(group).reverse()) {
      db.tables.ci_group_variables.where('group_id', ancestor.id).filter((v) => visible(v) && scopeMatches(v.environment_scope, scope.environment)).forEach(pick)
    }
  }
  db.tables.ci_variables
    .where('project_id', project.id)
    .filter((v) => visible(v) && scopeMatches(v.environment_scope, scope.environment))
    .sort((a, b) => scopeRank(a.environment_scope) - scopeRank(b.environment_scope) || a.id - b.id)
    .forEach(pick)
  return out
}
