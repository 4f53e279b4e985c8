/**
 * Offset and keyset pagination with GitLab's headers. Source: gitlab-behaviour.md §1.7 and §1.8
 * (gitlabhq:lib/gitlab/pagination/offset_pagination.rb, keyset/*), api-spec.md "Limits".
 * @module
 */
import qs from 'qs'
import { assignParams, p, type RawParams } from './params.js'
import type { Ctx } from './route.js'

/** Kaminari's `default_per_page`. */
const DEFAULT_PER_PAGE = 20
/** Kaminari's `max_per_page`. */
const MAX_PER_PAGE = 100
/** Above this many rows GitLab stops counting: no `X-Total`, `X-Total-Pages` or `rel="last"`. */
const MAX_COUNT = 10_000

/**
 * The params every paginated route declares (`use :pagination`). `per_page=0` is refused with
 * `per_page has a value not allowed` as later GitLab does (13.x answered 500).
 * spec-gap: neither the spec nor 13.x gives a usable answer (gitlab-behaviour.md §14 item 17), and
 * fakelab never answers 500, so the later GitLab's 400 is the one a user expects.
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

/** Keys `localeCompare` orders as their code units do: lower-case letters and `_` only (`_` first). */
const CODE_UNIT_ORDER = /^[a-z_]*$/

/**
 * `a.localeCompare(b)`, without ICU for the usual param names (lower-case letters and `_`, which
 * the root collation orders as their code units: checked over random keys in
 * test/unit/pagination.test.ts). The first `localeCompare` of a process loads ICU's collator
 * (about 9 ms of a cold start's first list), and every call costs more than comparing code units.
 */
function compareKeys(a: string, b: string): number {
  if (CODE_UNIT_ORDER.test(a) && CODE_UNIT_ORDER.test(b)) return a < b ? -1 : a > b ? 1 : 0
  return a.localeCompare(b)
}

const QS_STRINGIFY = {
  arrayFormat: 'brackets',
  // spec-gap: Rails sorts the serialised `key=value` pairs bytewise; this sorts keys with
  // localeCompare. They differ only for keys that differ in case or punctuation order.
  sort: compareKeys,
  format: 'RFC1738',
} as const

/** Params without undefined values and uploaded files, `null` as an empty value. */
function plainParams(params: RawParams): RawParams {
  const plain: RawParams = {}
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || (typeof Blob !== 'undefined' && value instanceof Blob)) continue
    plain[key] = value === null ? '' : value
  }
  return plain
}

/** Characters qs leaves as they are in RFC 1738 format (its `utils.encode`). */
const QS_PLAIN = /^[A-Za-z0-9\-._~()]*$/
/** Characters `encodeURIComponent` keeps but qs percent-encodes. */
const QS_EXTRA: Record<string, string> = { '!': '%21', "'": '%27', '*': '%2A' }

/**
 * qs's RFC 1738 encoding of one key or value, without qs: `encodeURIComponent` plus the three
 * characters it keeps and qs does not, spaces as `+`. Undefined for a lone surrogate (which
 * `encodeURIComponent` refuses), left to qs.
 */
