/**
 * `fakelab serve`: loads a scenario (the embedded default unless `--scenario` is given), creates a
 * simulator and serves it over node:http until SIGINT/SIGTERM.
 *
 * stdout: the base URL as the first line (scripts and tests read it), then one line per request
 * (`--log`). The banner (the API root, the scenario's users and tokens, a curl example; with
 * `--replay` the cassettes and the mode) follows the URL on stdout when stdout is a terminal, and
 * goes to stderr otherwise, so that a machine reading stdout gets only the URL and the request
 * lines (issue 38 item 5); `--quiet` drops it. stderr: `[fakelab]` messages and scenario problems
 * as `file:line:col message`.
 * Exit codes: 0 stopped by a signal, 1 bad option or invalid scenario, 2 runtime failure
 * (unreadable scenario file, port in use, ...). Source: STYLE.md §11.
 * @module
 */
import { unwatchFile, watchFile } from 'node:fs'
import { createRequire } from 'node:module'
import { InvalidArgumentError, Option, type Command } from 'commander'
import { createSimulator, handOverState, type Simulator } from '../../simulator.js'
import { allRoutes, areas } from '../../resources/index.js'
import { DEFAULT_SCENARIO_PATH, loadDefaultScenario, loadDefaultState, loadScenarioFile } from '../../scenario-files.js'
import { startServer, type RunningServer } from '../../server/node-server.js'
import { ScenarioError, type Scenario } from '../../scenario/index.js'
import { entryJson, formatEntry, type JournalEntry } from '../../core/journal.js'
import type { StateExport } from '../../core/control.js'
import { checkFaultRule, type FaultRule } from '../../core/faults.js'
import type { Exchange } from '../../record/recorder.js'
import { modeOption, replayBannerLines, replayOption, startReplayServer, type ServeReplayOptions } from './serve-replay.js'
import { bufferedLog } from '../log-sink.js'
import { errorText, parsePort } from '../options.js'
import { exitAfterGrace, stopOnSignals } from '../signals.js'

const EXIT_INVALID = 1
const EXIT_RUNTIME = 2
/** The banner lists at most this many users (and areas this many rows of one kind). */
const MAX_LISTED_USERS = 25

/** Parsed options of `serve` (after env fallbacks and defaults). */
interface ServeOptions extends ServeReplayOptions {
  port: number
  host: string
  scenario?: string
  seed?: number
  log?: LogMode
  watch?: boolean
  fault?: FaultRule[]
  delay?: FaultRule['delay']
  quiet?: boolean
}

/** How `serve` prints requests: one line each, as text or JSON (a journal entry), or not at all. */
type LogMode = 'pretty' | 'json' | 'off'
const LOG_MODES: readonly LogMode[] = ['pretty', 'json', 'off']

/** commander argument parser for `--seed`: a safe integer. */
function parseSeed(value: string): number {
  const seed = /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : NaN
  if (!Number.isSafeInteger(seed)) throw new InvalidArgumentError('expected an integer.')
  return seed
}

/**
 * commander argument parser for repeated `--fault <json>`: one JSON fault rule each, checked as the
 * control API checks one (unknown keys and routes refused with a did-you-mean; exit 1).
 */
function parseFault(value: string, previous: FaultRule[] = []): FaultRule[] {
  let rule: FaultRule
  try {
    rule = JSON.parse(value) as FaultRule
  } catch (error) {
    throw new InvalidArgumentError(`expected a JSON fault rule such as '{"route":"GET /user","status":503,"times":2}' (${errorText(error)}).`)
  }
  try {
    checkFaultRule(rule, allRoutes().map((route) => route.key))
  } catch (error) {
    throw new InvalidArgumentError(errorText(error))
  }
  return [...previous, rule]
}

