/**
 * CI variables of the instance, projects and groups: lookups and the models' validations
 * (`Ci::HasVariable`, `Ci::Maskable`, `HasEnvironmentScope`, `Ci::InstanceVariable`,
 * `Ci::Variable`, `Ci::GroupVariable`), errors in the order Rails adds them; the
 * `filter[environment_scope]` lookup (`Ci::VariablesFinder`, `VariablesHelpers#find_variable`).
 * gitlab: app/models/concerns/ci/has_variable.rb, app/models/concerns/ci/maskable.rb,
 * app/models/concerns/has_environment_scope.rb, app/models/ci/instance_variable.rb,
 * app/models/ci/variable.rb, app/models/ci/group_variable.rb, app/finders/ci/variables_finder.rb,
 * lib/api/helpers/variables_helpers.rb (13.12).
 * @module
 */
import { conflict, notFound, validationFailed } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import type { GroupVariableRecord, InstanceVariableRecord, ProjectVariableRecord, VariableType } from './ci-variables.tables.js'

/** `Ci::Maskable::REGEX`: at least 8 characters of the Base64 alphabet (RFC 4648) plus `@:.~`. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/

/** `Gitlab::Regex.environment_scope_regex`: environment name characters and `*`. */
const ENVIRONMENT_SCOPE = /^[a-zA-Z0-9_/${}. *-]+$/

/** `Gitlab::Regex.environment_scope_regex_message`. */
const ENVIRONMENT_SCOPE_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"

/** The fields every variable has, as a write sets them. */
export interface VariableFields {
  key: string
  value: string
  variable_type: VariableType
  protected: boolean
  masked: boolean
}

/** The fields of an instance variable a write sets. */
export type InstanceVariableFields = VariableFields

/** The fields of a project or group variable a write sets (a group's scope stays `*` in CE). */
export interface ScopedVariableFields extends VariableFields {
  environment_scope: string
}

/** A field change of an existing variable (`PUT`): any of them, the key too for project and group variables. */
export type VariablePatch<F extends VariableFields> = Partial<F>

/**
 * The validation errors of a variable about to be saved (none: `{}`): key presence, length 255
 * and format ("can contain only letters, digits and '_'."); the value's length (10 000, instance
 * variables only: "The value of the provided variable exceeds the 10000 character limit"); a
 * masked value's format ("is invalid"); the environment scope's presence and format (project and
 * group variables); key uniqueness "(KEY) has already been taken" (within the owner and scope).
 */
function validate(fields: VariableFields & { environment_scope?: string }, taken: boolean, instance: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (attr: string, message: string) => (errors[attr] ??= []).push(message)
  if (fields.key === '') add('key', "can't be blank")
  if (fields.key.length > 255) add('key', 'is too long (maximum is 255 characters)')
  if (!/^[a-zA-Z0-9_]+$/.test(fields.key)) add('key', "can contain only letters, digits and '_'.")
  if (instance && taken) add('key', `(${fields.key}) has already been taken`)
  if (instance && fields.value.length > 10_000) add('value', 'The value of the provided variable exceeds the 10000 character limit')
  if (fields.masked && !MASKABLE.test(fields.value)) add('value', 'is invalid')
  if (fields.environment_scope !== undefined) {
    if (fields.environment_scope === '') add('environment_scope', "can't be blank")
    else if (!ENVIRONMENT_SCOPE.test(fields.environment_scope)) add('environment_scope', ENVIRONMENT_SCOPE_MESSAGE)
  }
  if (!instance && taken) add('key', `(${fields.key}) has already been taken`)
  return errors
}

