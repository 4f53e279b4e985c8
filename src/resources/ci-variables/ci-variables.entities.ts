/**
 * `Entities::Ci::Variable`: variable_type, key, value, protected, masked, and `environment_scope`
 * for the models that have one (project and group variables; an instance variable has none).
 * gitlab: lib/api/entities/ci/variable.rb (13.12).
 * @module
 */
import type { GroupVariableRecord, InstanceVariableRecord, ProjectVariableRecord } from './ci-variables.tables.js'

/** An instance variable, key by key in GitLab's order. */
export function InstanceVariable(v: InstanceVariableRecord) {
  return { variable_type: v.variable_type, key: v.key, value: v.value, protected: v.protected, masked: v.masked }
}

/** A project or group variable, key by key in GitLab's order (with its `environment_scope`). */
export function ScopedVariable(v: ProjectVariableRecord | GroupVariableRecord) {
  return { variable_type: v.variable_type, key: v.key, value: v.value, protected: v.protected, masked: v.masked, environment_scope: v.environment_scope }
}