/** How the banner shows a fault rule: what it matches, then what it does. */
function faultLine(rule: FaultRule): string {
  const match = [rule.route, rule.method !== undefined ? `method ${rule.method}` : '', rule.path !== undefined ? `path /${rule.path}/` : ''].filter(Boolean).join(', ') || 'every request'
  const delay = rule.delay === undefined ? '' : typeof rule.delay === 'number' ? `delay ${rule.delay}ms` : `delay ${rule.delay.min}-${rule.delay.max}ms`
  const effect = [
    delay,
    rule.status !== undefined ? `status ${rule.status}${rule.status === 429 ? ` (Retry-After ${rule.retryAfter ?? 60})` : ''}` : '',
    rule.reset ? 'reset' : '',
    rule.malformed ? 'malformed' : '',
    rule.probability !== undefined ? `probability ${rule.probability}` : '',
    rule.times !== undefined ? `next ${rule.times} request${rule.times === 1 ? '' : 's'}` : '',
  ].filter(Boolean)
  return `  ${match}: ${effect.join(', ')}`
}

/** commander argument parser for `--delay`: `ms` or `min-max` (ms), for every request. */
function parseDelay(value: string): FaultRule['delay'] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value.trim())
  if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) throw new InvalidArgumentError('expected milliseconds (120) or a range (50-200).')
  return m[2] === undefined ? Number(m[1]) : { min: Number(m[1]), max: Number(m[2]) }
}

/** commander argument parser for `--host`: any non-empty interface name or address. */
function parseHost(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a host name or address.')
  return value.trim()
}

/** Prints every scenario problem as `file:line:col message` on stderr. */
function reportProblems(error: ScenarioError): void {
  // Its message is its problems, one `file:line:col message` a line (scenario/problems.ts).
  process.stderr.write(`${error.message}\n`)
  const count = Math.max(error.problems.length, 1)
  process.stderr.write(`[fakelab] the scenario has ${count} problem${count === 1 ? '' : 's'}; not starting.\n`)
}

/**
 * The URL clients should use. spec-gap: for a wildcard bind (`0.0.0.0`, `::`) the server's own
 * URL is not connectable everywhere, so the loopback address of the same family is shown instead.
 */
function clientUrl(server: RunningServer, host: string): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${server.port}`
  if (host === '::' || host === '[::]') return `http://[::1]:${server.port}`
  return server.url
}

interface TokenLine {
  token: string
  scopes: string[]
  usable: boolean
  note: string
}

/** Unrevoked personal access tokens of a user; expired ones are kept but marked. */
function tokensOf(sim: Simulator, userId: number, today: string): TokenLine[] {
  return sim.db.tables.personal_access_tokens
    .where('user_id', userId)
    .filter((t) => !t.revoked)
    .map((t) => {
      // Same rule as src/core/auth.ts: a personal token stops working on its expiry date.
      const expired = t.expires_at !== null && today >= t.expires_at
      const notes = [expired ? 'expired' : '', t.impersonation ? 'impersonation' : ''].filter(Boolean)
      return { token: t.token, scopes: t.scopes, usable: !expired, note: notes.length > 0 ? ` (${notes.join(', ')})` : '' }
    })
}

/**
 * The banner printed after the URL line: the users and their tokens, then each area's lines. With
 * `--replay` it names the cassettes, their counts and the mode first; in `replay` and `lockdown`
 * modes the scenario answers nothing, so its users and areas are left out (issue 38 item 3).
 */
