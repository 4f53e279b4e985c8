/**
 * `Entities::Ci::Variable` as an instance variable shows it: variable_type, key, value, protected,
 * masked (no `environment_scope`). gitlab: lib/api/entities/ci/variable.rb (13.12).
 * @module
 */
import type { InstanceVariableRecord } from './ci-variables.tables.js'

/** An instance variable, key by key in GitLab's order. */
export function InstanceVariable(v: InstanceVariableRecord) {
  return { variable_type: v.variable_type, key: v.key, value: v.value, protected: v.protected, masked: v.masked }
}
