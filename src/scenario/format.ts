/**
 * A scenario format composed from area fragments, with everything a caller does with scenarios:
 * parse YAML, validate an object, and load a scenario into a store.
 *
 * A scenario composes and runs only the fragments it needs (issue 39 item 4): those of the areas
 * whose fields it holds (top-level fields, and fields of its users, groups and projects, in the
 * file and its includes), and those that run whatever it holds ({@link FragmentOutline.need}). The
 * outlines (the static scenario table) say which area owns which field without loading the area,
 * so the other areas' fragments are never loaded, their schemas never built. What they would have
 * given a parsed scenario, their fields' defaults, comes from the outlines. A document with a key
 * no area owns, or with any problem, is validated against every fragment, so its problems (and
 * their did-you-mean suggestions, which depend on every field) are exactly those of the whole
 * format.
 * @module
 */
import { z } from 'zod'
import type { Db } from '../db/db.js'
import { checkScenario, indexScenario } from './check.js'
import { composeSchemas } from './compose.js'
import { addEntries, emptyModel, isRec, KIND_COLLECTIONS, RECORD_KINDS, type RecordKind } from './entries.js'
import type { Fields, ScenarioFragment } from './fragment.js'
import { scenarioJsonSchema } from './json-schema.js'
import { ScenarioLoader, type LoadOptions } from './load.js'
import { CURRENT_SCENARIO_VERSION } from './migrate.js'
import { FIELD_PLACES, jsonEqual, type FieldPlace, type FragmentOutline } from './outline.js'
import { parseWith, validateWith, type FormatChoice, type ParseScenarioOptions, type ScenarioFormat } from './parse.js'
import { Problems, type Source } from './problems.js'
import { GROUP_IDENTITY, PROJECT_IDENTITY, ROOT_FIELDS, USER_IDENTITY, type Scenario } from './records.js'

/** Options of {@link ComposedScenarioFormat.apply}. */
export interface ApplyScenarioOptions extends LoadOptions {
  /**
   * Set when `scenario` is what this format's `parse` or `validate` returned, unchanged: its
   * references were checked then, so `apply` only indexes its names (checking the scale scenario
   * again cost a third of a second, issue 13). Default false: checked as parsing checks.
   */
  checked?: boolean
}

/** How a call composes the format: with every area's fragment, or (default) the ones it needs. */
export interface CompositionOptions {
  /** Compose and run every fragment (what every call did before issue 39 item 4): for tests and tools. */
  allAreas?: boolean
}

/** One area's part of the format: its outline (static), its fragment (loaded on first call). */
export interface ScenarioPart {
  /** The area's name. */
  readonly area: string
  /** What the format knows of the fragment without loading it (the static scenario table's entry). */
  readonly outline: FragmentOutline
  /** Loads the area's fragment; called only for a scenario that needs it. */
  fragment(): ScenarioFragment
}

/** A scenario format bound to the areas it was composed from. */
export interface ComposedScenarioFormat {
  /**
   * Parses and validates YAML text, merging its `include:` files.
   * @throws ScenarioError listing every YAML, version, schema and reference problem of the file
   *   and its includes, each at `file:line:col` of the offending node (or its nearest ancestor).
   */
  parse(text: string, options?: ParseScenarioOptions, how?: CompositionOptions): Scenario
  /**
   * Validates an already-parsed document; problems carry line 0, col 0 and `include:` is refused.
   * @throws ScenarioError listing every problem.
   */
  validate(value: unknown, file?: string, how?: CompositionOptions): Scenario
  /**
   * Inserts every record of `scenario` into `db`, inside one `db.transaction` (see `load.ts`).
   * The scenario's references are checked first, as parsing checks them, so a hand-built scenario
   * that refers to something it does not define fails before anything is written.
   * @throws ScenarioError (problems at line 0, col 0) for broken references.
   * @throws DuplicateKeyError (`src/db/collection.ts`) when an explicit id is already taken in `db`;
   *   the transaction is rolled back.
   */
  apply(db: Db, scenario: Scenario, options: ApplyScenarioOptions, how?: CompositionOptions): void
  /** The format as a JSON Schema (see `json-schema.ts`), from every fragment. */
  jsonSchema(): Record<string, unknown>
  /**
   * The areas whose fragments parsed `scenario` (one this format's `parse` or `validate` returned),
   * in area order; `undefined` when every area's did, or it was not parsed here.
   */
  areasParsing(scenario: Scenario): readonly string[] | undefined
  /** The areas whose fragments `apply` runs for `scenario` with these options (`undefined`: every area's). */
  areasApplying(scenario: Scenario, options: ApplyScenarioOptions): readonly string[] | undefined
}

