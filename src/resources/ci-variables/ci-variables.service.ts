/**
 * Instance CI variables: lookups and the model's validations (`Ci::HasVariable`, `Ci::Maskable`,
 * `Ci::InstanceVariable`), errors in the order Rails adds them.
 * gitlab: app/models/concerns/ci/has_variable.rb, app/models/concerns/ci/maskable.rb,
 * app/models/ci/instance_variable.rb (13.12).
 * @module
 */
import { notFound, validationFailed } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { InstanceVariableRecord } from './ci-variables.tables.js'

/** `Ci::Maskable::REGEX`: at least 8 characters of the Base64 alphabet (RFC 4648) plus `@:.~`. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/

/** The fields of an instance variable a write sets. */
export type InstanceVariableFields = Pick<InstanceVariableRecord, 'key' | 'value' | 'variable_type' | 'protected' | 'masked'>

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

/**
 * The validation errors of a variable about to be saved (none: `{}`): key presence, length 255 and
 * format ("can contain only letters, digits and '_'."), key uniqueness "(KEY) has already been
 * taken", value length 10 000 ("The value of the provided variable exceeds the 10000 character
 * limit"), and a masked value's format ("is invalid").
 */
function validate(db: Db, fields: InstanceVariableFields, id: number | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (attr: string, message: string) => (errors[attr] ??= []).push(message)
  if (fields.key === '') add('key', "can't be blank")
  if (fields.key.length > 255) add('key', 'is too long (maximum is 255 characters)')
  if (!/^[a-zA-Z0-9_]+$/.test(fields.key)) add('key', "can contain only letters, digits and '_'.")
  if (db.tables.ci_instance_variables.where('key', fields.key).some((v) => v.id !== id)) add('key', `(${fields.key}) has already been taken`)
  if (fields.value.length > 10_000) add('value', 'The value of the provided variable exceeds the 10000 character limit')
  if (fields.masked && !MASKABLE.test(fields.value)) add('value', 'is invalid')
  return errors
}

/**
 * Creates an instance variable.
 * @throws ApiError 400 `{"message":{<attr>:[...]}}` on a validation failure.
 */
export function createInstanceVariable(db: Db, fields: InstanceVariableFields): InstanceVariableRecord {
  const errors = validate(db, fields, null)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
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
  const errors = validate(db, next, variable.id)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return db.tables.ci_instance_variables.update(variable.id, next)
}

/** Deletes an instance variable. */
export function deleteInstanceVariable(db: Db, variable: InstanceVariableRecord): void {
  db.tables.ci_instance_variables.delete(variable.id)
}