function banner(sim: Simulator, scenario: Scenario | StateExport, url: string, scenarioName: string, version: string, replay: ServeReplayOptions): string {
  const head = [
    '',
    `fakelab ${version}: GitLab REST API v4 simulator`,
    `  API root   ${url}/api/v4`,
    ...(replay.replay ? replayBannerLines(replay) : []),
  ]
  if (replay.replay && replay.mode !== 'hybrid') {
    return `${[...head, '', 'Try:', `  curl ${url}/-/readiness`, '', 'Press Ctrl+C to stop.'].join('\n')}\n`
  }
  const today = sim.clock.now().toISOString().slice(0, 10)
  const users = sim.db.tables.users.all()
  const rows = users.slice(0, MAX_LISTED_USERS).map((user) => {
    const role = user.admin ? 'admin' : user.user_type === 'project_bot' ? 'bot' : 'user'
    const state = user.state === 'active' ? '' : ` (${user.state})`
    const tokens = tokensOf(sim, user.id, today)
    const shown = tokens.map((t) => `${t.token} [${t.scopes.join(', ')}]${t.note}`).join(', ') || '(no tokens)'
    return { name: user.username, role: role + state, tokens: shown }
  })
  const nameWidth = Math.max(4, ...rows.map((r) => r.name.length))
  const roleWidth = Math.max(4, ...rows.map((r) => r.role.length))
  const lines = [
    ...head,
    `  Scenario   ${scenarioName}`,
    `  Clock      ${scenario.now ? `frozen at ${String(scenario.now)}` : 'system clock'}`,
    '',
    `Users (${users.length})`,
    `  ${'USER'.padEnd(nameWidth)}  ${'ROLE'.padEnd(roleWidth)}  TOKENS`,
    ...rows.map((r) => `  ${r.name.padEnd(nameWidth)}  ${r.role.padEnd(roleWidth)}  ${r.tokens}`),
  ]
  if (users.length > rows.length) lines.push(`  ... and ${users.length - rows.length} more`)
  const view = { db: sim.db, now: sim.clock.now(), limit: MAX_LISTED_USERS }
  for (const area of areas) lines.push(...(area.startup?.(view) ?? []))
  // The fault rules in force (issue 28): a fault nobody sees looks like a bug in the client.
  const faults = sim.faults.list()
  if (faults.length > 0) lines.push('', `Faults (${faults.length}; GET /-/fakelab/faults lists them, DELETE clears them)`, ...faults.map(faultLine))

  // The curl example uses an admin's working `api` token when there is one, else any working token.
  const candidates = users.flatMap((user) =>
    tokensOf(sim, user.id, today)
      .filter((t) => t.usable && user.state === 'active')
      .map((t) => ({ token: t.token, rank: (user.admin ? 0 : 2) + (t.scopes.includes('api') ? 0 : 1) })),
  )
  candidates.sort((a, b) => a.rank - b.rank)
  const example = candidates[0]
  lines.push('', 'Try:')
  lines.push(
    example
      ? `  curl -H "PRIVATE-TOKEN: ${example.token}" ${url}/api/v4/user`
      : `  curl ${url}/api/v4/projects`,
  )
  lines.push('', 'Press Ctrl+C to stop.')
  return `${lines.join('\n')}\n`
}

/**
 * One log line for a request on stdout: `pretty` is {@link formatEntry}'s text, with requests no
 * route answered flagged `NOT SIMULATED` so a gap in fakelab is not mistaken for the client's bug
 * (a session's requests end in `[session <id>]`); `json` is the journal entry as one JSON object
 * (with `"session"` for a session's requests), `JSON.stringify`'s text written from the fields ({@link entryJson}).
 */
export function logLine(entry: JournalEntry, mode: Exclude<LogMode, 'off'>): string {
  if (mode === 'json') return entryJson(entry)
  return `${entry.simulated ? '' : 'NOT SIMULATED '}${formatEntry(entry)}`
}

/**
 * A request `serve --replay` answered from a cassette, or could not answer (a miss: the 501
 * diagnostic in `replay` and `lockdown` modes), as the `json` log prints it. Requests the simulator
 * answers (`hybrid` misses) are logged as journal entries instead.
 */
interface ReplayLogEntry {
  /** The replay server's count of requests (those the simulator answered included). */
  readonly seq: number
  /** When the answer was sent, by the wall clock (ISO 8601); a cassette does not follow the scenario's clock. */
  readonly at: string
  readonly method: string
  /** The path as received, still percent-encoded. */
  readonly path: string
  /** The query string without `?` (`''` when none). */
  readonly query: string
  readonly status: number
  /** `true`: answered from a recording; `false`: no recording answers it (a replay miss, 501). */
  readonly replayed: boolean
  /** Milliseconds from request to the end of the answer (whole milliseconds). */
  readonly durationMs: number
}

/** The log entry of a replay exchange; `undefined` for one the simulator answered (its journal logs it). */
function replayLogEntry(exchange: Exchange, at: string): ReplayLogEntry | undefined {
  if (exchange.source !== 'cassette' && exchange.source !== 'miss') return undefined
  const q = exchange.path.indexOf('?')
  return {
    seq: exchange.sequence,
    at,
    method: exchange.method,
    path: q === -1 ? exchange.path : exchange.path.slice(0, q),
    query: q === -1 ? '' : exchange.path.slice(q + 1),
    status: exchange.status,
    replayed: exchange.source === 'cassette',
    durationMs: exchange.durationMs,
  }
}

