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
export {
  /** Absolute path of the embedded default scenario (`scenarios/default.yaml` in the package). */
  DEFAULT_SCENARIO_PATH,
  /** The embedded default scenario, read from disk and validated (users at every access level, groups, projects, labels...). */
  loadDefaultScenario,
  /** The default scenario as the build loaded it: a state export `createSimulator` starts from without parsing YAML (fast start). */
  loadDefaultState,
  /** Reads and validates a scenario file; `include:` entries are read relative to the including file. */
  loadScenarioFile,
} from './scenario-files.js'

// The HTTP door and a client for its control namespace (`/-/fakelab/*`).
export {
  /** Serves a simulator over node:http; resolves to a `RunningServer` (`url`, `close()`). */
  startServer,
} from './server/node-server.js'
export type {
  /** A listening server: its `url` and `close()`. */
  RunningServer,
  /** Options of `startServer`: `port` (0 picks a free one), `host`, `maxBodyBytes`. */
  ServerOptions,
} from './server/node-server.js'
export {
  /** A client for the control namespace (`/-/fakelab/*`) of a running server at `baseUrl`. */
  controlClient,
  /** A control request answered with a non-2xx status; `body` is the parsed JSON answer when there is one. */
  ControlError,
} from './server/control-client.js'
export type {
  /** What `controlClient` returns; every method rejects with `ControlError` on a non-2xx answer. */
  ControlClient,
  /** Journal filters the server understands (plain values only). */
  RemoteJournalQuery,
} from './server/control-client.js'

