/**
 * Reply builders used by handlers: `ok`, `created`, `noContent`, `paginated`.
 * Status conventions follow Grape: GET/PUT 200, POST 201, DELETE 204 (gitlab-behaviour.md §1.6).
 * @module
 */
import { paginate, type PageParams } from './pagination.js'
import type { Ctx, Reply } from './route.js'

/** 200 with a JSON body. */
export function ok(body: unknown, headers?: Record<string, string>): Reply {
  return { status: 200, body, headers }
}

/** 201 with a JSON body (Grape's default for POST). */
export function created(body: unknown): Reply {
  return { status: 201, body }
}

/** 204 with no body. */
export function noContent(): Reply {
  return { status: 204 }
}

/** 202 `{"message":"202 Accepted"}` (`accepted!`). */
export function acceptedReply(): Reply {
  return { status: 202, body: { message: '202 Accepted' } }
}

/**
 * 200 with one page of `rows` presented by `present`, and the pagination headers.
 * Only the page's rows are presented, so a 100,000-row list costs one page of entity work.
 */
export function paginated<T>(ctx: Ctx<PageParams>, rows: readonly T[], present: (row: T) => unknown): Reply {
  const page = paginate(ctx, rows)
  return { status: 200, body: page.rows.map(present), headers: page.headers }
}