/**
 * One log line for a replay exchange: `json` is the {@link ReplayLogEntry}; `pretty` reads
 * `GET /api/v4/user → 200 (replayed) 1.0ms`, or for a miss
 * `REPLAY MISS GET /api/v4/x → 501 (no recording) 1.0ms`.
 */
function replayLogLine(entry: ReplayLogEntry, mode: Exclude<LogMode, 'off'>): string {
  if (mode === 'json') return JSON.stringify(entry)
  const target = entry.query ? `${entry.path}?${entry.query}` : entry.path
  const how = entry.replayed ? 'replayed' : 'no recording'
  return `${entry.replayed ? '' : 'REPLAY MISS '}${entry.method} ${target} → ${entry.status} (${how}) ${entry.durationMs.toFixed(1)}ms`
}

/** How often `--watch` polls the scenario file (polling survives editors that replace the file). */
const WATCH_INTERVAL_MS = 200

/**
 * `--watch`: reloads the scenario when its file or any file it `include:`s changes (issue 28). The
 * watched set follows the scenario: after every reload it is the files that reload read, so an
 * include added by an edit is watched from then on, and one removed is no longer. A broken edit keeps
 * the last good state and prints its problems as `file:line:col message` on stderr.
 * @param files the files the first load read ({@link loadScenarioFile}'s `files`).
 * @returns a function that stops watching.
 */
function watchScenario(sim: Simulator, file: string, files: ReadonlySet<string>): () => void {
  let running = Promise.resolve()
  const watched = new Set<string>()
  const onChange = (current: { mtimeMs: number; size: number }, previous: { mtimeMs: number; size: number }): void => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size) reload()
  }
  const follow = (read: ReadonlySet<string>): void => {
    for (const path of read) if (!watched.has(path)) watchFile(path, { interval: WATCH_INTERVAL_MS }, onChange)
    for (const path of watched) if (!read.has(path)) unwatchFile(path, onChange)
    watched.clear()
    for (const path of read) watched.add(path)
  }
  const reload = (): void => {
    running = running.then(async () => {
      const read = new Set<string>()
      try {
        sim.loadScenario(await loadScenarioFile(file, read))
        process.stderr.write(`[fakelab] reloaded ${file}\n`)
      } catch (error) {
        if (error instanceof ScenarioError) {
          process.stderr.write(`${error.message}\n[fakelab] ${file} has problems; keeping the last good state.\n`)
        } else {
          process.stderr.write(`[fakelab] cannot reload ${file}: ${errorText(error)}; keeping the last good state.\n`)
        }
      }
      // What this attempt read, even a failed one: fixing a broken include must reload too.
      follow(read)
    })
  }
  follow(files)
  return () => follow(new Set())
}

/** Stops the server on SIGINT/SIGTERM and exits 0. */
function stopServerOnSignals(server: RunningServer): void {
  stopOnSignals(
    (signal) => {
      process.stderr.write(`[fakelab] ${signal} received, stopping.\n`)
      exitAfterGrace()
      return server.close()
    },
    (error) => `[fakelab] error while stopping: ${errorText(error)}`,
  )
}

/**
 * V8 flags for the server process (issue 27, RSS; both are read each time V8 sizes a space, so
 * setting them at run time works, where `--max-semi-space-size` would need node's command line),
 * set in the turn of the event loop after the URL line: a start needs neither them nor `node:v8`,
 * and no request can be read before them. (Set after the first answer instead, a burst of first
 * requests, as the soak's 32 connections send, grew the young generation once more before they
 * applied: 101 MB after the soak against 95 MB. The CLI's code cache is written with them unset,
 * as a start has them: V8 rejects a cache made under other flags; scripts/build-cli.mjs.)
 * - the young generation keeps the size it has by then (4 MB of new space by `v8.getHeapSpaceStatistics()`,
 *   against 1 MB in a fresh node process; as much with these flags on node's command line from the
 *   start) instead of doubling up to two 16 MB semi-spaces under load: a request leaves little alive
 *   between two scavenges, but the grown space stayed resident (32 MB of the 140-odd MB the 30 s soak reached);
 * - after a full collection the old generation may grow by 30 % of its live size before the next one
 *   (V8 lets it grow up to fourfold): the store's replaced records, dropped memo entries and old
 *   journal entries are the garbage a server piles up there. The live heap is about 17 MB.
 * On the loaded 2-core machine the soak's RSS after 30 s went from 141-149 MB to 97-101 MB, levelled,
 * at no measurable CPU per request.
 */
