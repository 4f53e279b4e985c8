/**
 * Setting and removing feature flags as `POST /features/:name` and `DELETE /features/:name` do
 * through Flipper's ActiveRecord adapter: enabling the boolean gate clears the others, disabling it
 * clears every gate (the feature stays listed), a target's gate adds or removes its Flipper id.
 * gitlab: lib/api/features.rb, lib/feature.rb (13.12); flipper 0.x `Feature#enable`/`#disable`,
 * `Adapters::ActiveRecord#enable` (`clear: true` for the boolean gate) and `#clear`.
 * @module
 */
import type { Db } from '../../db/db.js'
import { blankFeature } from './features.entities.js'
import type { FeatureRecord } from './features.tables.js'

/** A gate target: a feature group by name, or an actor by its Flipper id (`User:4`). */
export type FeatureTarget = { kind: 'group'; name: string } | { kind: 'actor'; flipperId: string }

/** The feature's row, or undefined when it is not persisted. */
export function findFeature(db: Db, name: string): FeatureRecord | undefined {
  return db.tables.features.where('name', name)[0]
}

/** The persisted features in the order they were added (`Feature.all`). */
export function listFeatures(db: Db): FeatureRecord[] {
  return db.tables.features.all()
}

/** `adapter.add`: the feature's row, made with every gate off when absent. */
function persisted(db: Db, name: string): FeatureRecord {
  return findFeature(db, name) ?? db.tables.features.insert(blankFeature(name))
}

/** `Feature#enable` / `#disable` of the boolean gate: on clears every other gate, off clears all. */
export function setBoolean(db: Db, name: string, on: boolean): FeatureRecord {
  const feature = persisted(db, name)
  return db.tables.features.update(feature.id, { ...blankFeature(name), boolean: on })
}

/** `Feature#enable(target)` / `#disable(target)`: adds or removes the target in its gate's set. */
export function setTarget(db: Db, name: string, target: FeatureTarget, on: boolean): FeatureRecord {
  const feature = persisted(db, name)
  const column = target.kind === 'group' ? 'groups' : 'actors'
  const value = target.kind === 'group' ? target.name : target.flipperId
  const rest = feature[column].filter((v) => v !== value)
  return db.tables.features.update(feature.id, { [column]: on ? [...rest, value] : rest })
}

/** `enable_percentage_of_time` / `enable_percentage_of_actors`: sets the gate's percentage. */
export function setPercentage(db: Db, name: string, key: 'percentage_of_time' | 'percentage_of_actors', value: number): FeatureRecord {
  const feature = persisted(db, name)
  return db.tables.features.update(feature.id, { [key]: value })
}

/** `Feature.remove`: the feature and its gates go (nothing happens for an unknown name). */
export function removeFeature(db: Db, name: string): void {
  const feature = findFeature(db, name)
  if (feature) db.tables.features.delete(feature.id)
}
