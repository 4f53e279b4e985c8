/**
 * Scenario files on disk (re-exported by `fakelab/node`): reading and validating a scenario file,
 * the embedded default scenario, and the default scenario as the build already loaded it. Node-only.
 * Kept apart from `node.ts` so the CLI's `serve` imports neither the recorder nor its HTTP proxy
 * (issue 5, cold start). It sits directly in `src/` (`dist/`), like the bundled CLI `dist/cli.cjs`,
 * so the paths below, relative to this module, hold in both.
 * @module
 */
// `fs.promises`, not `node:fs/promises`: node loads that module (and its readline and watcher
// modules) on the first read of the property, not at every CLI start (issue 27, about 1 ms).
import { promises as fsp, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Scenario } from './scenario/index.js'
import type { StateExport } from './core/control.js'
import { parseScenario } from './simulator.js'

/** Absolute path of the embedded default scenario (`scenarios/default.yaml` in the package). */
export const DEFAULT_SCENARIO_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'scenarios', 'default.yaml')

/**
 * Reads and validates a scenario file; `include:` entries are read relative to the including file.
 * @param files when given, receives the absolute path of every file the scenario is composed from
 *   (the file itself, then each `include:`d file, depth first), also of those that could not be
 *   read and also when the scenario has problems: what `serve --watch` watches (issue 28).
 * @throws ScenarioError listing every problem as `file:line:col message`.
 * @throws the file system error when the file cannot be read.
 */
export async function loadScenarioFile(path: string, files?: Set<string>): Promise<Scenario> {
  files?.add(resolve(path))
  const text = await fsp.readFile(path, 'utf8')
  return parseScenario(text, {
    file: path,
    include: (target, from) => {
      const included = resolve(dirname(from), target)
      files?.add(included)
      return readFileSync(included, 'utf8')
    },
  })
}

/** The embedded default scenario (users at every access level, groups, projects, labels, ...). */
export function loadDefaultScenario(): Promise<Scenario> {
  return loadScenarioFile(DEFAULT_SCENARIO_PATH)
}

/**
 * Where the build writes the default scenario already loaded, as a state export
 * (scripts/build-cli.mjs; beside this module in dist/, absent when running from src/).
 */
const DEFAULT_STATE_PATH = resolve(dirname(fileURLToPath(import.meta.url)), 'generated', 'default-state.json')

/**
 * The embedded default scenario as the build loaded it: a state export (`{ fakelab_state: 1, now,
 * seed, tables }`) that `createSimulator({ scenario })` loads without the YAML parser, the scenario
 * checks or faker, for a fast `fakelab serve` start (issue 5). test/unit/default-state.test.ts proves
 * it equals loading scenarios/default.yaml.
 * @returns `undefined` when there is no pre-built state (running from src/ rather than dist/):
 *   use {@link loadDefaultScenario} then.
 */
export async function loadDefaultState(): Promise<StateExport | undefined> {
  let text: string
  try {
    // Read at once: nothing else runs during a start, and an asynchronous read of this one file
    // waits for four thread-pool round trips (open, stat, read, close) before the server listens.
    text = readFileSync(DEFAULT_STATE_PATH, 'utf8')
  } catch {
    return undefined
  }
  return JSON.parse(text) as StateExport
}