const SERVER_V8_FLAGS = '--semi-space-growth-factor=1 --heap-growing-percent=30'

/** Loads the scenario, starts the server and prints the banner; failures set `process.exitCode`. */
async function serve(options: ServeOptions, version: string): Promise<void> {
  const file = options.scenario
  /** The files the scenario is composed from (`--watch` watches them). */
  const files = new Set<string>()
  let scenario: Scenario | StateExport
  try {
    // Without --scenario, the default scenario as the build already loaded it (#5: cold start),
    // unless --seed asks for other generated values: those need the scenario itself.
    const parsed = file === undefined && options.seed === undefined ? await loadDefaultState() : undefined
    // Parsed for this simulator alone: its records need no copy (banner() reads only `now`).
    const prebuilt = parsed && handOverState(parsed)
    scenario = file !== undefined ? await loadScenarioFile(file, files) : (prebuilt ?? (await loadDefaultScenario()))
  } catch (error) {
    if (error instanceof ScenarioError) {
      reportProblems(error)
      process.exitCode = EXIT_INVALID
    } else {
      process.stderr.write(`[fakelab] cannot read scenario ${file ?? DEFAULT_SCENARIO_PATH}: ${errorText(error)}\n`)
      process.exitCode = EXIT_RUNTIME
    }
    return
  }

  let sim: Simulator
  try {
    const faults = [...(options.delay !== undefined ? [{ delay: options.delay }] : []), ...(options.fault ?? [])]
    sim = createSimulator({ scenario, faults, ...(options.seed !== undefined ? { seed: options.seed } : {}) })
  } catch (error) {
    if (error instanceof RangeError && /\bfault\b/.test(error.message)) {
      // A fault rule of the scenario naming no route (the --fault rules were checked already).
      process.stderr.write(`[fakelab] ${file ?? DEFAULT_SCENARIO_PATH}: ${error.message}\n`)
      process.exitCode = EXIT_INVALID
      return
    }
    if (!(error instanceof ScenarioError)) throw error
    reportProblems(error)
    process.exitCode = EXIT_INVALID
    return
  }

  const logMode = options.log ?? (process.stdout.isTTY ? 'pretty' : 'json')
  // One log for the journal's entries and the replayed exchanges, so their lines keep their order.
  const log = logMode === 'off' ? undefined : bufferedLog((line: string) => line)
  const logReplay = (exchange: Exchange): void => {
    const entry = log && replayLogEntry(exchange, new Date().toISOString())
    if (entry) log!(`${replayLogLine(entry, logMode as Exclude<LogMode, 'off'>)}\n`)
  }
  let server: RunningServer
  try {
    server = options.replay
      ? await startReplayServer(sim, options, logReplay)
      : await startServer(sim, { port: options.port, host: options.host })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const hint = code === 'EADDRINUSE' ? ' (use --port 0 to pick a free port)' : ''
    process.stderr.write(`[fakelab] cannot listen on ${options.host}:${options.port}: ${errorText(error)}${hint}\n`)
    process.exitCode = EXIT_RUNTIME
    return
  }

  if (log) sim.journal.subscribe((entry: JournalEntry) => log(`${logLine(entry, logMode as Exclude<LogMode, 'off'>)}\n`))

  if (options.watch) {
    if (file === undefined) process.stderr.write('[fakelab] --watch needs --scenario <file>; not watching.\n')
    else {
      const stop = watchScenario(sim, file, files)
      server.server.once('close', stop)
    }
  }

  // Handlers first: a client that signals as soon as it reads the URL must get a clean stop.
  stopServerOnSignals(server)
  const url = clientUrl(server, options.host)
  const scenarioName = file ?? `embedded default (${DEFAULT_SCENARIO_PATH})`
  process.stdout.write(`${url}\n`)
  // The heap flags and the rest of the banner once the event loop has run: a client that starts on
  // the URL line (a test harness, the benchmark) is not kept waiting while they are made (issue 27,
  // cold start), and they still come before any request is read. The request log, buffered, comes
  // after the banner.
  setImmediate(() => {
    // required, not imported: the CLI bundle runs as a script, which has no dynamic import.
    ;(createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(SERVER_V8_FLAGS)
    // For the CLI's loader (scripts/cli-loader.cjs): the code caches of split bundles loaded from
    // now on are the ones made under these flags (V8 rejects a cache made under other flags).
    ;(globalThis as Record<symbol, unknown>)[Symbol.for('fakelab.v8-flags')] = SERVER_V8_FLAGS
    // For a person on a terminal, the banner under the URL; for a machine reading stdout (a pipe,
    // a file, `npm start` in CI), stdout stays the URL and the request lines (issue 38 item 5).
    if (!options.quiet) (process.stdout.isTTY ? process.stdout : process.stderr).write(banner(sim, scenario, url, scenarioName, version, options))
  })
}

const EXAMPLES = `
Examples:
  $ fakelab serve                              # default scenario on http://127.0.0.1:3000
  $ fakelab serve --port 0                     # any free port; the URL is the first stdout line
  $ fakelab serve --scenario my.yaml --seed 7  # your own data, other generated values
  $ FAKELAB_SCENARIO=my.yaml fakelab serve     # most options have a FAKELAB_* variable
  $ fakelab serve --delay 50-200 --fault '{"route":"GET /user","status":503,"times":2}'
  $ fakelab serve --replay s.har.json --mode lockdown  # CI: replay a cassette, fail on misses

Then:
  $ curl -H "PRIVATE-TOKEN: glpat-root-fakelab" http://127.0.0.1:3000/api/v4/user
`

/**
 * Adds `serve` to the program. Options fall back to `FAKELAB_PORT`, `FAKELAB_HOST`,
 * `FAKELAB_SCENARIO` and `FAKELAB_SEED`; bad values are usage errors (exit 1).
 * @returns the new subcommand.
 */
export function registerServeCommand(program: Command): Command {
  return program
    .command('serve')
    .description('serve a scenario as a GitLab REST API v4 over HTTP')
    .addOption(
      new Option('-p, --port <n>', 'TCP port; 0 picks a free one').env('FAKELAB_PORT').argParser(parsePort).default(3000),
    )
    .addOption(new Option('--host <h>', 'interface to bind').env('FAKELAB_HOST').argParser(parseHost).default('127.0.0.1'))
    .addOption(
      new Option('-s, --scenario <file>', 'scenario YAML file (default: the embedded scenarios/default.yaml)').env('FAKELAB_SCENARIO'),
    )
    .addOption(new Option('--seed <n>', "faker seed for generated values (default: the scenario's seed:)").env('FAKELAB_SEED').argParser(parseSeed))
    .addOption(
      new Option('--log <mode>', 'one stdout line per request: pretty, json or off (default: pretty on a terminal, json otherwise)')
        .env('FAKELAB_LOG')
        .choices(LOG_MODES),
    )
    .addOption(new Option('-w, --watch', 'reload the scenario when its file or a file it includes changes (a broken edit keeps the last good state)').env('FAKELAB_WATCH'))
    .addOption(new Option('--delay <ms>', 'delay every API request: ms, or a random min-max').env('FAKELAB_DELAY').argParser(parseDelay))
    .addOption(
      new Option('--fault <json>', 'a fault rule as JSON (repeatable), e.g. \'{"route":"GET /user","status":503,"times":2}\'').argParser(parseFault),
    )
    .addOption(new Option('-q, --quiet', 'no banner (off a terminal it goes to stderr; stdout is the URL line and the request lines)').env('FAKELAB_QUIET'))
    .addOption(replayOption())
    .addOption(modeOption())
    .addHelpText('after', EXAMPLES)
    .action(async (options: ServeOptions, command: Command) => {
      // A mode is what the replay server does with a miss: without a cassette it means nothing,
      // and a silently ignored `--mode lockdown` would let a CI run pass that should fail.
      if (options.replay === undefined && command.getOptionValueSource('mode') !== 'default') {
        command.error('error: --mode needs --replay <cassette...>; without a cassette every request goes to the scenario', { exitCode: EXIT_INVALID })
      }
      await serve(options, program.version() ?? '0.0.0')
    })
}