/** The identity fields of each record kind and the top-level fields every scenario has: no area's. */
const CORE_FIELDS: { readonly [P in FieldPlace]: ReadonlySet<string> } = {
  root: new Set([...Object.keys(ROOT_FIELDS), 'users', 'groups', 'projects']),
  user: new Set(Object.keys(USER_IDENTITY)),
  group: new Set(Object.keys(GROUP_IDENTITY)),
  project: new Set(Object.keys(PROJECT_IDENTITY)),
}

/**
 * A stand-in for a fragment the scenario does not need: each of its fields with a default, as a
 * schema that gives that default (a copy per record, as zod's `.default` gives one). A scenario
 * parsed with it is the object the whole format gives, field order included.
 */
function standInFragment(outline: FragmentOutline): ScenarioFragment {
  const shape = (place: FieldPlace): Fields | undefined => {
    const defaults = outline.defaults?.[place]
    if (!defaults) return undefined
    // In the fragment's field order, which is the order of the defaults' keys too.
    return Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, z.any().default(() => structuredClone(value))]))
  }
  const fields: { [K in RecordKind]?: Fields } = {}
  for (const kind of RECORD_KINDS) {
    const kindShape = shape(kind)
    if (kindShape) fields[kind] = kindShape
  }
  const root = shape('root')
  return { fields, ...(root ? { root } : {}) }
}

/**
 * Composes the fragments of the given areas (in area order) into one format; each area's fragment
 * is loaded when a scenario first needs it.
 * @throws Error when two fragments claim the same field (a programming error), when composing.
 */
