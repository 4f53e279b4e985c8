/**
 * The Feature entity: `name`, `state`, `gates` (Flipper's gates in their order, those at their
 * zero value left out but the boolean one), `definition`.
 * gitlab: lib/api/entities/feature.rb, lib/api/entities/feature_gate.rb (13.12); flipper's
 * Feature#state and #gates.
 * @module
 */
import type { FeatureDefinitionRecord, FeatureRecord } from './features.tables.js'

/** A feature that is not persisted: every gate at its zero value (`Feature.get` of an unknown name). */
export function blankFeature(name: string): Omit<FeatureRecord, 'id'> {
  return { name, boolean: false, actors: [], percentage_of_actors: 0, percentage_of_time: 0, groups: [] }
}

/**
 * Flipper's `Feature#state`: `on` when the boolean gate is on or 100% of the time, `conditional`
 * when another gate lets some through, else `off`.
 */
function featureState(feature: Omit<FeatureRecord, 'id'>): 'on' | 'off' | 'conditional' {
  if (feature.boolean || feature.percentage_of_time === 100) return 'on'
  if (feature.actors.length > 0 || feature.groups.length > 0 || feature.percentage_of_actors > 0 || feature.percentage_of_time > 0) return 'conditional'
  return 'off'
}

/**
 * `Entities::Feature::Definition`: `Feature::Shared::PARAMS` in their order (`name`,
 * `default_enabled`, `type`, `introduced_by_url`, `rollout_issue_url`, `group`).
 * gitlab: lib/api/entities/feature.rb, lib/feature/shared.rb (13.12).
 */
export function FeatureDefinition(definition: FeatureDefinitionRecord): Record<string, unknown> {
  return {
    name: definition.name,
    default_enabled: definition.default_enabled,
    type: definition.type,
    introduced_by_url: definition.introduced_by_url,
    rollout_issue_url: definition.rollout_issue_url,
    group: definition.group,
  }
}

/** `Entities::Feature`; `definition` is the flag's definition (the scenario's `feature_definitions`), null without one. */
export function Feature(feature: Omit<FeatureRecord, 'id'>, definition?: FeatureDefinitionRecord): Record<string, unknown> {
  const gates: { key: string; value: unknown }[] = [{ key: 'boolean', value: feature.boolean }]
  if (feature.actors.length > 0) gates.push({ key: 'actors', value: [...feature.actors] })
  if (feature.percentage_of_actors !== 0) gates.push({ key: 'percentage_of_actors', value: feature.percentage_of_actors })
  if (feature.percentage_of_time !== 0) gates.push({ key: 'percentage_of_time', value: feature.percentage_of_time })
  if (feature.groups.length > 0) gates.push({ key: 'groups', value: [...feature.groups] })
  return {
    name: feature.name,
    state: featureState(feature),
    gates,
    definition: definition ? FeatureDefinition(definition) : null,
  }
}