function encodeLikeQs(text: string): string | undefined {
  if (QS_PLAIN.test(text)) return text
  try {
    return encodeURIComponent(text).replace(/[!'*]/g, (c) => QS_EXTRA[c]!).replaceAll('%20', '+')
  } catch {
    return undefined
  }
}

/** One top-level param as `to_query` pieces (several for arrays and hashes; `''` for none). */
function pieces(key: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const name = encodeLikeQs(key)
    const text = encodeLikeQs(String(value))
    if (name !== undefined && text !== undefined) return `${name}=${text}`
  }
  // Arrays, hashes and rare strings: qs itself, whose output for one key does not depend on the others.
  return qs.stringify({ [key]: value }, QS_STRINGIFY)
}

/** The pieces of every param, keys sorted as qs sorts them, joined with `&`. */
function serialise(params: RawParams): string {
  const keys = Object.keys(params).sort(QS_STRINGIFY.sort)
  let out = ''
  for (const key of keys) {
    const piece = pieces(key, params[key])
    if (piece !== '') out = out === '' ? piece : `${out}&${piece}`
  }
  return out
}

/**
 * Serialises params like Rails `to_query`: keys sorted, arrays as `key[]=v`, hashes as
 * `key[sub]=v`, spaces as `+`. Uploaded files are left out. Byte for byte what
 * `qs.stringify(params, { arrayFormat: 'brackets', sort, format: 'RFC1738' })` gives; plain values
 * skip qs, which builds a string per character.
 */
export function toQuery(params: RawParams): string {
  return serialise(plainParams(params))
}

/**
 * {@link toQuery} of `params` plus one `page` param, serialised once: returns a function giving
 * the query for any page number without serialising the rest again. The result is byte for byte
 * `toQuery({ ...params, page: String(n) })`: the keys that sort before `page` and those after are
 * serialised apart and joined around it.
 */
export function pageQuery(params: RawParams): (page: number) => string {
  const before: RawParams = {}
  const after: RawParams = {}
  for (const [key, value] of Object.entries(plainParams(params))) {
    if (key === 'page') continue
    const side = QS_STRINGIFY.sort(key, 'page') < 0 ? before : after
    side[key] = value
  }
  const head = serialise(before)
  const tail = serialise(after)
  const prefix = head === '' ? 'page=' : `${head}&page=`
  const suffix = tail === '' ? '' : `&${tail}`
  return (page) => `${prefix}${page}${suffix}`
}

/** The absolute URL of this request's path with a query string. */
function pageUrl(ctx: Ctx<unknown>, query: string): string {
  return `${ctx.baseUrl}${ctx.request.path}?${query}`
}

/**
 * Cuts one page from `rows` (already filtered and sorted) and builds GitLab's offset headers:
 * `X-Per-Page`, `X-Page`, `X-Next-Page`, `X-Prev-Page` (empty string when none), `Link` (rels in the
 * order prev, next, first, last, absolute URLs carrying every param), `X-Total`, `X-Total-Pages`
 * (at least 1; both omitted, with `rel="last"`, over {@link MAX_COUNT} rows).
 * `page` below 1 reads as 1; `per_page` above 100 is capped, a negative one reads as 20.
 */
export function paginate<T>(ctx: Ctx<PageParams>, rows: readonly T[]): Page<T> {
  return paginateList(ctx, rows.length, (start, end) => rows.slice(start, end))
}

/**
 * {@link paginate} of a list given by its length `total` and a reader of its rows from `start` to
 * `end - 1` (called once, for the page's rows only; fewer past the end), so that a finder that can
 * count its matches without materialising them (a big store's bit sets) costs the page.
 */
export function paginateList<T>(ctx: Ctx<PageParams>, total: number, slice: (start: number, end: number) => T[]): Page<T> {
  const requestedPerPage = ctx.params.per_page
  const perPage = requestedPerPage < 0 ? DEFAULT_PER_PAGE : Math.min(requestedPerPage, MAX_PER_PAGE)
  const page = ctx.params.page < 1 ? 1 : ctx.params.page
  const counted = total <= MAX_COUNT
  const totalPages = Math.max(1, Math.ceil(total / perPage))
  const start = (page - 1) * perPage
  const rows = start < total ? slice(start, start + perPage) : []
  const outOfRange = page > totalPages
  const next = !outOfRange && start + perPage < total ? page + 1 : null
  const prev = !outOfRange && page > 1 ? page - 1 : null

  // GitLab rebuilds each URL from every param with `page` replaced and `per_page` as requested;
  // only `page` differs between the rels, so the rest is serialised once.
  const params = assignParams({}, ctx.raw)
  params.per_page = String(ctx.raw.per_page ?? requestedPerPage)
  const query = pageQuery(params)
  const link = (n: number, rel: string) => `<${pageUrl(ctx, query(n))}>; rel="${rel}"`
  const links: string[] = []
  if (prev !== null) links.push(link(prev, 'prev'))
  if (next !== null) links.push(link(next, 'next'))
  links.push(link(1, 'first'))
  if (counted) links.push(link(totalPages, 'last'))

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
  return { rows, headers }
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
    const params = assignParams({}, ctx.raw)
    delete params.id_after
    delete params.id_before
    params[sort === 'asc' ? 'id_after' : 'id_before'] = String(last.id)
    const link = `<${pageUrl(ctx, toQuery(params))}>; rel="next"`
    headers.link = link
    headers.links = link
  }
  return { rows: slice, headers }
}