export function createScenarioFormat(parts: readonly ScenarioPart[]): ComposedScenarioFormat {
  const owners = new Map<FieldPlace, Map<string, number>>(FIELD_PLACES.map((place) => [place, new Map()]))
  const triggers = new Map<string, number[]>()
  const always: number[] = []
  parts.forEach((part, i) => {
    for (const place of FIELD_PLACES) for (const name of part.outline.fields[place] ?? []) owners.get(place)!.set(name, i)
    if (part.outline.need?.always) always.push(i)
    for (const field of part.outline.need?.with?.fields ?? []) triggers.set(field, [...(triggers.get(field) ?? []), i])
  })

  let everything: ScenarioFormat | undefined
  const all = (): ScenarioFormat => {
    if (!everything) {
      const fragments = parts.map((part) => part.fragment())
      everything = { schemas: composeSchemas(fragments), fragments }
    }
    return everything
  }
  const subsets = new Map<string, ScenarioFormat & { readonly areas: readonly string[] }>()
  /** The format of the parts at `needed`'s indexes (ascending), the others standing in. */
  const subset = (needed: ReadonlySet<number>): ScenarioFormat & { readonly areas: readonly string[] } => {
    const indexes = [...needed].sort((a, b) => a - b)
    const key = indexes.join(',')
    let format = subsets.get(key)
    if (!format) {
      const fragments = indexes.map((i) => parts[i]!.fragment())
      const composed = parts.map((part, i) => (needed.has(i) ? part.fragment() : standInFragment(part.outline)))
      format = { schemas: composeSchemas(composed), fragments, areas: indexes.map((i) => parts[i]!.area) }
      // A handful of distinct sets in a process; a bound keeps a long-lived one from collecting more.
      if (subsets.size >= 32) subsets.delete(subsets.keys().next().value!)
      subsets.set(key, format)
    }
    return format
  }

  /**
   * The parts the documents (the file's and its includes') need: the always-needed ones, the
   * owners of every key they hold, and those a key of theirs triggers; `undefined` (every part)
   * for a key no part owns, a document or record that is not a mapping, or another version (the
   * problems of such a document are the whole format's).
   */
  const needsOf = (documents: readonly unknown[]): Set<number> | undefined => {
    const needed = new Set(always)
    const note = (place: FieldPlace, key: string): boolean => {
      const owner = owners.get(place)!.get(key)
      if (owner !== undefined) needed.add(owner)
      else if (!CORE_FIELDS[place].has(key)) return false
      const triggered = triggers.get(`${place}.${key}`)
      if (triggered) for (const i of triggered) needed.add(i)
      return true
    }
    for (const [d, document] of documents.entries()) {
      if (!isRec(document)) return undefined
      if (d === 0 && document.version !== CURRENT_SCENARIO_VERSION) return undefined
      for (const key of Object.keys(document)) if (!note('root', key)) return undefined
      for (const kind of RECORD_KINDS) {
        const records = document[KIND_COLLECTIONS[kind]]
        if (records === undefined) continue
        if (!Array.isArray(records)) return undefined
        for (const record of records as unknown[]) {
          if (!isRec(record)) return undefined
          for (const key in record) if (!note(kind, key)) return undefined
        }
      }
    }
    return needed.size === parts.length ? undefined : needed
  }

  const parsedWith = new WeakMap<Scenario, readonly string[]>()
  const choice = (how: CompositionOptions | undefined): FormatChoice => ({
    all,
    pick: (documents) => {
      if (how?.allAreas) return undefined
      const needed = needsOf(documents)
      return needed && subset(needed)
    },
    parsed: (scenario, format) => {
      const areas = (format as { areas?: readonly string[] }).areas
      if (areas) parsedWith.set(scenario, areas)
    },
  })

  /**
   * The parts `apply` runs for a checked scenario: the always-needed ones, and the owners (and
   * those they trigger) of every field it holds with a value other than the field's default (a
   * field at its default gives what it gives left out, and the parts left out give nothing then:
   * the audit). `undefined`: every part.
   */
  const applyingOf = (scenario: Scenario): Set<number> | undefined => {
    const needed = new Set(always)
    const note = (place: FieldPlace, record: Readonly<Record<string, unknown>>): void => {
      const byName = owners.get(place)!
      for (const key in record) {
        const value = record[key]
        const owner = byName.get(key)
        if (owner === undefined || value === undefined) continue
        const triggered = triggers.get(`${place}.${key}`)
        if (needed.has(owner) && !triggered) continue
        const defaults = parts[owner]!.outline.defaults?.[place]
        if (defaults && Object.hasOwn(defaults, key) && jsonEqual(value, defaults[key])) continue
        needed.add(owner)
        if (triggered) for (const i of triggered) needed.add(i)
      }
    }
    note('root', scenario as unknown as Record<string, unknown>)
    for (const kind of RECORD_KINDS) for (const record of scenario[KIND_COLLECTIONS[kind]] as unknown as Record<string, unknown>[]) note(kind, record)
    return needed.size === parts.length ? undefined : needed
  }
  const fragmentsApplying = (scenario: Scenario, options: ApplyScenarioOptions, how: CompositionOptions | undefined): readonly ScenarioFragment[] => {
    // A scenario not checked here is checked by every fragment, as parsing would (a rare call).
    const needed = how?.allAreas || !options.checked ? undefined : applyingOf(scenario)
    return needed ? subset(needed).fragments : all().fragments
  }

  return {
    parse: (text, options, how) => parseWith(choice(how), text, options),
    validate: (value, file, how) => validateWith(choice(how), value, file),
    jsonSchema: () => scenarioJsonSchema(all().schemas),
    areasParsing: (scenario) => parsedWith.get(scenario),
    areasApplying(scenario, options) {
      const needed = options.checked ? applyingOf(scenario) : undefined
      return needed && [...needed].sort((a, b) => a - b).map((i) => parts[i]!.area)
    },
    apply(db, scenario, options, how) {
      const fragments = fragmentsApplying(scenario, options, how)
      const source: Source = { file: '<scenario>', order: 0, doc: null, lineCounter: null, value: scenario, includes: [] }
      const model = emptyModel()
      addEntries(model, source, scenario)
      const problems = new Problems()
      const index = (options.checked ? indexScenario : checkScenario)(model, fragments, problems.add)
      problems.throwIfAny()
      db.transaction(() => new ScenarioLoader(db, index, model, fragments, options).run())
    },
  }
}
