/**
 * Offset and keyset pagination with GitLab's headers. Source: gitlab-behaviour.md §1.7 and §1.8
 * (gitlabhq:lib/gitlab/pagination/offset_pagination.rb, keyset/*), api-spec.md "Limits".
 * @module
 */
import qs from 'qs'
import { p, type RawParams } from './params.js'
import type { Ctx } from './route.js'

/** Kaminari's `default_per_page`. */
export const DEFAULT_PER_PAGE = 20
/** Kaminari's `max_per_page`. */
export const MAX_PER_PAGE = 100
/** Above this many rows GitLab stops counting: no `X-Total`, `X-Total-Pages` or `rel="last"`. */
export const MAX_COUNT = 10_000

/**
 * The params every paginated route declares (`use :pagination`). `per_page=0` is refused with
 * `per_page has a value not allowed` as later GitLab does (13.x answered 500).
 */
export const paginationParams = {
  page: p.integer({ default: 1 }),
  per_page: p.integer({ default: DEFAULT_PER_PAGE, exceptValues: [0] }),
}

/** The pagination params a handler has after validation. */
export interface PageParams {
  page: number
  per_page: number
}

/** One page of rows plus the headers to send with it. */
export interface Page<T> {
  rows: T[]
  headers: Record<string, string>
}

/**
 * Serialises params like Rails `to_query`: keys sorted, arrays as `key[]=v`, hashes as
 * `key[sub]=v`, spaces as `+`. Uploaded files are left out.
 */
export function toQuery(params: RawParams): string {
  const plain: RawParams = {}
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || (typeof Blob !== 'undefined' && value instanceof Blob)) continue
    plain[key] = value === null ? '' : value
  }
  return qs.stringify(plain, { arrayFormat: 'brackets', sort: (a: string, b: string) => a.localeCompare(b), format: 'RFC1738' })
}

/** The absolute URL of this request's path with a rebuilt query string. */
function pageUrl(ctx: Ctx<unknown>, params: RawParams): string {
  return `${ctx.baseUrl}${ctx.url.pathname}?${toQuery(params)}`
}

/**
 * Cuts one page from `rows` (already filtered and sorted) and builds GitLab's offset headers:
 * `X-Per-Page`, `X-Page`, `X-Next-Page`, `X-Prev-Page` (empty string when none), `Link` (rels in the
 * order prev, next, first, last, absolute URLs carrying every param), `X-Total`, `X-Total-Pages`
 * (at least 1; both omitted, with `rel="last"`, over {@link MAX_COUNT} rows).
 * `page` below 1 reads as 1; `per_page` above 100 is capped, a negative one reads as 20.
 */
export function paginate<T>(ctx: Ctx<PageParams>, rows: T[]): Page<T> {
  const requestedPerPage = ctx.params.per_page
  const perPage = requestedPerPage < 0 ? DEFAULT_PER_PAGE : Math.min(requestedPerPage, MAX_PER_PAGE)
  const page = ctx.params.page < 1 ? 1 : ctx.params.page
  const total = rows.length
  const counted = total <= MAX_COUNT
  const totalPages = Math.max(1, Math.ceil(total / perPage))
  const start = (page - 1) * perPage
  const slice = rows.slice(start, start + perPage)
  const outOfRange = page > totalPages
  const next = !outOfRange && start + perPage < total ? page + 1 : null
  const prev = !outOfRange && page > 1 ? page - 1 : null

  const linkParams = (n: number): RawParams => ({ ...ctx.raw, page: String(n), per_page: String(ctx.raw.per_page ?? requestedPerPage) })
  const links: string[] = []
  if (prev !== null) links.push(`<${pageUrl(ctx, linkParams(prev))}>; rel="prev"`)
  if (next !== null) links.push(`<${pageUrl(ctx, linkParams(next))}>; rel="next"`)
  links.push(`<${pageUrl(ctx, linkParams(1))}>; rel="first"`)
  if (counted) links.push(`<${pageUrl(ctx, linkParams(totalPages))}>; rel="last"`)

  const headers: Record<string, string> = {
    'x-per-page': String(perPage),
    'x-page': String(page),
    'x-next-page': next === null ? '' : String(next),
    'x-prev-page': prev === null ? '' : String(prev),
    link: links.join(', '),
  }
  if (counted) {
    headers['x-total'] = String(total)
    headers['x-total-pages'] = String(totalPages)
  }
  return { rows: slice, headers }
}

/**
 * Keyset pagination by `id` (projects only): rows after `id_after` / before `id_before`, and a
 * `Link: <…>; rel="next"` (plus the deprecated `Links` copy) whenever this page is not empty.
 * @param rows sorted by id in `sort` direction.
 */
export function paginateKeyset<T extends { id: number }>(
  ctx: Ctx<PageParams & { sort?: string; id_after?: number; id_before?: number }>,
  rows: T[],
  sort: 'asc' | 'desc',
): Page<T> {
  const perPage = ctx.params.per_page < 0 ? DEFAULT_PER_PAGE : Math.min(ctx.params.per_page, MAX_PER_PAGE)
  const after = ctx.params.id_after
  const before = ctx.params.id_before
  const slice: T[] = []
  for (const row of rows) {
    if (after !== undefined && row.id <= after) continue
    if (before !== undefined && row.id >= before) continue
    slice.push(row)
    if (slice.length === perPage) break
  }
  const headers: Record<string, string> = {}
  const last = slice[slice.length - 1]
  if (last) {
    const params: RawParams = { ...ctx.raw }
    delete params.id_after
    delete params.id_before
    params[sort === 'asc' ? 'id_after' : 'id_before'] = String(last.id)
    const link = `<${pageUrl(ctx, params)}>; rel="next"`
    headers.link = link
    headers.links = link
  }
  return { rows: slice, headers }
}