// Record and replay (issue 11): the recorder and cassette files, plus the browser-safe API of
// `fakelab/msw`, named one by one so that the public surface changes only here (issue 24, item 7).
export {
  /** Starts a recorder (a proxy to a real GitLab that writes cassettes) or a replay server on a local port. */
  createRecorder,
  /** Reads and validates a cassette file. */
  loadCassetteFile,
  /** Writes a cassette atomically (a temporary file renamed over `path`), creating missing folders. */
  writeCassetteFile,
  /** Thrown by `close()` of a `lockdown` recorder that saw misses; `misses` lists them in order. */
  LockdownError,
} from './record/recorder.js'
export type {
  /** One finished exchange, as reported to the recorder's `onExchange`. */
  Exchange,
  /** A running recorder (also a replay server), shaped like `RunningServer`. */
  Recorder,
  /** Options of `createRecorder`. */
  RecorderOptions,
} from './record/recorder.js'
export {
  /** Thrown by `parseCassette` when a cassette is not valid JSON or not a usable HAR 1.2 log; `problems` lists every problem. */
  CassetteError,
  /** The zod schema a cassette satisfies: a HAR 1.2 `log` with the fields replay reads. */
  cassetteSchema,
  /** Builds a HAR 1.2 log from entries, sorted by `startedDateTime` (stable for equal instants). */
  createCassette,
  /** Formats a cassette problem as `file:line:col message`. */
  formatCassetteProblem,
  /** Parses and validates a cassette's text; throws `CassetteError` with every problem located. */
  parseCassette,
  /** A cassette as stable text: keys in HAR order, two-space indentation, a final newline. */
  serializeCassette,
  /** Creates a redactor (the default rules plus yours) for tokens and secrets in a cassette. */
  createRedactor,
  /** What is redacted with no configuration: credential headers and params, token body fields, GitLab's token prefixes. */
  DEFAULT_REDACTION,
  /** True when a value contains a redaction placeholder. */
  isRedacted,
  /** Puts a mode (`replay`, `lockdown`, `hybrid`, `passthrough`) in front of a replayer: what `createReplayHandlers` takes. */
  createReplayDoor,
  /** Creates a replayer answering requests from one or more cassettes. */
  createReplayer,
  /** The Fetch Response for a recorded entry, its `Link` and `Location` URLs moved to the replaying origin. */
  entryResponse,
  /** Narrows a replay result to a miss. */
  isMiss,
  /** The diagnostic 501 answer (`x-fakelab-replay: miss`, a JSON report) to a request no recording answers. */
  missResponse,
  /** Every replay mode, in the order the CLI lists them. */
  REPLAY_MODES,
} from './record/index.js'
export type {
  /** Who wrote a cassette (`log.creator`). */
  CassetteCreator,
  /** One problem of a cassette file, located like a compiler message. */
  CassetteProblem,
  /** One recorded exchange (a HAR 1.2 entry). */
  HarEntry,
  /** A cassette: a HAR 1.2 document. */
  Har,
  /** Extra redaction rules, added to `DEFAULT_REDACTION`; names are case-insensitive. */
  RedactionRules,
  /** Redacts whole cassettes; one instance numbers the placeholders of one cassette. */
  Redactor,
  /** One way in which a recorded request differs from an incoming one. */
  Difference,
  /** How requests are compared with recordings. */
  MatchOptions,
  /** A recorded request close to an unmatched one. */
  NearMiss,
  /** A door's view of replay: a request becomes a Response, or `undefined` to go to the network. */
  ReplayDoor,
  /** Options of `createReplayDoor`. */
  ReplayDoorOptions,
  /** An incoming request no recorded exchange answers. */
  ReplayMiss,
  /** What a door does with a request: `replay`, `lockdown`, `hybrid` or `passthrough`. */
  ReplayMode,
  /** Answers requests from recordings. */
  Replayer,
  /** Options of `createReplayer`. */
  ReplayerOptions,
  /** Anything that answers Fetch requests like a simulator (`sim.handle`). */
  RequestHandlerLike,
} from './record/index.js'
// Fidelity reports (issue 15): replay a cassette against the simulator, field by field; and
// cassette → scenario import (issue 11), which checks itself by such a replay.
export {
  /** Turns a cassette into a scenario (the records its answers show). */
  importCassette,
  /** Replays a cassette against a fresh simulator and compares every answer. */
  verifyCassette,
  /** A replayer over a simulator, exchange by exchange (what live verification uses). */
  createSessionReplayer,
  /** The host the simulator answers as in a report, so recorded URLs visibly need the host mapping. */
  SIMULATOR_ORIGIN,
  /** Creates a verifier that checks exchanges as they are recorded. */
  createLiveVerifier,
  /** Every normalisation on (the default). */
  DEFAULT_NORMALISATIONS,
  /** Thrown by `parseIgnoreRule` for a rule it cannot read; `message` says what and where. */
  IgnoreSyntaxError,
  /** Parses one ignore rule. */
  parseIgnoreRule,
  /** A report as one self-contained HTML page (no scripts, every string escaped). */
  formatHtmlReport,
  /** A report as JSON: `{ reports, exchanges, identical, clean }`. */
  formatJsonReport,
  /** A report in the given format (`text`, `json` or `html`). */
  formatReport,
  /** A report as a text summary: one line per route, its first differences, the per-area figures. */
  formatTextReport,
  /** The report formats of `fakelab verify --report`. */
  REPORT_FORMATS,
} from './verify/index.js'
export type {
  /** Options of `importCassette`. */
  ImportOptions,
  /** What `importCassette` produced. */
  ImportResult,
  /** Exchanges and identical ones, per area. */
  AreaSummary,
  /** One replayed exchange. */
  ExchangeResult,
  /** The differences of one route. */
  RouteSummary,
  /** Replays recorded exchanges one by one against one simulator. */
  SessionReplayer,
  /** Options of `verifyCassette`. */
  VerifyOptions,
  /** The outcome of `verifyCassette`. */
  VerifyReport,
  /** What kind of difference. */
  DifferenceKind,
  /** One difference between a recorded and a simulated answer. */
  VerifyDifference,
  /** Checks exchanges as they are recorded. */
  LiveVerifier,
  /** Options of `createLiveVerifier`. */
  LiveVerifierOptions,
  /** The normalisations, each on by default. */
  Normalisations,
  /** A parsed ignore rule. */
  IgnoreRule,
  /** One of `REPORT_FORMATS`. */
  ReportFormat,
} from './verify/index.js'
