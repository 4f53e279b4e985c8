/**
 * The Feature entity: `name`, `state`, `gates` (Flipper's gates in their order, those at their
 * zero value left out but the boolean one), `definition`.
 * gitlab: lib/api/entities/feature.rb, lib/api/entities/feature_gate.rb (13.12); flipper's
 * Feature#state and #gates.
 * @module
 */
import type { FeatureRecord } from './features.tables.js'

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

/** `Entities::Feature`. `definition` is null: fakelab has none of GitLab's YAML flag definitions. */
export function Feature(feature: Omit<FeatureRecord, 'id'>): Record<string, unknown> {
  const gates: { key: string; value: unknown }[] = [{ key: 'boolean', value: feature.boolean }]
  if (feature.actors.length > 0) gates.push({ key: 'actors', value: [...feature.actors] })
  if (feature.percentage_of_actors !== 0) gates.push({ key: 'percentage_of_actors', value: feature.percentage_of_actors })
  if (feature.percentage_of_time !== 0) gates.push({ key: 'percentage_of_time', value: feature.percentage_of_time })
  if (feature.groups.length > 0) gates.push({ key: 'groups', value: [...feature.groups] })
  return {
    name: feature.name,
    state: featureState(feature),
    gates,
    definition: null,
  }
}
