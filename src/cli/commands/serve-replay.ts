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

/** Modes `serve --replay` offers (`record` and `passthrough` need a target: `fakelab record`). */
const SERVE_REPLAY_MODES = ['replay', 'lockdown', 'hybrid'] as const

/** What `--replay` and `--mode` parse into. */
export interface ServeReplayOptions {
  /** The parsed cassettes, in the order given. */
  replay?: Har[]
  mode?: (typeof SERVE_REPLAY_MODES)[number]
}

/**
 * commander parser for `--replay <cassette...>`: reads and validates each file. A value may name
 * several files separated by commas (for `FAKELAB_REPLAY`).
 * @throws InvalidArgumentError listing every problem of an unreadable or broken cassette.
 */
function parseReplay(value: string, previous: Har[] | undefined): Har[] {
  const files = value.split(',').map((f) => f.trim()).filter((f) => f !== '')
  return [
    ...(previous ?? []),
    ...files.map((file) => {
      try {
        return parseCassette(readFileSync(file, 'utf8'), file)
      } catch (error) {
        if (error instanceof CassetteError) throw new InvalidArgumentError(`\n${error.message}`)
        throw new InvalidArgumentError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
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

/** `--mode <mode>` (env `FAKELAB_MODE`, default `replay`), ready for `.addOption()`. */
export function modeOption(): Option {
  return new Option('--mode <mode>', 'with --replay: replay (miss = 501 diagnostic), lockdown (misses fail the run) or hybrid (misses go to the scenario)')
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
    cassettes: options.replay ?? [],
    simulator,
    port: options.port,
    host: options.host,
    onExchange: (exchange) => {
      if (exchange.source === 'miss' && exchange.miss) process.stderr.write(`[fakelab] replay miss: ${exchange.miss.message}\n`)
      onExchange?.(exchange)
    },
  })
}
