/**
 * How the long-running subcommands (`serve`, `record`) stop on SIGINT or SIGTERM: their stop runs
 * once (a second signal while it runs is ignored), then the handlers are removed and the exit code
 * is 0; a stop that fails prints why and exits 2 (the commands' runtime failure). A close held up
 * by a stuck connection is cut short by {@link exitAfterGrace}. Source: STYLE.md §11.
 * @module
 */

/** A stop that takes longer than this after {@link exitAfterGrace} (a stuck connection) is cut short, in ms. */
const FORCE_EXIT_AFTER_MS = 5_000
/** The exit code of a stop that failed (the commands' `EXIT_RUNTIME`). */
const EXIT_RUNTIME = 2

/** Exits 0 in {@link FORCE_EXIT_AFTER_MS} unless the process has ended by then (the timer keeps nothing alive). */
export function exitAfterGrace(): void {
  setTimeout(() => process.exit(0), FORCE_EXIT_AFTER_MS).unref()
}

/**
 * Runs `stop` on the first SIGINT or SIGTERM, with the signal's name. When its promise resolves the
 * handlers are removed and `process.exitCode` is 0; when it rejects, `failed(error)` is written to
 * stderr as one line and the process exits 2.
 */
export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<unknown>, failed: (error: unknown) => string): void {
  let stopping = false
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return
    stopping = true
    stop(signal).then(
      () => {
        process.off('SIGINT', onSignal)
        process.off('SIGTERM', onSignal)
        process.exitCode = 0
      },
      (error: unknown) => {
        process.stderr.write(`${failed(error)}\n`)
        process.exit(EXIT_RUNTIME)
      },
    )
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}
