/**
 * The contract smoke set run in headless Chromium (issue 12 "The same contract smoke set passes in
 * the page"): representative requests taken from the contract suites, with the answers those suites
 * assert. Requests are plain data, so they can be handed to the page; the expectations run in Node.
 * Ordered: later requests read what earlier ones wrote (create, read back, update, delete).
 */
import { BASIC } from '../support/default-labels.js'

/** One request, as both the page and the Node door send it. */
export interface SmokeRequest {
  method: string
  /** Path and query, from the origin (`/api/v4/...`). */
  path: string
  /** `PRIVATE-TOKEN`. */
  token?: string
  headers?: Record<string, string>
  /** Sent as `application/json`. */
  json?: unknown
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>
}

/** What came back: status, headers (lower-case names) and the body's exact text. */
export interface SmokeAnswer {
  status: number
  headers: Record<string, string>
  text: string
}

/** A smoke row: the request and what the contract suites say it answers. */
export interface SmokeCase {
  name: string
  request: SmokeRequest
  status: number
  /** The parsed body, exactly (`undefined` for an empty body). */
  body?: unknown
  /** Some headers, exactly; `origin` is the page's, as in `http://localhost:5173`. */
  headers?: (origin: string) => Record<string, string>
  /** Further checks on the parsed body when the whole body is too long to spell out. */
  check?: (body: any) => unknown
  /** What `check` must return. */
  checked?: unknown
}

const token = (user: string) => `glpat-${user}-fakelab`
const JSON_TYPE = { 'content-type': 'application/json' }
const label = (id: keyof typeof BASIC, subscribed = false, priority: number | null = null) =>
  ({ ...BASIC[id], subscribed, priority, is_project_label: id >= 110 })
const created = { id: 120, name: 'smoke', color: '#FF0000', description: null, description_html: '', text_color: '#FFFFFF', subscribed: false, priority: null, is_project_label: true }
const paginationLink = (origin: string, pages: [string, number][]) =>
  pages.map(([rel, page]) => `<${origin}/api/v4/projects/20/labels?id=20&include_ancestor_groups=true&page=${page}&per_page=2&with_counts=false>; rel="${rel}"`).join(', ')

