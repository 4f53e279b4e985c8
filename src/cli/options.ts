/**
 * What the subcommands share about their input and messages: commander argument parsers for the
 * options several commands take (`--port`, repeatable options) and the text of a thrown value in
 * a `[fakelab]` line. Source: STYLE.md §11.
 * @module
 */
import { InvalidArgumentError } from 'commander'

/**
 * commander argument parser for `--port`: an integer in 0..65535 (0 picks a free port).
 * @throws InvalidArgumentError (commander prints it and exits 1) for anything else.
 */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : NaN
  if (!Number.isInteger(port) || port > 65_535) {
    throw new InvalidArgumentError('expected an integer from 0 to 65535 (0 picks a free port).')
  }
  return port
}

/** commander argument parser for a repeatable option (`--ignore a --ignore b`): every value, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}

/** The message of a thrown value (an `Error`'s `message`, else the value as a string), for a `[fakelab]` line. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
