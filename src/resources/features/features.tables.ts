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

/**
 * A feature flag's definition (`config/feature_flags/<type>/<name>.yml`), as `Feature::Definition`
 * loads it: `Feature::Shared::PARAMS` (13.12). fakelab's come from the scenario's `feature_definitions`.
 */
export interface FeatureDefinitionRecord extends Row {
  /** The flag's name (the file's basename), unique. */
  name: string
  /** `development`, `ops` or `licensed` (`Feature::Shared::TYPES`; the file's directory). */
  type: 'development' | 'ops' | 'licensed'
  /** The flag's state when nothing is persisted. */
  default_enabled: boolean
  /** The merge request that introduced it, or null. */
  introduced_by_url: string | null
  /** The rollout issue, or null. */
  rollout_issue_url: string | null
  /** The owning product group (`group::source code`), or null. */
  group: string | null
}

declare module '../../db/schema.js' {
  interface Tables {
    features: FeatureRecord
    feature_definitions: FeatureDefinitionRecord
  }
}

/** The table, indexed by name. */
export const featureTables = {
  features: table<FeatureRecord>(['name']),
  feature_definitions: table<FeatureDefinitionRecord>(['name']),
}
