/**
 * The CI variables tables. gitlab: db/structure.sql (`ci_instance_variables`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'

/** An instance-level CI variable (`Ci::InstanceVariable`): unique by key. */
export interface InstanceVariableRecord extends Row {
  key: string
  value: string
  /** `env_var` or `file`. */
  variable_type: 'env_var' | 'file'
  protected: boolean
  masked: boolean
}

declare module '../../db/schema.js' {
  interface Tables {
    ci_instance_variables: InstanceVariableRecord
  }
}

/** The tables and their indexes: instance variables by key. */
export const ciVariableTables = {
  ci_instance_variables: table<InstanceVariableRecord>(['key']),
}
