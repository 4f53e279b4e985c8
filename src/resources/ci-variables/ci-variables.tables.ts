/**
 * The CI variables tables: the instance's, projects' and groups' variables.
 * gitlab: db/structure.sql (`ci_instance_variables`, `ci_variables`, `ci_group_variables`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'

/** `env_var` or `file` (`Ci::HasVariable` `variable_type` enum). */
export type VariableType = 'env_var' | 'file'

/** An instance-level CI variable (`Ci::InstanceVariable`): unique by key. */
export interface InstanceVariableRecord extends Row {
  key: string
  value: string
  /** `env_var` or `file`. */
  variable_type: VariableType
  protected: boolean
  masked: boolean
}

/**
 * A project's CI variable (`Ci::Variable`, table `ci_variables`): unique by key and
 * `environment_scope` within its project.
 */
export interface ProjectVariableRecord extends Row {
  project_id: number
  key: string
  value: string
  variable_type: VariableType
  protected: boolean
  masked: boolean
  /** The environments it applies to: `*` (all, the default), a name, or a wildcard pattern (`review/*`). */
  environment_scope: string
}

/**
 * A group's CI variable (`Ci::GroupVariable`, table `ci_group_variables`): unique by key and
 * `environment_scope` within its group; the scope is always `*` in CE 13.12 (setting it is a
 * Premium parameter).
 */
export interface GroupVariableRecord extends Row {
  group_id: number
  key: string
  value: string
  variable_type: VariableType
  protected: boolean
  masked: boolean
  /** Always `*` in CE 13.12 (the column is there since 13.10; the parameter is Premium). */
  environment_scope: string
}

declare module '../../db/schema.js' {
  interface Tables {
    ci_instance_variables: InstanceVariableRecord
    ci_variables: ProjectVariableRecord
    ci_group_variables: GroupVariableRecord
  }
}

/** The tables and their indexes: instance variables by key, project and group variables by owner. */
export const ciVariableTables = {
  ci_instance_variables: table<InstanceVariableRecord>(['key']),
  ci_variables: table<ProjectVariableRecord>(['project_id']),
  ci_group_variables: table<GroupVariableRecord>(['group_id']),
}
