/**
 * Scenario format versions. A scenario says which version it was written for (`version: 1`);
 * `migrateScenario` upgrades an older document step by step to {@link CURRENT_SCENARIO_VERSION}
 * before it is validated, and refuses versions it does not know. This is Mockoon's
 * `lastMigration` idea: old files keep working after the format changes.
 *
 * Source: STYLE.md §10.
 * @module
 */

/** The scenario format version this fakelab reads and writes. */
export const CURRENT_SCENARIO_VERSION = 1

/** A plain, already-parsed YAML/JSON mapping. */
export type ScenarioDocument = Record<string, unknown>

/**
 * One upgrade step: turns a document of version `from` into version `from + 1`. It receives a
 * copy it may change, and returns the upgraded document (without touching `version`, which
 * {@link migrateScenario} sets).
 */
export interface ScenarioMigration {
  /** The version this step upgrades from. */
  from: number
  /** What changed, for humans. */
  description: string
  /** The upgrade itself. */
  migrate(doc: ScenarioDocument): ScenarioDocument
}

/**
 * The upgrade steps, oldest first. Empty while version 1 is the only version: when version 2
 * arrives, add `{ from: 1, description, migrate }` here and bump {@link CURRENT_SCENARIO_VERSION}.
 */
export const SCENARIO_MIGRATIONS: readonly ScenarioMigration[] = []

/** Something wrong with the document's `version`, at a path into the document (`['version']`). */
export interface MigrationProblem {
  /** Path of the offending value (`['version']`). */
  path: (string | number)[]
  /** Human-readable text without the path or location (the caller prefixes `version:` and `file:line:col`). */
  message: string
}

/** The outcome of {@link migrateScenario}. */
export interface MigrationResult {
  /** The document at {@link CURRENT_SCENARIO_VERSION}; the input itself when nothing changed. */
  doc: unknown
  /** Empty when the version was known (or the document not a mapping: the schema reports that). */
  problems: MigrationProblem[]
}

/**
 * Brings a parsed scenario document to the current format version.
 *
 * - version 1: returned unchanged (no-op);
 * - an older version with registered steps: each step applied in turn, `version` set to current;
 * - missing, non-integer, unknown or newer versions: the document is returned unchanged together
 *   with a problem at `['version']`, so the caller can still validate the rest and report every
 *   problem at once.
 *
 * Never throws. A document that is not a mapping is returned as is, without problems: the schema
 * reports it.
 */
export function migrateScenario(doc: unknown): MigrationResult {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { doc, problems: [] }
  const version = (doc as ScenarioDocument).version
  const refuse = (message: string): MigrationResult => ({ doc, problems: [{ path: ['version'], message }] })
  if (version === undefined || version === null) {
    return refuse(`is required; add "version: ${CURRENT_SCENARIO_VERSION}" at the top`)
  }
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    return refuse(`must be an integer; got ${JSON.stringify(version)}`)
  }
  if (version === CURRENT_SCENARIO_VERSION) return { doc, problems: [] }
  const first = SCENARIO_MIGRATIONS[0]?.from ?? CURRENT_SCENARIO_VERSION
  if (version > CURRENT_SCENARIO_VERSION || version < first) {
    const known = first === CURRENT_SCENARIO_VERSION ? `${first}` : `${first} to ${CURRENT_SCENARIO_VERSION}`
    return refuse(`unsupported scenario version ${version}; this fakelab reads version ${known}`)
  }
  let current: ScenarioDocument = structuredClone(doc as ScenarioDocument)
  for (let v = version; v < CURRENT_SCENARIO_VERSION; v++) {
    const step = SCENARIO_MIGRATIONS.find((m) => m.from === v)
    if (!step) return refuse(`no migration from scenario version ${v}`)
    current = step.migrate(current)
  }
  return { doc: { ...current, version: CURRENT_SCENARIO_VERSION }, problems: [] }
}
