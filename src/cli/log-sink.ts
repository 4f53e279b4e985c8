/**
 * How `fakelab serve` writes its request log (issue 27, item 2): buffered, off the request's path.
 * `process.stdout` writes synchronously on Linux when it is a file or a pipe (Node's documented
 * behaviour), so one `write` per request cost a system call per request, inside the request's own
 * turn of the event loop (measured: the logged server answered 0.61 of the unlogged one's
 * first requests; in process, 70 µs CPU per request against 60 µs for the request itself). Here a
 * request only appends its line to a string; the lines that come within {@link FLUSH_AFTER_MS} are
 * written together with one `write` from a timer, or at once when {@link MAX_PENDING_CHARS} are waiting. What is still
 * waiting when the process exits (a signal's stop, `process.exit`) is written in the `exit` event,
 * where `process.stdout` is still writable synchronously.
 * What the lines say is `serve.ts`'s business (`logLine`); this module only decides when they are written.
 * @module
 */

/**
 * How long a line may wait to be written, in milliseconds: a write to a file costs about as much as
 * answering a request (measured: 70 µs CPU on the shared machine), so under load one write should
 * carry many requests' lines, and a person watching the log sees no delay.
 */
const FLUSH_AFTER_MS = 10
/** Characters kept waiting at most before they are written at once (bounds memory under a burst). */
const MAX_PENDING_CHARS = 64 * 1024

/** Where the lines go: `process.stdout`, or anything with its `write`. */
export interface LogStream {
  write(chunk: string): unknown
}

/**
 * A buffered log of items (journal entries) to `stream`: each call formats its item at once and
 * appends the text; what came within {@link FLUSH_AFTER_MS} is written with one `stream.write`;
 * what waits is written on process exit.
 * @param format the item's text: whole lines, each ending in `\n`.
 * @param stream default `process.stdout`.
 * @returns the function to call with each item, in the order they are to appear (a journal subscriber).
 */
export function bufferedLog<T>(format: (item: T) => string, stream: LogStream = process.stdout): (item: T) => void {
  let pending = ''
  let scheduled = false
  const flush = (): void => {
    scheduled = false
    if (pending === '') return
    const text = pending
    pending = ''
    stream.write(text)
  }
  process.on('exit', flush)
  return (item) => {
    pending += format(item)
    if (pending.length >= MAX_PENDING_CHARS) flush()
    else if (!scheduled) {
      scheduled = true
      setTimeout(flush, FLUSH_AFTER_MS)
    }
  }
}
