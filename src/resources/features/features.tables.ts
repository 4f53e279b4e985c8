/**
 * The features area's table: GitLab's Flipper feature flags (`features` and `feature_gates`), one
 * row per persisted feature with its gate values. gitlab: db/structure.sql (`features`,
 * `feature_gates`), lib/feature.rb (13.12, Flipper's ActiveRecord adapter).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'

/** A persisted feature flag and the values of its five Flipper gates. */
export interface FeatureRecord extends Row {
  /** The flag's name (Flipper's key), unique. */
  name: string
  /** The boolean gate: on for everyone. */
  boolean: boolean
  /** The actor gate: Flipper ids (`User:4`, `Project:20`, `Group:10`) in the order they were added. */
  actors: string[]
  /** The percentage-of-actors gate, 0-100 (0: off). */
  percentage_of_actors: number
  /** The percentage-of-time gate, 0-100 (0: off). */
  percentage_of_time: number
  /** The group gate: feature group names (`gitlab_team`), in the order they were added. */
  groups: string[]
}

declare module '../../db/schema.js' {
  interface Tables {
    features: FeatureRecord
  }
}

/** The table, indexed by name. */
export const featureTables = {
  features: table<FeatureRecord>(['name']),
}
