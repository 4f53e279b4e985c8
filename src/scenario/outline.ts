/**
 * What the scenario machinery must know of an area's fragment without loading it (issue 39 item
 * 4): the fields it owns (top-level, and per record kind, its nested collections among them), the
 * values those fields take when a scenario leaves them out, and when it runs without them
 * ({@link FragmentNeed}). `npm run route-table` writes every area's into the static scenario table
 * (`src/resources/scenario-table.ts`, by scripts/scenario-table.mjs); a scenario then composes and
 * runs only the fragments of the areas whose fields it holds, and every other fragment's defaults
 * are filled in from the outline, so a parsed scenario is the same object either way.
 * @module
 */
import { z } from 'zod'
import { RECORD_KINDS, type RecordKind } from './entries.js'
import type { FragmentNeed, NestedCollection, ScenarioFragment } from './fragment.js'

/** Where a field sits: the top level of the scenario, or a user, group or project. */
export type FieldPlace = RecordKind | 'root'

/** The places, in the order an outline lists them. */
export const FIELD_PLACES: readonly FieldPlace[] = ['root', ...RECORD_KINDS]

/** A JSON value, as the static table writes a default. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** A fragment as the static scenario table describes it (see the module comment). */
export interface FragmentOutline {
  /** Its field names by place, each in the fragment's own order (the order parsing gives them). */
  readonly fields: { readonly [P in FieldPlace]?: readonly string[] }
  /** The value each field with a default takes when left out, by place and name. */
  readonly defaults?: { readonly [P in FieldPlace]?: { readonly [name: string]: JsonValue } }
  /** Its nested collections (`NestedCollection`, the table each field's records go to). */
  readonly collections?: readonly NestedCollection[]
  /** When it runs without any of its fields (the audit; see {@link FragmentNeed}). */
  readonly need?: FragmentNeed
}

/**
 * The outline of a fragment: its fields' names in order, their defaults (what zod gives for a
 * record without the field), its collections and its need.
 * @throws Error when a field of a fragment that does not always run has no value when left out
 *   but is required (a scenario could never leave it out), or a default that is not plain JSON,
 *   or that differs between two parses (it could not be written into the static table).
 */
export function outlineOf(fragment: ScenarioFragment): FragmentOutline {
  const fields: Partial<Record<FieldPlace, string[]>> = {}
  const defaults: Partial<Record<FieldPlace, Record<string, JsonValue>>> = {}
  for (const place of FIELD_PLACES) {
    const shape = place === 'root' ? fragment.root : fragment.fields?.[place]
    if (!shape || Object.keys(shape).length === 0) continue
    fields[place] = Object.keys(shape)
    for (const [name, schema] of Object.entries(shape)) {
      const value = leftOut(place, name, schema as z.ZodType, fragment.need)
      if (value !== undefined) (defaults[place] ??= {})[name] = value
    }
  }
  return {
    fields,
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    ...(fragment.collections?.length ? { collections: fragment.collections } : {}),
    ...(fragment.need ? { need: fragment.need } : {}),
  }
}

/** What parsing gives for a record that leaves the field out: its default, or `undefined` (no key). */
function leftOut(place: FieldPlace, name: string, schema: z.ZodType, need: FragmentNeed | undefined): JsonValue | undefined {
  const object = z.strictObject({ [name]: schema })
  const first = object.safeParse({})
  if (!first.success) {
    if (need?.always) return undefined
    throw new Error(`scenario: ${place}.${name} is required, so its fragment must always run (set need.always)`)
  }
  if (!Object.hasOwn(first.data, name)) return undefined
  const value: unknown = first.data[name]
  const again: unknown = object.parse({})[name]
  if (!jsonEqual(JSON.parse(JSON.stringify(value ?? null)), value) || !jsonEqual(value, again)) {
    throw new Error(`scenario: the default of ${place}.${name} is not a constant JSON value`)
  }
  return value as JsonValue
}

/**
 * Whether two values are equal as JSON data: the same primitives, arrays of equal items, objects
 * with equal values under the same keys (key order aside). Browser-safe (no `node:util`).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]))
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}
