/**
 * node:http ⇄ Fetch: reading an `IncomingMessage` whole, as a Fetch `Request`, and writing a Fetch
 * `Response` to a `ServerResponse`. The simulator's own door does not use the Fetch half (it speaks
 * the engine's transport-neutral shapes, `server/node-server.ts`); the recorder does, because its
 * replay doors are Fetch functions shared with MSW. Source: STYLE.md §9 (mswjs/http-middleware).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** Thrown by {@link readBody} when a body is over the limit (the doors answer 413). */
class BodyTooLarge extends Error {}

/**
 * Reads a request body whole.
 * @param limit bytes; more throws {@link BodyTooLarge}.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * A node request as a Fetch `Request`: an absolute URL from the Host header, every header value
 * kept (`headersDistinct`), the body read whole (none for GET and HEAD).
 * @throws TypeError for a target or Host no URL can have; {@link BodyTooLarge} over `limit` bytes.
 */
export async function toFetchRequest(req: IncomingMessage, limit: number): Promise<Request> {
  const host = req.headers.host ?? 'localhost'
  const url = new URL(req.url ?? '/', `http://${host}`)
  const headers = new Headers()
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value)
  }
  const method = req.method ?? 'GET'
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, limit)
  return new Request(url, { method, headers, body: body && body.length > 0 ? new Uint8Array(body) : undefined })
}

/** Writes a Fetch `Response` (status, headers with each `Set-Cookie` kept apart, body). */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue
    res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader('set-cookie', cookies)
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  res.end(body)
}
