/**
 * `fakelab record --target <gitlab url> [--out <cassette>]`: runs a local proxy in front of a real
 * GitLab, records every exchange, and writes one redacted HAR cassette when stopped (SIGINT or
 * SIGTERM), atomically. While it runs the cassette is also checkpointed shortly after each
 * exchange, so even a killed recorder leaves its last checkpoint.
 *
 * stdout: the proxy URL as the first line (point the client there). stderr: `[fakelab]` messages;
 * a live count of recorded exchanges on a TTY, else one line per exchange.
 * Exit codes: 0 stopped and written, 1 bad option, 2 runtime failure (port in use, cassette not
 * writable). Source: issue 11; STYLE.md §11.
 *
 * `--verify` (issue 15, live mode): beside each recorded answer, the simulator's answer to the
 * same request (seeded from `--scenario`, else from the answers recorded so far) is compared with
 * it after the client has the real one; each differing exchange logs one `[fakelab] verify` line,
 * and the report of `fakelab verify` is written beside the cassette on stop.
 * @module
 */
import { promises as fsp } from 'node:fs'
import { dirname } from 'node:path'
import { InvalidArgumentError, Option, type Command } from 'commander'
import type { Exchange, Recorder } from '../../record/recorder.js'
import type { LiveVerifier } from '../../verify/live.js'
import { IgnoreSyntaxError } from '../../verify/paths.js'
import { formatReport, formatValue, REPORT_FORMATS, type ReportFormat } from '../../verify/report.js'
import type { ExchangeResult } from '../../verify/verify.js'
import { loadVerifyScenario, readVerifyConfig } from './verify.js'
import { collect, errorText, parsePort } from '../options.js'
import { exitAfterGrace, stopOnSignals } from '../signals.js'

const EXIT_INVALID = 1
const EXIT_RUNTIME = 2

/** Parsed options of `record`. */
interface RecordOptions {
  target: string
  out: string
  port: number
  host: string
  mode: 'record' | 'passthrough'
  redactHeader?: string[]
  redactQuery?: string[]
  redactField?: string[]
  /** Live mode (issue 15): compare each real answer with the simulator's. */
  verify?: boolean
  scenario?: string
  ignore?: string[]
  config?: string
  report: ReportFormat
  verifyOut?: string
}

/** `[fakelab] verify #12 GET /projects/:id/labels/:label_id: $.color (value): recorded "#0f0", simulated "#f00" (+2 more)`. */
function differenceLine(result: ExchangeResult): string {
  const first = result.differences[0]!
  const more = result.differences.length - 1
  const values = `recorded ${formatValue(first.recorded, 'recorded' in first)}, simulated ${formatValue(first.simulated, 'simulated' in first)}`
  return `[fakelab] verify #${result.index} ${result.route}: ${first.path} (${first.kind}): ${values}${more > 0 ? ` (+${more} more)` : ''}\n`
}

/** The live verifier of `--verify`, or undefined; writes the problem and sets exit 1 when an option is bad. */
async function liveVerifier(options: RecordOptions): Promise<LiveVerifier | undefined | 'invalid'> {
  if (!options.verify) return undefined
  try {
    const ignore = [...(options.config ? await readVerifyConfig(options.config) : []), ...(options.ignore ?? [])]
    const scenario = options.scenario ? await loadVerifyScenario(options.scenario) : undefined
    const { createLiveVerifier } = await import('../../verify/live.js')
    return createLiveVerifier({ ignore, source: options.out, ...(scenario ? { scenario } : {}) })
  } catch (error) {
    if (!(error instanceof Error) || !(error instanceof IgnoreSyntaxError || error.name === 'BadInput')) throw error
    process.stderr.write(`[fakelab] ${error.message}\n`)
    process.exitCode = EXIT_INVALID
    return 'invalid'
  }
}

/** Where the live report goes: `--verify-out`, else beside the cassette (`<out>.verify.<txt|json|html>`). */
function verifyOut(options: RecordOptions): string {
  return options.verifyOut ?? `${options.out}.verify.${options.report === 'text' ? 'txt' : options.report}`
}

