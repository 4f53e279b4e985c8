/**
 * How `fakelab serve` writes its request log (issue 27 item 2, issue 39 item 3): batched, and
 * written asynchronously, off the request's path.
 *
 * - **Batched.** A request only encodes its line into the batch's buffer; the lines that come
 *   within {@link FLUSH_AFTER_MS} go out together, or at once when {@link BATCH_BYTES} are waiting
 *   (one `write` per request cost a system call per request: the logged server answered 0.61 of
 *   the unlogged one's first requests).
 * - **Asynchronous.** A batch goes to the file descriptor with `fs.write` on libuv's thread pool
 *   ({@link FdLogWriter}), one at a time and in order, so a reader that does not keep up (a full
 *   pipe, a slow terminal) never holds up an answer. `process.stdout` would write synchronously on
 *   Linux to a file or a pipe (Node's documented behaviour).
 * - **Bounded.** While a write waits on a reader that does not read, at most
 *   {@link MAX_QUEUED_BYTES} wait behind it; lines past that are counted, not kept, and the count
 *   is told on stderr when the next write starts (the journal, `GET /-/fakelab/journal`, still has them).
 * - **Nothing lost at a stop.** On SIGINT or SIGTERM `serve` closes its server and lets the event
 *   loop empty (`cli/signals.ts`): the batch's timer and a write in progress keep it alive until
 *   the last line is written. In the `exit` event (`process.exit`, any other way out) what waits is
 *   written synchronously; a write the thread pool is doing at that moment cannot be waited for,
 *   so on such an exit it and the lines after it may land in either order.
 * What the lines say is `serve.ts`'s business (`logLine`); this module only decides when and how
 * they are written.
 * @module
 */
import { write as fsWrite, writeSync } from 'node:fs'

/**
 * How long a line may wait to be written, in milliseconds: a write to a file costs about as much as
 * answering a request (measured: 70 µs CPU on the shared machine), so under load one write should
 * carry many requests' lines, and a person watching the log sees no delay.
 */
const FLUSH_AFTER_MS = 10
/**
 * The bytes of one batch at most: its lines are encoded into a buffer of this size as they come,
 * and it is handed to the writer when it is full (bounds a burst). The lines' text is not kept on
 * V8's heap while it waits: a string holding 10 ms of lines lives through the scavenges of that
 * time, which copy it, where a line's string encoded at once dies young.
 */
const BATCH_BYTES = 16 * 1024
/**
 * Bytes the {@link FdLogWriter} keeps queued behind a write in progress, at most: 4 MiB, about
 * 16,000 JSON lines, which a reader that reads at all takes in well under a second.
 */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024
/** How long to wait before retrying a write the descriptor refused for now (`EAGAIN`), in ms. */
const RETRY_AFTER_MS = 1
/** The byte `\n`. */
const NEWLINE = 10

/** Where the lines go: an {@link FdLogWriter}, or anything with its `write` (tests, benchmarks). */
export interface LogStream {
  /** Takes whole lines of UTF-8; the buffer is the stream's from then on. */
  write(chunk: Buffer): unknown
  /** Writes what is queued synchronously (the `exit` event). */
  flushSync?(): void
}

/**
 * An asynchronous, ordered writer to a file descriptor: one `fs.write` at a time, the buffers handed
 * in while it runs queued behind it (up to {@link MAX_QUEUED_BYTES}) and written next as one.
 * A partial write continues with the rest; `EAGAIN` (a non-blocking pipe that is full) is retried
 * after {@link RETRY_AFTER_MS}; any other error (`EPIPE`: the reader went away) stops the writer,
 * says so once on stderr, and drops what it had (the server goes on answering).
 */
export class FdLogWriter implements LogStream {
  readonly #fd: number
  readonly #stderr: (text: string) => void
  /** The buffers handed in and not yet being written, in order. */
  #queue: Buffer[] = []
  #queuedBytes = 0
  /** What the write in progress still has to write; undefined when none is. */
  #writing: Buffer | undefined
  /** Lines dropped since the last notice. */
  #dropped = 0
  #failed = false

