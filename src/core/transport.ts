/**
 * The engine's own request and reply: small transport-neutral shapes, not undici objects.
 * Building a Fetch `Request` and `Response` (headers, body streams, abort signals) costs more than
 * most handlers cost to run, so the node:http door fills these directly from `IncomingMessage` and
 * writes them straight to `ServerResponse`; only the MSW door and `sim.handle()` convert from and
 * to Fetch, with {@link fromFetchRequest} and {@link toFetchResponse}. Source: STYLE.md §1.2, §3.
 * Browser-safe: nothing here imports `node:*`.
 * @module
 */

/** One request as the engine sees it. */
export interface CoreRequest {
  /** Upper-case method, e.g. `GET`. */
  readonly method: string
  /**
   * The path, still percent-encoded, after the URL parser's normalisation (dot segments resolved,
   * characters outside the URL code points percent-encoded), e.g. `/api/v4/projects/acme%2Fsite`.
   */
  readonly path: string
  /** The query string without `?`, still percent-encoded; `''` when there is none. */
  readonly query: string
  /** `scheme://host[:port]` as the client addressed the server (the default base URL). */
  readonly origin: string
  /**
   * A header's value by lower-case name, repeated fields joined with `", "` as Fetch's
   * `Headers.get` joins them; `undefined` when absent.
   */
  header(name: string): string | undefined
  /**
   * The body bytes, read at most once however often this is called; `undefined` when the request
   * has no body or an empty one.
   * @throws BodyTooLarge (as a rejection) when the door stopped reading a body over the simulator's
   *   limit (`Simulator.maxBodyBytes`) instead of holding all of it; the engine answers 413.
   */
  body(): Promise<Uint8Array | undefined>
}

/**
 * What a door's {@link CoreRequest.body} rejects with when it stopped reading a body longer than the
 * simulator accepts (`Simulator.maxBodyBytes`), so that nobody holds a body that is refused anyway.
 */
export class BodyTooLarge extends Error {
  constructor() {
    super('request body over the limit')
    this.name = 'BodyTooLarge'
  }
}

/** A header list in wire order: `[name, value]` pairs, names lower-case. Shared, so never changed. */
export type HeaderList = readonly (readonly [name: string, value: string])[]

/**
 * One reply as the engine produces it, ready to write: status, headers in the order the doors send
 * them (sorted by name, as Fetch `Headers` iterate), and the serialised body.
 */
export interface CoreReply {
  status: number
  headers: HeaderList
  /**
   * The body: text (JSON for API answers), or bytes (an upload a web route serves); `undefined`
   * when the reply has no body (204, 304, HEAD).
   */
  body: string | Uint8Array | undefined
  /**
   * Set when no route answered: `'path'` when nothing is registered at the path, `'method'` when
   * the path exists under other methods. Both answer GitLab's catch-all 404; this field lets a
   * request log or journal tell them apart (gitlab-behaviour.md §1.2 "Wrong method on an existing path").
   */
  routeMiss?: 'method' | 'path'
  /** Methods the path accepts, set with a `'method'` miss. */
  allowed?: readonly string[]
  /**
   * An injected transport fault (`src/core/faults.ts`): `'reset'` means drop the connection and
   * send nothing (status 0); `'malformed'` marks a body already cut short.
   */
  fault?: 'reset' | 'malformed'
}

/** A Fetch `Request` seen as a {@link CoreRequest}. A class, so requests share their methods. */
class FetchRequestView implements CoreRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly origin: string
  readonly #request: Request
  #body: Promise<Uint8Array | undefined> | undefined

  constructor(request: Request) {
    const url = new URL(request.url)
    this.method = request.method
    this.path = url.pathname
    this.query = url.search.slice(1)
    this.origin = url.origin
    this.#request = request
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined
  }

  body(): Promise<Uint8Array | undefined> {
    const request = this.#request
    return (this.#body ??= request.body
      ? request.arrayBuffer().then((buffer) => (buffer.byteLength > 0 ? new Uint8Array(buffer) : undefined))
      : Promise.resolve(undefined))
  }
}

/**
 * Reads a Fetch `Request` as a {@link CoreRequest} (MSW door, `sim.handle()`). The body is read on
 * first use only.
 * @throws TypeError when `request.url` is not an absolute URL (Fetch never gives one).
 */
export function fromFetchRequest(request: Request): CoreRequest {
  return new FetchRequestView(request)
}

/** Turns a {@link CoreReply} into a Fetch `Response` (MSW door, `sim.handle()`). */
export function toFetchResponse(reply: CoreReply): Response {
  // A dropped connection is a network error to a Fetch client (MSW passes it on as one).
  if (reply.fault === 'reset') return Response.error()
  // The DOM typings want mutable pairs and ArrayBuffer-backed bytes; Response only reads both.
  return new Response((reply.body ?? null) as BodyInit | null, { status: reply.status, headers: reply.headers as [string, string][] })
}