/** The smoke set, in order (sources: the contract suites named in each row). */
export const SMOKE: SmokeCase[] = [
  // version.contract.ts, conventions.contract.ts
  { name: 'GET /version', request: { method: 'GET', path: '/api/v4/version', token: token('nora') }, status: 200, body: { version: '13.12.15', revision: 'f4d1fa3b1d6' }, headers: () => JSON_TYPE },
  { name: 'GET /metadata (not a 13.x route)', request: { method: 'GET', path: '/api/v4/metadata', token: token('root') }, status: 404, body: { error: '404 Not Found' } },
  { name: 'an unknown route', request: { method: 'GET', path: '/api/v4/nothing/here' }, status: 404, body: { error: '404 Not Found' } },
  { name: 'API v3', request: { method: 'GET', path: '/api/v3/projects' }, status: 410, body: { error: 'API V3 is no longer supported. Use API V4 instead.' } },
  { name: 'GET /user anonymously', request: { method: 'GET', path: '/api/v4/user' }, status: 401, body: { message: '401 Unauthorized' } },
  { name: 'GET /user', request: { method: 'GET', path: '/api/v4/user', token: token('devon') }, status: 200, check: (b) => [b.id, b.username], checked: [4, 'devon'] },
  { name: 'sudo by header', request: { method: 'GET', path: '/api/v4/user', token: token('root'), headers: { Sudo: 'devon' } }, status: 200, check: (b) => b.username, checked: 'devon' },
  { name: 'sudo by param, from a non-admin', request: { method: 'GET', path: '/api/v4/user?sudo=devon', token: token('max') }, status: 403, body: { message: '403 Forbidden - Must be admin to use sudo' } },
  { name: 'sudo with a read_api token', request: { method: 'GET', path: '/api/v4/user?sudo=devon', token: 'glpat-root-readonly' }, status: 403, body: { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'sudo' } },
  { name: 'sudo acting as the user', request: { method: 'GET', path: '/api/v4/projects/21?sudo=nora', token: token('root') }, status: 404, body: { message: '404 Project Not Found' } },
  // labels/project-labels.contract.ts
  {
    name: 'GET /projects/:id/labels',
    request: { method: 'GET', path: '/api/v4/projects/20/labels', token: token('devon') },
    status: 200,
    body: [label(100, true), label(111), label(101), label(110, false, 1), label(112, false, 0), label(102)],
    headers: () => ({ ...JSON_TYPE, 'x-page': '1', 'x-per-page': '20', 'x-total': '6', 'x-total-pages': '1' }),
  },
  {
    name: 'GET /projects/:id/labels, page 2 of 3',
    request: { method: 'GET', path: '/api/v4/projects/20/labels?per_page=2&page=2', token: token('max') },
    status: 200,
    check: (b) => b.map((l: { id: number }) => l.id),
    checked: [101, 110],
    headers: (origin) => ({
      'x-page': '2', 'x-per-page': '2', 'x-next-page': '3', 'x-prev-page': '1', 'x-total': '6', 'x-total-pages': '3',
      link: paginationLink(origin, [['prev', 1], ['next', 3], ['first', 1], ['last', 3]]),
    }),
  },
  { name: 'an invalid per_page', request: { method: 'GET', path: '/api/v4/projects/20/labels?per_page=abc', token: token('max') }, status: 400, body: { error: 'per_page is invalid' } },
  { name: 'labels of a private project, to a non-member', request: { method: 'GET', path: '/api/v4/projects/21/labels', token: token('nora') }, status: 404, body: { message: '404 Project Not Found' } },
  { name: 'a project by URL-encoded path', request: { method: 'GET', path: '/api/v4/projects/acme%2Fplatform%2Fapi', token: token('max') }, status: 200, check: (b) => [b.id, b.path_with_namespace], checked: [21, 'acme/platform/api'] },
  { name: 'create a label without a color', request: { method: 'POST', path: '/api/v4/projects/20/labels', token: token('max'), json: { name: 'x' } }, status: 400, body: { error: 'color is missing' } },
  { name: 'create a label with a bad color', request: { method: 'POST', path: '/api/v4/projects/20/labels', token: token('max'), json: { name: 'x', color: '#FFAA' } }, status: 400, body: { message: { color: ['must be a valid color code'] } } },
  { name: 'create a label as a guest', request: { method: 'POST', path: '/api/v4/projects/20/labels', token: token('gina'), json: { name: 'x', color: '#FF0000' } }, status: 403, body: { message: '403 Forbidden' } },
  {
    name: 'create a label with a read_api token',
    request: { method: 'POST', path: '/api/v4/projects/20/labels', token: 'glpat-root-readonly', json: { name: 'x', color: '#FF0000' } },
    status: 403,
    check: (b) => [b.error, b.error_description],
    checked: ['insufficient_scope', 'The request requires higher privileges than provided by the access token.'],
  },
  { name: 'create a label', request: { method: 'POST', path: '/api/v4/projects/20/labels', token: token('max'), json: { name: 'smoke', color: '#FF0000' } }, status: 201, body: created },
  { name: 'read it back', request: { method: 'GET', path: '/api/v4/projects/20/labels/smoke', token: token('devon') }, status: 200, body: created },
  { name: 'a duplicate title', request: { method: 'POST', path: '/api/v4/projects/20/labels', token: token('max'), json: { name: 'smoke', color: '#00FF00' } }, status: 409, body: { message: 'Label already exists' } },
  {
    name: 'update it with a form body',
    request: { method: 'PUT', path: '/api/v4/projects/20/labels/smoke', token: token('max'), form: { new_name: 'smoke-test', description: 'From *the page*' } },
    status: 200,
    check: (b) => [b.id, b.name, b.description, b.description_html],
    checked: [120, 'smoke-test', 'From *the page*', 'From *the page*'], // the single-line pipeline renders no Markdown
  },
  { name: 'delete it', request: { method: 'DELETE', path: '/api/v4/projects/20/labels/smoke-test', token: token('max') }, status: 204, body: undefined },
  { name: 'gone', request: { method: 'GET', path: '/api/v4/projects/20/labels/smoke-test', token: token('max') }, status: 404, body: { message: '404 Label Not Found' } },
  // other areas' lists: the exact bodies are the Node door's (compared byte for byte)
  { name: 'GET /projects/:id/issues', request: { method: 'GET', path: '/api/v4/projects/20/issues?per_page=2', token: token('devon') }, status: 200, check: (b) => b.length, checked: 2 },
  { name: 'GET /groups/:id/milestones', request: { method: 'GET', path: '/api/v4/groups/10/milestones', token: token('devon') }, status: 200, check: (b) => Array.isArray(b), checked: true },
  { name: 'GET /projects/:id/members', request: { method: 'GET', path: '/api/v4/projects/20/members', token: token('devon') }, status: 200, check: (b) => Array.isArray(b), checked: true },
  { name: 'GET /runners/all', request: { method: 'GET', path: '/api/v4/runners/all', token: token('root') }, status: 200, check: (b) => Array.isArray(b), checked: true },
  { name: 'GET /todos', request: { method: 'GET', path: '/api/v4/todos', token: token('devon') }, status: 200, check: (b) => Array.isArray(b), checked: true },
]