  /**
   * @param fd an open file descriptor (1 for stdout), written from wherever its offset is.
   * @param stderr where the writer's own notices go (default: `process.stderr`).
   */
  constructor(fd: number, stderr: (text: string) => void = (text) => void process.stderr.write(text)) {
    this.#fd = fd
    this.#stderr = stderr
  }

  write(chunk: Buffer): void {
    if (this.#failed || chunk.length === 0) return
    if (this.#writing !== undefined && this.#queuedBytes + chunk.length > MAX_QUEUED_BYTES) {
      this.#dropped += countLines(chunk)
      return
    }
    this.#queue.push(chunk)
    this.#queuedBytes += chunk.length
    if (this.#writing === undefined) this.#next()
  }

  flushSync(): void {
    if (this.#failed) return
    // A write in progress is the thread pool's; what waits behind it goes out after it.
    let buffer = this.#take()
    while (buffer.length > 0) {
      try {
        buffer = buffer.subarray(writeSync(this.#fd, buffer))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_AFTER_MS)
      }
    }
  }

  /** The queued buffers as one, the queue emptied. */
  #take(): Buffer {
    const buffer = this.#queue.length === 1 ? this.#queue[0]! : Buffer.concat(this.#queue, this.#queuedBytes)
    this.#queue = []
    this.#queuedBytes = 0
    return buffer
  }

  /** Says what was dropped, if anything, then starts writing what is queued, if anything. */
  #next(): void {
    if (this.#dropped > 0) {
      this.#stderr(`[fakelab] the request log dropped ${this.#dropped} line${this.#dropped === 1 ? '' : 's'}: stdout is not keeping up (GET /-/fakelab/journal keeps the requests)\n`)
      this.#dropped = 0
    }
    if (this.#queue.length === 0) {
      this.#writing = undefined
      return
    }
    this.#writing = this.#take()
    this.#writeSome()
  }

  #writeSome(): void {
    const buffer = this.#writing!
    fsWrite(this.#fd, buffer, 0, buffer.length, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => this.#writeSome(), RETRY_AFTER_MS)
          return
        }
        this.#fail(error)
        return
      }
      if (written < buffer.length) {
        this.#writing = buffer.subarray(written)
        this.#writeSome()
      } else this.#next()
    })
  }

  #fail(error: NodeJS.ErrnoException): void {
    this.#failed = true
    this.#queue = []
    this.#queuedBytes = 0
    this.#writing = undefined
    this.#stderr(`[fakelab] the request log stopped: ${error.code ?? error.message} writing to file descriptor ${this.#fd}\n`)
  }
}

function countLines(buffer: Buffer): number {
  let n = 0
  for (let at = buffer.indexOf(NEWLINE); at !== -1; at = buffer.indexOf(NEWLINE, at + 1)) n += 1
  return n
}

/**
 * A buffered log of items (journal entries) to `stream`: each call formats its item at once and
 * encodes the text into the batch's buffer; the batch is handed to `stream.write` after
 * {@link FLUSH_AFTER_MS}, or when it is full; what waits is written on process exit
 * (`stream.flushSync` after it, when it has one).
 * @param format the item's text: whole lines, each ending in `\n`.
 * @param stream default: an {@link FdLogWriter} on stdout (file descriptor 1).
 * @returns the function to call with each item, in the order they are to appear (a journal subscriber).
 */
export function bufferedLog<T>(format: (item: T) => string, stream: LogStream = new FdLogWriter(1)): (item: T) => void {
  let batch = Buffer.allocUnsafe(BATCH_BYTES)
  let used = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (used === 0) return
    const full = batch.subarray(0, used)
    batch = Buffer.allocUnsafe(BATCH_BYTES)
    used = 0
    stream.write(full)
  }
  process.on('exit', () => {
    flush()
    stream.flushSync?.()
  })
  return (item) => {
    const text = format(item)
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (text.length * 3 > BATCH_BYTES - used) {
      flush()
      if (text.length * 3 > BATCH_BYTES) {
        stream.write(Buffer.from(text))
        return
      }
    }
    used += batch.write(text, used)
    if (timer === undefined) timer = setTimeout(flush, FLUSH_AFTER_MS)
  }
}
