/**
 * `fakelab/node`: Node-only helpers: the HTTP server door and scenario files on disk.
 * @example
 * import { createSimulator } from 'fakelab'
 * import { loadScenarioFile, startServer } from 'fakelab/node'
 * const sim = createSimulator({ scenario: await loadScenarioFile('scenarios/default.yaml') })
 * const { url, close } = await startServer(sim, { port: 0 })
 * @module
 */
import { readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Scenario } from './scenario/index.js'
import type { StateExport } from './core/control.js'
import { parseScenario } from './simulator.js'

export { startServer } from './server/node-server.js'
export type { RunningServer, ServerOptions } from './server/node-server.js'
export { controlClient, ControlError } from './server/control-client.js'
export type { ControlClient, RemoteJournalQuery } from './server/control-client.js'
// Record and replay (issue 11): the recorder and cassette files, plus the browser-safe API.
export { createRecorder, loadCassetteFile, writeCassetteFile, LockdownError } from './record/recorder.js'
export type { Exchange, Recorder, RecorderOptions } from './record/recorder.js'
export * from './record/index.js'

/** Absolute path of the embedded default scenario (`scenarios/default.yaml` in the package). */
export const DEFAULT_SCENARIO_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'scenarios', 'default.yaml')

/**
 * Reads and validates a scenario file; `include:` entries are read relative to the including file.
 * @throws ScenarioError listing every problem as `file:line:col message`.
 * @throws the file system error when the file cannot be read.
 */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  const text = await readFile(path, 'utf8')
  return parseScenario(text, {
    file: path,
    include: (target, from) => readFileSync(resolve(dirname(from), target), 'utf8'),
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
    text = await readFile(DEFAULT_STATE_PATH, 'utf8')
  } catch {
    return undefined
  }
  return JSON.parse(text) as StateExport
}
