/**
 * The `--replay` and `--mode` options of `fakelab serve`, and the server they start: the recorder
 * of `src/record/recorder.ts` in a replay mode, with the scenario's simulator behind it for
 * `hybrid`. Kept apart from `serve.ts` so that file only adds the two options and one call.
 *
 * Cassettes are read and validated while options are parsed, so a broken cassette is a usage error
 * (exit 1) that prints every problem as `file:line:col message`. Each miss is logged on stderr as it
 * happens; in `lockdown` mode, stopping the server fails with the list of misses, which `serve`
 * reports as a runtime failure (exit 2). Source: issue 11; STYLE.md §11.
 * @module
 */
import { readFileSync } from 'node:fs'
import { InvalidArgumentError, Option } from 'commander'
import type { Har } from 'har-format'
import { CassetteError, parseCassette } from '../../record/har.js'
import type { Exchange, Recorder } from '../../record/recorder.js'
import type { RequestHandlerLike } from '../../record/replay.js'
import { errorText } from '../options.js'

/** Modes `serve --replay` offers (`record` and `passthrough` need a target: `fakelab record`). */
const SERVE_REPLAY_MODES = ['replay', 'lockdown', 'hybrid'] as const

/** A cassette `--replay` read: its file as given, and its parsed HAR. */
export interface CassetteFile {
  readonly file: string
  readonly har: Har
}

/** What `--replay` and `--mode` parse into. */
export interface ServeReplayOptions {
  /** The parsed cassettes, in the order given. */
  replay?: CassetteFile[]
  mode?: (typeof SERVE_REPLAY_MODES)[number]
}

/** What each mode does with a request no recording answers, as the banner says it. */
const MODE_MEANING: Readonly<Record<(typeof SERVE_REPLAY_MODES)[number], string>> = {
  replay: 'a request no recording answers gets a 501 diagnostic',
  lockdown: 'a request no recording answers gets a 501, and stopping exits 2 with the list',
  hybrid: 'a request no recording answers goes to the scenario',
}

/**
 * The banner's lines for `--replay` (issue 38 item 3): each cassette with the exchanges it holds,
 * and the mode with what a miss does.
 */
export function replayBannerLines(options: ServeReplayOptions): string[] {
  const cassettes = options.replay ?? []
  const mode = options.mode ?? 'replay'
  return [
    ...cassettes.map((c, i) => {
      const count = c.har.log.entries.length
      return `  ${i === 0 ? 'Replaying ' : '          '} ${c.file} (${count} recorded exchange${count === 1 ? '' : 's'})`
    }),
    `  Mode       ${mode}: ${MODE_MEANING[mode]}`,
  ]
}

/**
 * commander parser for `--replay <cassette...>`: reads and validates each file. A value may name
 * several files separated by commas (for `FAKELAB_REPLAY`).
 * @throws InvalidArgumentError listing every problem of an unreadable or broken cassette.
 */
function parseReplay(value: string, previous: CassetteFile[] | undefined): CassetteFile[] {
  const files = value.split(',').map((f) => f.trim()).filter((f) => f !== '')
  return [
    ...(previous ?? []),
    ...files.map((file) => {
      try {
        return { file, har: parseCassette(readFileSync(file, 'utf8'), file) }
      } catch (error) {
        if (error instanceof CassetteError) throw new InvalidArgumentError(`\n${error.message}`)
        throw new InvalidArgumentError(`cannot read ${file}: ${errorText(error)}`)
      }
    }),
  ]
}

/** `--replay <cassette...>` (env `FAKELAB_REPLAY`, comma-separated), ready for `.addOption()`. */
export function replayOption(): Option {
  return new Option('--replay <cassette...>', 'answer from recorded HAR cassettes (fakelab record) in front of the scenario')
    .env('FAKELAB_REPLAY')
    .argParser(parseReplay)
}

/**
 * `--mode <mode>` (env `FAKELAB_MODE`, default `replay`), ready for `.addOption()`. A mode without
 * `--replay` is a usage error (exit 1; `serve.ts` checks it: a mode means nothing without a cassette).
 */
export function modeOption(): Option {
  return new Option('--mode <mode>', 'with --replay only: replay (miss = 501 diagnostic), lockdown (misses fail the run) or hybrid (misses go to the scenario)')
    .choices(SERVE_REPLAY_MODES)
    .env('FAKELAB_MODE')
    .default('replay')
}

/**
 * Starts the replay server on `port`/`host` with `simulator` as the hybrid fallback, logging each
 * miss on stderr. Shaped like `startServer`'s result.
 * @param onExchange told every finished exchange (the request log; `serve.ts`).
 * @throws the listen error.
 */
export async function startReplayServer(simulator: RequestHandlerLike, options: ServeReplayOptions & { port: number; host: string }, onExchange?: (exchange: Exchange) => void): Promise<Recorder> {
  const mode = options.mode ?? 'replay'
  // Loaded only in replay mode: the recorder brings an HTTP proxy that a plain serve never uses,
  // and every module a plain serve skips shortens its cold start (issue 5).
  const { createRecorder } = await import('../../record/recorder.js')
  return createRecorder({
    mode,
    cassettes: (options.replay ?? []).map((c) => c.har),
    simulator,
    port: options.port,
    host: options.host,
    onExchange: (exchange) => {
      if (exchange.source === 'miss' && exchange.miss) process.stderr.write(`[fakelab] replay miss: ${exchange.miss.message}\n`)
      onExchange?.(exchange)
    },
  })
}