function parseTarget(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new InvalidArgumentError('expected an http(s) URL such as https://gitlab.example.com.')
  return url.href.replace(/\/$/, '')
}

/** Repeatable, comma-separated names (`--redact-header X-Api-Key,X-Other` or `FAKELAB_REDACT_HEADERS`). */
function parseNames(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((s) => s.trim()).filter((s) => s !== '')]
}

/** `fixtures/cassettes/session-20210401-120000.har.json` for the current time. */
function defaultOut(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `fixtures/cassettes/session-${stamp}.har.json`
}

/** One line per exchange (non-TTY). */
function exchangeLine(x: Exchange): string {
  const what = x.error ? ` (target unreachable: ${x.error.message})` : x.recorded ? '' : ' (not recorded)'
  return `[fakelab] #${x.sequence} ${x.status} ${x.method} ${x.path} ${x.durationMs} ms${what}\n`
}

/** Writes the cassette, closes the proxy and exits; a second signal while stopping is ignored. */
function stopRecorderOnSignals(recorder: Recorder, options: RecordOptions, tty: boolean, live: LiveVerifier | undefined): void {
  stopOnSignals(
    (signal) => {
      if (tty) process.stderr.write('\n')
      process.stderr.write(`[fakelab] ${signal} received, writing the cassette.\n`)
      const write = options.mode === 'record' ? recorder.save(options.out) : Promise.resolve()
      return write.then(async () => {
        if (options.mode === 'record') process.stderr.write(`[fakelab] wrote ${recorder.recordedCount} exchanges to ${options.out}\n`)
        if (live) await writeLiveReport(live, options)
        // A stuck connection cuts the close short, after the cassette is written.
        exitAfterGrace()
        return recorder.close()
      })
    },
    (error) => `[fakelab] cannot write ${options.out}: ${errorText(error)}`,
  )
}

/** Writes the live report when the recorder stops; a failure to write it is reported, not fatal. */
async function writeLiveReport(live: LiveVerifier, options: RecordOptions): Promise<void> {
  const report = await live.report()
  const path = verifyOut(options)
  try {
    await writeCassetteSibling(path, formatReport([report], options.report))
    process.stderr.write(`[fakelab] verify: ${report.identical}/${report.exchanges} exchanges identical; report in ${path}\n`)
  } catch (error) {
    process.stderr.write(`[fakelab] cannot write ${path}: ${errorText(error)}\n`)
  }
}

async function writeCassetteSibling(path: string, text: string): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true })
  await fsp.writeFile(path, text, 'utf8')
}

async function record(options: RecordOptions, version: string): Promise<void> {
  const tty = process.stderr.isTTY === true
  let recorder: Recorder | undefined
  const live = await liveVerifier(options)
  if (live === 'invalid') return
  const onExchange = (x: Exchange): void => {
    if (live && x.recorded && recorder) {
      // The client already has the real answer; the simulator's is computed after it.
      void live.check(recorder.cassette()).then(
        (results) => {
          for (const result of results) if (result.differences.length > 0) process.stderr.write(`${tty ? '\r\x1b[2K' : ''}${differenceLine(result)}`)
        },
        (error: unknown) => process.stderr.write(`[fakelab] verify failed: ${errorText(error)}\n`),
      )
    }
    if (!tty) return void process.stderr.write(exchangeLine(x))
    const last = `${x.status} ${x.method} ${x.path}`.slice(0, 60)
    process.stderr.write(`\r\x1b[2K[fakelab] ${recorder?.recordedCount ?? 0} exchanges recorded (last: ${last})`)
  }
  try {
    // Loaded on use: `fakelab serve` registers this command too, and never needs the proxy.
    const { createRecorder } = await import('../../record/recorder.js')
    recorder = await createRecorder({
      target: options.target,
      mode: options.mode,
      port: options.port,
      host: options.host,
      redaction: { headers: options.redactHeader ?? [], queryParams: options.redactQuery ?? [], bodyFields: options.redactField ?? [] },
      creator: { name: 'fakelab', version },
      ...(options.mode === 'record' ? { autosave: options.out } : {}),
      onExchange,
    })
  } catch (error) {
    process.stderr.write(`[fakelab] cannot listen on ${options.host}:${options.port}: ${errorText(error)}\n`)
    process.exitCode = EXIT_RUNTIME
    return
  }
  stopRecorderOnSignals(recorder, options, tty, live)
  process.stdout.write(`${recorder.url}\n`)
  const what = options.mode === 'record' ? `recording into ${options.out}` : 'passing through, recording nothing'
  process.stderr.write(`[fakelab] proxying ${recorder.url} → ${options.target}, ${what}. Press Ctrl+C to stop.\n`)
}