/** Throws GitLab's 400 for a non-empty error set. */
function check(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

// ---- instance ---------------------------------------------------------------------------------

/** Every instance variable, in id order. */
export function listInstanceVariables(db: Db): InstanceVariableRecord[] {
  return db.tables.ci_instance_variables.all()
}

/**
 * The instance variable with this key.
 * @throws ApiError 404 `{"message":"404 InstanceVariable Not Found"}`.
 */
export function findInstanceVariable(db: Db, key: string): InstanceVariableRecord {
  const found = db.tables.ci_instance_variables.where('key', key)[0]
  if (!found) throw notFound('InstanceVariable')
  return found
}

/** Whether another instance variable (not `id`) has the key. */
function instanceKeyTaken(db: Db, key: string, id: number | null): boolean {
  return db.tables.ci_instance_variables.where('key', key).some((v) => v.id !== id)
}

/**
 * Creates an instance variable.
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure.
 */
export function createInstanceVariable(db: Db, fields: InstanceVariableFields): InstanceVariableRecord {
  check(validate(fields, instanceKeyTaken(db, fields.key, null), true))
  return db.tables.ci_instance_variables.insert({ ...fields })
}

/**
 * Updates an instance variable (its key stays).
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure.
 */
export function updateInstanceVariable(db: Db, variable: InstanceVariableRecord, patch: Partial<Omit<InstanceVariableFields, 'key'>>): InstanceVariableRecord {
  const next: InstanceVariableFields = {
    key: variable.key,
    value: patch.value ?? variable.value,
    variable_type: patch.variable_type ?? variable.variable_type,
    protected: patch.protected ?? variable.protected,
    masked: patch.masked ?? variable.masked,
  }
  check(validate(next, instanceKeyTaken(db, next.key, variable.id), true))
  return db.tables.ci_instance_variables.update(variable.id, next)
}

/** Deletes an instance variable. */
export function deleteInstanceVariable(db: Db, variable: InstanceVariableRecord): void {
  db.tables.ci_instance_variables.delete(variable.id)
}

// ---- projects and groups ----------------------------------------------------------------------

/** A project's variables, in id order (`project.variables`). */
export function listProjectVariables(db: Db, project: ProjectRecord): ProjectVariableRecord[] {
  return db.tables.ci_variables.where('project_id', project.id)
}

/** A group's variables, in id order (`group.variables`). */
export function listGroupVariables(db: Db, group: GroupRecord): GroupVariableRecord[] {
  return db.tables.ci_group_variables.where('group_id', group.id)
}

/**
 * `find_variable`: the one variable of the list with the key and, when `filter[environment_scope]`
 * is given (not blank), that scope; undefined when none.
 * @throws ApiError 409 `{"message":"There are multiple variables with provided parameters. Please use 'filter[environment_scope]'"}`
 *   when several match.
 */
export function findScopedVariable<V extends { key: string; environment_scope: string }>(variables: readonly V[], key: string, scope: string | undefined): V | undefined {
  const found = variables.filter((v) => v.key === key && (scope === undefined || scope === '' || v.environment_scope === scope))
  if (found.length > 1) throw conflict("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'")
  return found[0]
}

/**
 * Creates a project variable (`Ci::ChangeVariableService` `create`).
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure (a key taken in the
 *   same scope: `{"key":["(KEY) has already been taken"]}`).
 */
export function createProjectVariable(db: Db, project: ProjectRecord, fields: ScopedVariableFields): ProjectVariableRecord {
  const taken = listProjectVariables(db, project).some((v) => v.key === fields.key && v.environment_scope === fields.environment_scope)
  check(validate(fields, taken, false))
  return db.tables.ci_variables.insert({ project_id: project.id, ...fields })
}

/**
 * Updates a project variable (`variable.update`): any field, the key and scope too.
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure.
 */
export function updateProjectVariable(db: Db, variable: ProjectVariableRecord, patch: VariablePatch<ScopedVariableFields>): ProjectVariableRecord {
  const next = merged(variable, patch)
  const taken = db.tables.ci_variables.where('project_id', variable.project_id).some((v) => v.id !== variable.id && v.key === next.key && v.environment_scope === next.environment_scope)
  check(validate(next, taken, false))
  return db.tables.ci_variables.update(variable.id, next)
}

/** Deletes a project variable. */
export function deleteProjectVariable(db: Db, variable: ProjectVariableRecord): void {
  db.tables.ci_variables.delete(variable.id)
}

/**
 * Creates a group variable (scope `*`).
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure.
 */
export function createGroupVariable(db: Db, group: GroupRecord, fields: VariableFields): GroupVariableRecord {
  const all: ScopedVariableFields = { ...fields, environment_scope: '*' }
  const taken = listGroupVariables(db, group).some((v) => v.key === all.key && v.environment_scope === all.environment_scope)
  check(validate(all, taken, false))
  return db.tables.ci_group_variables.insert({ group_id: group.id, ...all })
}

/**
 * Updates a group variable: any field, the key too (the scope stays).
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure.
 */
export function updateGroupVariable(db: Db, variable: GroupVariableRecord, patch: VariablePatch<VariableFields>): GroupVariableRecord {
  const next = merged(variable, { ...patch, environment_scope: variable.environment_scope })
  const taken = db.tables.ci_group_variables.where('group_id', variable.group_id).some((v) => v.id !== variable.id && v.key === next.key && v.environment_scope === next.environment_scope)
  check(validate(next, taken, false))
  return db.tables.ci_group_variables.update(variable.id, next)
}

/** Deletes a group variable. */
export function deleteGroupVariable(db: Db, variable: GroupVariableRecord): void {
  db.tables.ci_group_variables.delete(variable.id)
}

/** A variable's fields with a patch over them, key by key. */
function merged(variable: ScopedVariableFields, patch: VariablePatch<ScopedVariableFields>): ScopedVariableFields {
  return {
    key: patch.key ?? variable.key,
    value: patch.value ?? variable.value,
    variable_type: patch.variable_type ?? variable.variable_type,
    protected: patch.protected ?? variable.protected,
    masked: patch.masked ?? variable.masked,
    environment_scope: patch.environment_scope ?? variable.environment_scope,
  }
}
