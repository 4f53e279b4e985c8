/**
 * A scenario format composed from area fragments, with everything a caller does with scenarios:
 * parse YAML, validate an object, and load a scenario into a store.
 * @module
 */
import type { Db } from '../db/db.js'
import { checkScenario, indexScenario } from './check.js'
import { composeSchemas } from './compose.js'
import { addEntries, emptyModel } from './entries.js'
import type { ScenarioFragment } from './fragment.js'
import { scenarioJsonSchema } from './json-schema.js'
import { ScenarioLoader, type LoadOptions } from './load.js'
import { parseWith, validateWith, type ParseScenarioOptions, type ScenarioFormat } from './parse.js'
import { Problems, type Source } from './problems.js'
import type { Scenario } from './records.js'

/** Options of {@link ComposedScenarioFormat.apply}. */
export interface ApplyScenarioOptions extends LoadOptions {
  /**
   * Set when `scenario` is what this format's `parse` or `validate` returned, unchanged: its
   * references were checked then, so `apply` only indexes its names (checking the scale scenario
   * again cost a third of a second, issue 13). Default false: checked as parsing checks.
   */
  checked?: boolean
}

/** A scenario format bound to the areas it was composed from. */
export interface ComposedScenarioFormat {
  /**
   * Parses and validates YAML text, merging its `include:` files.
   * @throws ScenarioError listing every YAML, version, schema and reference problem of the file
   *   and its includes, each at `file:line:col` of the offending node (or its nearest ancestor).
   */
  parse(text: string, options?: ParseScenarioOptions): Scenario
  /**
   * Validates an already-parsed document; problems carry line 0, col 0 and `include:` is refused.
   * @throws ScenarioError listing every problem.
   */
  validate(value: unknown, file?: string): Scenario
  /**
   * Inserts every record of `scenario` into `db`, inside one `db.transaction` (see `load.ts`).
   * The scenario's references are checked first, as parsing checks them, so a hand-built scenario
   * that refers to something it does not define fails before anything is written.
   * @throws ScenarioError (problems at line 0, col 0) for broken references.
   * @throws DuplicateKeyError (`src/db/collection.ts`) when an explicit id is already taken in `db`;
   *   the transaction is rolled back.
   */
  apply(db: Db, scenario: Scenario, options: ApplyScenarioOptions): void
  /** The format as a JSON Schema (see `json-schema.ts`). */
  jsonSchema(): Record<string, unknown>
}

/**
 * Composes the fragments of the given areas (in area order) into one format.
 * @throws Error when two fragments claim the same field (a programming error).
 */
export function createScenarioFormat(fragments: readonly ScenarioFragment[]): ComposedScenarioFormat {
  const format: ScenarioFormat = { schemas: composeSchemas(fragments), fragments }
  return {
    parse: (text, options) => parseWith(format, text, options),
    validate: (value, file) => validateWith(format, value, file),
    jsonSchema: () => scenarioJsonSchema(format.schemas),
    apply(db, scenario, options) {
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