const EXAMPLES = `
Examples:
  $ fakelab record --target https://gitlab.example.com --out fixtures/cassettes/ci.har.json
  $ GITLAB_URL=http://127.0.0.1:3000 npm test     # point the client at the printed URL
  $ fakelab record -t https://gitlab.example.com --port 0 --redact-header X-Api-Key
  $ FAKELAB_TARGET=https://gitlab.example.com fakelab record   # options fall back to FAKELAB_*
  $ fakelab record -t https://gitlab.example.com --verify      # log where fakelab would answer differently

Tokens (PRIVATE-TOKEN, Authorization, JOB-TOKEN, cookies, private_token=..., token fields,
glpat-/glrt-/GR1348941... strings) are replaced by stable placeholders before anything is written.
Exit codes: 0 stopped and written, 1 bad option, 2 runtime failure.
`

/**
 * Adds `record` to the program. Options fall back to `FAKELAB_TARGET`, `FAKELAB_RECORD_OUT`,
 * `FAKELAB_PORT`, `FAKELAB_HOST`, `FAKELAB_RECORD_MODE`, `FAKELAB_REDACT_HEADERS`,
 * `FAKELAB_REDACT_QUERY` and `FAKELAB_REDACT_FIELDS`.
 * @returns the new subcommand.
 */
export function registerRecordCommand(program: Command): Command {
  return program
    .command('record')
    .description('proxy a real GitLab and record every exchange into a redacted HAR cassette')
    .addOption(new Option('-t, --target <url>', 'the GitLab to forward to').env('FAKELAB_TARGET').argParser(parseTarget).makeOptionMandatory())
    .addOption(new Option('-o, --out <cassette>', 'cassette to write (default: fixtures/cassettes/session-<time>.har.json)').env('FAKELAB_RECORD_OUT'))
    .addOption(new Option('-p, --port <n>', 'TCP port; 0 picks a free one').env('FAKELAB_PORT').argParser(parsePort).default(3000))
    .addOption(new Option('--host <h>', 'interface to bind').env('FAKELAB_HOST').default('127.0.0.1'))
    .addOption(new Option('--mode <mode>', 'record, or passthrough (forward only)').choices(['record', 'passthrough']).env('FAKELAB_RECORD_MODE').default('record'))
    .addOption(new Option('--redact-header <names...>', 'more headers to redact').env('FAKELAB_REDACT_HEADERS').argParser(parseNames))
    .addOption(new Option('--redact-query <names...>', 'more query parameters to redact').env('FAKELAB_REDACT_QUERY').argParser(parseNames))
    .addOption(new Option('--redact-field <names...>', 'more JSON/form body fields to redact').env('FAKELAB_REDACT_FIELDS').argParser(parseNames))
    .addOption(new Option('--verify', "also compute the simulator's answer to each request; log each exchange that differs and write a report on stop"))
    .addOption(new Option('-s, --scenario <file>', 'with --verify: the simulator starts from this scenario (default: the answers recorded so far)'))
    .addOption(new Option('-i, --ignore <json-path>', 'with --verify: ignore differences at this path (repeatable)').argParser(collect))
    .addOption(new Option('-c, --config <file>', 'with --verify: YAML file with an ignore: list'))
    .addOption(new Option('--report <format>', 'with --verify: report format').choices(REPORT_FORMATS).default('text'))
    .addOption(new Option('--verify-out <file>', 'with --verify: where the report goes (default: <cassette>.verify.txt|json|html)'))
    .addHelpText('after', EXAMPLES)
    .action(async (options: Omit<RecordOptions, 'out'> & { out?: string }) => {
      await record({ ...options, out: options.out ?? defaultOut() }, program.version() ?? '0.0.0')
    })
}
