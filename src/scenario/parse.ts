/**
 * YAML text (or a plain object) → a validated {@link Scenario}, for a composed format.
 *
 * Validation runs in four layers and reports **every** problem at once, each at the line and
 * column of the offending YAML node: YAML syntax, the format version (`migrate.ts`), the composed
 * zod schema, and references between records (`check.ts`). Nothing here reads files: `include:`
 * entries are fetched through a caller-supplied callback, so this module runs in a browser as well.
 *
 * Source: STYLE.md §10 (`file:line:col message`, Mockoon-style migration).
 * @module
 */
import { checkScenario } from './check.js'
import type { ComposedSchemas } from './compose.js'
import { addEntries, emptyModel, isRec } from './entries.js'
import type { ScenarioFragment } from './fragment.js'
import { migrateScenario } from './migrate.js'
import { Problems, type Source } from './problems.js'
import type { Scenario } from './records.js'
import { loadIncludes, loadYaml, stripExtensions, type IncludeReader } from './sources.js'
import { describeIssue } from './zod-issues.js'

/** Options of `parseScenario`. */
export interface ParseScenarioOptions {
  /** Name used in problems and as the base for relative includes. Default `<scenario>`. */
  file?: string
  /**
   * Reads an included file: `path` as written in `include:`, `from` the (resolved) name of the
   * file that includes it, so the caller resolves `path` against `from`'s directory. Returns the
   * file's text; a thrown error becomes a problem at the `include:` entry.
   */
  include?: IncludeReader
}

/** A composed format: what parsing needs to know of the areas. */
export interface ScenarioFormat {
  readonly schemas: ComposedSchemas
  readonly fragments: readonly ScenarioFragment[]
}

/**
 * The formats a parse may use (issue 39 item 4): the one composed from the fragments the documents
 * need, and the whole format, which decides whenever the first finds any problem.
 */
export interface FormatChoice {
  /**
   * The format of the fragments the documents need (the file's first, then its includes'), or
   * `undefined` to use the whole format.
   */
  pick(documents: readonly unknown[]): ScenarioFormat | undefined
  /** The format of every fragment. */
  all(): ScenarioFormat
  /** Told the format a scenario was parsed with, when that was a picked one. */
  parsed?(scenario: Scenario, format: ScenarioFormat): void
}

/**
 * Parses and validates YAML text (see the module comment), merging its `include:` files: their
 * users, groups and projects come before the including file's own, depth first; a file included
 * twice is read once.
 * @returns the scenario with defaults applied and includes merged (`include` is absent).
 * @throws ScenarioError listing every problem of the file and its includes.
 */
export function parseWith(choice: FormatChoice, text: string, options: ParseScenarioOptions = {}): Scenario {
  const problems = new Problems()
  const root = loadYaml(problems, text, options.file ?? '<scenario>', 0)
  return validate(choice, problems, root, options.include)
}

/**
 * Validates an already-parsed document (JSON, or YAML parsed by the caller). Problems carry line
 * 0, col 0 (their message starts with the path, such as `users[2].username:`), and `include:` is
 * refused (there is no reader).
 * @throws ScenarioError listing every problem.
 */
export function validateWith(choice: FormatChoice, value: unknown, file = '<scenario>'): Scenario {
  const root: Source = { file, order: 0, doc: null, lineCounter: null, value: stripExtensions(value), includes: [] }
  return validate(choice, new Problems(), root, undefined)
}

/**
 * Reads the includes, then validates with the format of the fragments the documents need; when
 * that finds any problem (or fails), validates again with the whole format, whose problems are
 * the ones reported: the same, message for message, as before formats were picked.
 */
function validate(choice: FormatChoice, problems: Problems, root: Source, read: IncludeReader | undefined): Scenario {
  const loaded = new Map<string, Source>([[root.file, root]])
  loadIncludes(problems, root, read, [root.file], loaded)
  const picked = problems.size === 0 ? choice.pick([...loaded.values()].map((source) => source.value)) : undefined
  if (picked) {
    let scenario: Scenario | undefined
    try {
      scenario = validateSources(picked, new Problems(), root, loaded)
    } catch {
      // Its problems (or a failure) are the whole format's to report.
    }
    if (scenario) {
      choice.parsed?.(scenario, picked)
      return scenario
    }
  }
  return validateSources(choice.all(), problems, root, loaded)
}

/** Validates the loaded sources with one format (see {@link validate}). */
function validateSources(format: ScenarioFormat, problems: Problems, root: Source, loaded: ReadonlyMap<string, Source>): Scenario {
  for (const source of loaded.values()) checkSchema(format, problems, source, source === root)
  const model = emptyModel()
  const merged: Source[] = []
  const visit = (source: Source): void => {
    for (const child of source.includes) visit(child)
    merged.push(source)
    addEntries(model, source, source.value)
  }
  visit(root)
  checkScenario(model, format.fragments, problems.add)
  problems.throwIfAny()

  const { include: _include, ...top } = root.parsed!
  const scenario = { ...top, users: [], groups: [], projects: [] } as unknown as Scenario
  for (const source of merged) {
    const parsed = source.parsed as unknown as Scenario
    scenario.users.push(...parsed.users)
    scenario.groups.push(...parsed.groups)
    scenario.projects.push(...parsed.projects)
  }
  return scenario
}

/** Version and schema checks of one file. */
function checkSchema(format: ScenarioFormat, problems: Problems, source: Source, isRoot: boolean): void {
  if (source.binary) return // reported once, as not being text
  const value = source.value
  const hasVersion = isRec(value) && value.version !== undefined
  const migration = isRoot || hasVersion ? migrateScenario(value) : { doc: value, problems: [] }
  for (const problem of migration.problems) problems.add({ source, path: problem.path }, problem.message)
  const schema = isRoot ? format.schemas.scenario : format.schemas.fixture
  let result: ReturnType<typeof schema.safeParse>
  try {
    // Without zod's compiled fast path: compiling it (a `new Function` per object schema on its
    // first parse) cost a small file's start more than it saved, and saved nothing measurable on
    // 20,000 written issues or the scale scenario (issue 39 item 4). The result is the same.
    result = schema.safeParse(migration.doc, { reportInput: true, jitless: true })
  } catch (error) {
    // A schema must not throw; should one do so anyway, say so as a problem of this file rather
    // than let the caller mistake it for an unreadable file.
    problems.addAt(source, { line: 1, col: 1 }, `internal error while validating: ${error instanceof Error ? error.message : String(error)}`)
    return
  }
  if (result.success) source.parsed = result.data as Record<string, unknown>
  else {
    for (const issue of result.error.issues) {
      if (migration.problems.length > 0 && issue.path[0] === 'version') continue
      for (const found of describeIssue(issue, migration.doc, format.schemas.nullHints, schema)) {
        problems.add({ source, path: found.path }, found.text, found.key)
      }
    }
  }
  if (!isRoot && isRec(value)) {
    for (const key of ['now', 'seed', 'faults']) {
      if (Object.hasOwn(value, key)) problems.add({ source, path: [key] }, 'is only allowed in the top-level scenario, not in an included file')
    }
  }
}
