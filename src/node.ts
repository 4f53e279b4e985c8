/**
 * `fakelab/node`: Node-only helpers: the HTTP server door and scenario files on disk.
 * @example
 * import { createSimulator } from 'fakelab'
 * import { loadScenarioFile, startServer } from 'fakelab/node'
 * const sim = createSimulator({ scenario: await loadScenarioFile('scenarios/default.yaml') })
 * const { url, close } = await startServer(sim, { port: 0 })
 * @module
 */
// Scenario files on disk: a module of their own, so that `fakelab serve` can read them without
// loading the recorder and its HTTP proxy (issue 5, cold start).
export { DEFAULT_SCENARIO_PATH, loadDefaultScenario, loadDefaultState, loadScenarioFile } from './scenario-files.js'

export { startServer } from './server/node-server.js'
export type { RunningServer, ServerOptions } from './server/node-server.js'
export { controlClient, ControlError } from './server/control-client.js'
export type { ControlClient, RemoteJournalQuery } from './server/control-client.js'
// Record and replay (issue 11): the recorder and cassette files, plus the browser-safe API.
export { createRecorder, loadCassetteFile, writeCassetteFile, LockdownError } from './record/recorder.js'
export type { Exchange, Recorder, RecorderOptions } from './record/recorder.js'
export * from './record/index.js'
// Fidelity reports (issue 15): replay a cassette against the simulator, field by field.
export * from './verify/index.js'
