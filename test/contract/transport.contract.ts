/**
 * What the doors and the engine answer before any handler: malformed bodies, malformed strings,
 * request heads node refuses, paths MSW's matcher used to trip on, wrong methods and token scopes.
 * Regression tests for issue 6 (defects 1, 5, 7 and 8) and issue 17 (items 1 and 3), each with
 * exact status, body and headers on both doors. Sources: gitlab-behaviour.md §0, §1.2, §1.5;
 * gitlab: lib/gitlab/middleware/handle_malformed_strings.rb; grape: lib/grape/request.rb (grape#2161).
 */
import net from 'node:net'
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../support/contract.js'

/** Headers the transport adds (node:http) or leaves out (MSW); everything else must match exactly. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

function headersOf(res: ApiResponse): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of res.headers) if (!TRANSPORT_HEADERS.has(name)) out[name] = value
  return out
}

const REQUEST_ID = expect.stringMatching(/^01FAKELAB\d{17}$/)
/** The headers of every JSON answer from the API. */
const API_HEADERS = {
  'cache-control': 'max-age=0, private, must-revalidate',
  'content-type': 'application/json',
  vary: 'Origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'x-request-id': REQUEST_ID,
}
/** GitLab's HandleMalformedStrings answer comes from Rack, in front of the API: plain text, no API headers. */
const MALFORMED = { status: 400, text: 'Bad Request', headers: { 'content-type': 'text/plain', 'x-request-id': REQUEST_ID } }

function answer(res: ApiResponse) {
  return { status: res.status, text: res.text, headers: headersOf(res) }
}

contract('malformed multipart bodies (issue 6, defect 1)', {}, ({ api, sim }) => {
  // Rack raises EOFError on a multipart body without its boundary; Grape (1.5.3+, grape#2161)
  // answers EmptyMessageBody, and params are read before any `before` block, so before auth.
  // GitLab 13.x's Grape 1.4 answered 500, which fakelab never reproduces (gitlab-behaviour.md §0).
  it.each([['a member', 'glpat-olive-fakelab'], ['an unknown token', 'nope']])('answers 400 before authentication, for %s', async (_who, token) => {
    const labels = sim().db.tables.labels.all().length
    const res = await api.post('/projects/20/labels', {
      token,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      rawBody: 'junk',
    })
    expect(answer(res)).toEqual({
      status: 400,
      text: '{"error":"Empty message body supplied with multipart/form-data; boundary=x content-type"}',
      headers: API_HEADERS,
    })
    expect(sim().db.tables.labels.all()).toHaveLength(labels)
  })

  it('reads a multipart content type without a boundary as a form, as Rack falls back to', async () => {
    const res = await api.post('/projects/20/labels', {
      as: 'max',
      headers: { 'content-type': 'multipart/form-data' },
      rawBody: 'name=from-form&color=red',
    })
    expect([res.status, res.body.name, res.body.color]).toEqual([201, 'from-form', '#FF0000'])
  })
})

contract('malformed strings (issue 6, defects 5 and 8)', {}, ({ api, sim }) => {
  // gitlab: lib/gitlab/middleware/handle_malformed_strings.rb checks the path, the credentials and
  // every parameter (query, form and JSON bodies) before routing. MSW used to throw in its own path
  // matcher on the malformed escapes and answer 500 with a stack trace (defect 5).
  it.each([
    ['a NUL byte in the query', '/projects?search=%00', {}],
    ['invalid UTF-8 in the query', '/projects?search=%C3%28', {}],
    ['a bad escape in the query', '/projects?search=%ZZ', {}],
    ['a NUL byte in a nested query value', '/projects?search[a]=%00', {}],
    ['a NUL byte in an array value', '/projects?search[]=%00', {}],
    ['a bad escape in the path', '/projects/%ZZ', {}],
    ['a lone % in the path', '/projects/%', {}],
    ['a Latin-1 byte in the path', '/projects/%E9', {}],
    ['an encoded surrogate in the path', '/projects/%ED%A0%80/labels', {}],
    ['a NUL byte in the path', '/projects/20/labels/%00', {}],
    ['a bad escape on an unknown path', '/nope/%ZZ', {}],
    ['invalid UTF-8 in the credentials', '/user', { headers: { Authorization: 'Bearer \u00e9' } }],
    ['a NUL byte in Basic credentials', '/user', { headers: { Authorization: `Basic ${btoa('root:\u0000')}` } }],
  ])('answers 400 Bad Request for %s', async (_title, path, options) => {
    const res = await api.get(path, { as: 'root', ...options })
    expect(answer(res)).toEqual(MALFORMED)
  })

  it.each([
    ['a JSON body with a NUL byte', { body: { name: 'nul\u0000', color: 'red' } }],
    ['a form body with invalid UTF-8', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'name=bad%C3%28&color=red' }],
    ['a form body with a bad escape', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'name=bad%&color=red' }],
    ['a JSON body that is not UTF-8', { headers: { 'content-type': 'application/json' }, rawBody: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) }],
  ])('answers 400 Bad Request for %s, changing nothing', async (_title, options) => {
    const labels = sim().db.tables.labels.all().length
    const res = await api.post('/projects/20/labels', { as: 'max', ...options })
    expect(answer(res)).toEqual(MALFORMED)
    expect(sim().db.tables.labels.all()).toHaveLength(labels)
  })

  it('answers HEAD with the same status and headers and no body', async () => {
    const res = await api.request('HEAD', '/projects?search=%00', { as: 'root' })
    expect(answer(res)).toEqual({ ...MALFORMED, text: '' })
  })

  it('looks no deeper than the middleware does: a NUL three levels down passes', async () => {
    const res = await api.get('/projects?x[a][b][c]=%00', { as: 'root' })
    expect(res.status).toBe(200)
  })

  it('accepts valid UTF-8 everywhere', async () => {
    const res = await api.get('/projects?search=%E2%82%AC', { as: 'root' })
    expect([res.status, res.body]).toEqual([200, []])
  })
})

contract('JSON nested deeper than GitLab\'s parser allows (issue 23, item 16)', {}, ({ api, sim }) => {
  // Ruby's JSON parser refuses nesting over `max_nesting` (100; the top-level object is level 1)
  // with `JSON::NestingError`, a `JSON::ParserError`: the answer is the one for any unparsable JSON
  // body, given after routing and before authentication, in time linear in the body.
  const nested = (depth: number, open: string) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`
  const refused = { status: 400, text: '{"error":"The provided request body is not valid JSON"}', headers: API_HEADERS }

  it.each([
    ['POST', '/projects/20/labels', 'max', 101, '['],
    ['POST', '/projects/20/labels', 'max', 200_000, '['],
    ['PUT', '/projects/20/labels/110', 'max', 200_000, '{"a":'],
    ['POST', '/groups/10/milestones', 'root', 5_000, '['],
    ['POST', '/projects/20/labels', undefined, 200_000, '{"a":'],
  ])('%s %s as %s, %i levels deep: 400 as for any JSON the parser refuses', async (method, path, as, depth, open) => {
    const labels = sim().db.tables.labels.all().length
    const started = performance.now()
    const res = await api.request(method, path, { as, headers: { 'content-type': 'application/json' }, rawBody: `{"name":"deep","color":"red","extra":${nested(depth - 1, open)}}` })
    expect(answer(res)).toEqual(refused)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(sim().db.tables.labels.all()).toHaveLength(labels)
  })

  it('accepts nesting up to 100 levels, as GitLab does', async () => {
    const res = await api.post('/projects/20/labels', { as: 'max', headers: { 'content-type': 'application/json' }, rawBody: `{"name":"deep","color":"red","extra":${nested(99, '[')}}` })
    expect([res.status, res.body.name]).toEqual([201, 'deep'])
  })
})

contract('paths at the edge of the API (issue 6, defect 5)', {}, ({ api }) => {
  // Both doors answer everything at and below /api/v4 (MSW had no handler for /api/v4 itself).
  it.each([
    ['/api/v4', 404, '{"error":"404 Not Found"}'],
    ['/api/v4/', 404, '{"error":"404 Not Found"}'],
    ['/api/v3', 410, '{"error":"API V3 is no longer supported. Use API V4 instead."}'],
  ])('GET %s → %i', async (path, status, text) => {
    const res = await api.get(path, { as: 'root' })
    // A path under /api/v4/ that no route answers is marked as fakelab's miss (issue 25 item 8).
    const headers = path === '/api/v4/' ? { ...API_HEADERS, 'x-fakelab-unsimulated': 'true' } : API_HEADERS
    expect(answer(res)).toEqual({ status, text, headers })
  })
})

contract('wrong method on an existing path (issue 17, item 1)', {}, ({ api }) => {
  // gitlab-behaviour.md §1.2 "Wrong method on an existing path" (corrected 2026-11-23): Grape tries
  // GitLab's `route :any, '*path'` before its 405, so /api/v4 answers the catch-all 404, no Allow.
  it.each([['PATCH', '/projects/20/labels'], ['POST', '/projects/20/labels/110'], ['DELETE', '/user'], ['PUT', '/groups/10/milestones']])(
    '%s %s → 404 {"error":"404 Not Found"}',
    async (method, path) => {
      const res = await api.request(method, path, { as: 'root' })
      // No fakelab route answered, so the miss is marked (issue 25 item 8), as any unsimulated one.
      expect(answer(res)).toEqual({ status: 404, text: '{"error":"404 Not Found"}', headers: { ...API_HEADERS, 'x-fakelab-unsimulated': 'true' } })
    },
  )
})

contract('insufficient_scope names every registered scope (issue 17, item 3)', {}, ({ api, sim }) => {
  // gitlab-behaviour.md §1.5 (corrected 2026-11-23): `scope` lists every scope registered for the
  // endpoint in registration order (api, read_api, then the endpoint's own), whatever the method.
  const refusal = (scope: string) => ({
    status: 403,
    text: JSON.stringify({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope,
    }),
    headers: {
      ...API_HEADERS,
      'www-authenticate': `Bearer realm="The API", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="${scope}"`,
    },
  })

  it.each([
    ['POST', '/projects/20/labels', { body: { name: 'x', color: 'red' } }],
    ['PUT', '/projects/20/labels/110', { body: { color: 'red' } }],
    ['DELETE', '/projects/20/labels/110', {}],
    ['POST', '/groups/10/milestones', { body: { title: 'x' } }],
    ['DELETE', '/projects/20/freeze_periods/300', {}],
  ])('refuses a read_api token on %s %s with scope "api read_api"', async (method, path, options) => {
    const res = await api.request(method, path, { token: 'glpat-devon-readonly', ...options })
    expect(answer(res)).toEqual(refusal('api read_api'))
  })

  it.each([
    ['/projects/20', 'api read_api'],
    ['/user', 'api read_api read_user'],
    ['/users/4', 'api read_api read_user'],
  ])('names the endpoint\'s own scopes after api and read_api: GET %s', async (path, scope) => {
    sim().db.tables.personal_access_tokens.insert({
      user_id: 4, name: 'repository', token: 'glpat-devon-repository', scopes: ['read_repository'], revoked: false,
      expires_at: null, impersonation: false, created_at: '2021-04-01T00:00:00.000Z', last_used_at: null,
    })
    const res = await api.get(path, { token: 'glpat-devon-repository' })
    expect(answer(res)).toEqual(refusal(scope))
  })
})

/** Writes `head` to the node door's socket and reads the whole answer (the server closes it). */
function rawExchange(baseUrl: string, head: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
    socket.write(Buffer.from(head, 'latin1'))
  })
}

function jsonAnswer(status: string, body: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
}

contract('request heads node refuses (issue 6, defect 7)', {}, ({ api, transport }) => {
  const head = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: gitlab.test\r\n${extra}Connection: close\r\n\r\n`
  const badRequest = jsonAnswer('400 Bad Request', '{"error":"400 Bad Request"}')
  const tooLong = jsonAnswer('414 URI Too Long', '{"error":"414 Request-URI Too Large"}')

  // Skipped on MSW: a Fetch client cannot send these heads, and MSW never parses one.
  it.skipIf(transport === 'msw').each([
    ['a raw space in the path', head('/api/v4/proj ects'), badRequest],
    ['a raw non-ASCII byte in the path', head('/api/v4/proj\u00e9cts'), badRequest],
    ['a control byte in the path', head('/api/v4/proj\u0001ects'), badRequest],
    ['a malformed request line', 'GARBAGE\r\n\r\n', badRequest],
    ['headers over the 16 KiB head limit', head('/api/v4/projects', `X-Big: ${'y'.repeat(17 * 1024)}\r\n`), badRequest],
    ['a query over the head limit', head(`/api/v4/projects?search=${'x'.repeat(17 * 1024)}`), tooLong],
    ['a path over the head limit', head(`/api/v4/projects/${'x'.repeat(17 * 1024)}`), tooLong],
  ])('answers %s with JSON and closes the connection', async (_title, request, expected) => {
    expect(await rawExchange(api.baseUrl, request)).toBe(expected)
  })

  it('answers 414 for a query between 10 KiB and the head limit, on both doors', async () => {
    const res = await api.get('/projects', { as: 'root', query: { search: 'x'.repeat(15 * 1024) } })
    expect(answer(res)).toEqual({ status: 414, text: '{"error":"414 Request-URI Too Large"}', headers: API_HEADERS })
  })
})

/**
 * A keep-alive connection to the node door: writes each request after the last answer is read
 * whole (by its `Content-Length`, none after a `HEAD`) and gives back each answer's exact bytes;
 * what arrives after the last one (a body a `HEAD` answer should not have had) is the last string.
 */
function keepAliveExchange(baseUrl: string, requests: { head: string; isHead: boolean }[]): Promise<string[]> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname)
    const answers: string[] = []
    let buffer = Buffer.alloc(0)
    let next = 0
    const send = () => socket.write(Buffer.from(requests[next]!.head, 'latin1'))
    const finish = () => resolve([...answers, buffer.toString('latin1')])
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = buffer.toString('latin1', 0, end + 4)
      const length = requests[next]!.isHead ? 0 : Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
      if (buffer.length < end + 4 + length) return
      answers.push(buffer.toString('latin1', 0, end + 4 + length))
      buffer = buffer.subarray(end + 4 + length)
      next += 1
      if (next < requests.length) send()
      // Give a body the answer should not have had time to arrive, then end.
      else setTimeout(() => socket.end(), 100)
    })
    socket.on('end', finish)
    socket.on('close', finish)
    socket.on('error', reject)
    send()
  })
}

contract('HEAD answers carry no body (issue 23, item 17)', {}, ({ api, transport }) => {
  const request = (method: string, target: string, extra = '') => ({
    head: `${method} ${target} HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-root-fakelab\r\n${extra}\r\n`,
    isHead: method === 'HEAD',
  })
  const first = request('GET', '/api/v4/version')

  // Skipped on MSW: a Fetch client cannot send these heads, and MSW never parses one.
  it.skipIf(transport === 'msw').each([
    ['a raw space in the path', request('HEAD', '/api/v4/proj ects'), '400 Bad Request', '{"error":"400 Bad Request"}'],
    ['headers over the 16 KiB head limit', request('HEAD', '/api/v4/projects', `X-Big: ${'y'.repeat(17 * 1024)}\r\n`), '400 Bad Request', '{"error":"400 Bad Request"}'],
    ['a path over the head limit', request('HEAD', `/api/v4/projects/${'x'.repeat(17 * 1024)}`), '414 URI Too Long', '{"error":"414 Request-URI Too Large"}'],
  ])('answers a HEAD with %s, after a kept-alive GET, with the head of the GET answer and no body', async (_title, head, status, body) => {
    const [version, refused, after] = await keepAliveExchange(api.baseUrl, [first, head])
    expect(version).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(refused).toBe(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)
    expect(after).toBe('')
  })

  it.skipIf(transport === 'msw')('answers a HEAD with a Host no URL can have without a body, and the connection goes on', async () => {
    const badHost = { head: 'HEAD /api/v4/version HTTP/1.1\r\nHost: [bad\r\n\r\n', isHead: true }
    const [refused, version, after] = await keepAliveExchange(api.baseUrl, [badHost, first])
    expect(refused).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(refused).toMatch(/\r\n\r\n$/)
    expect(version).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"version":/)
    expect(after).toBe('')
  })

  it.each([
    ['a malformed escape in the path', '/projects/%ZZ', 400],
    ['a query over 10 KiB', `/projects?search=${'x'.repeat(11 * 1024)}`, 414],
    ['an unknown path', '/nope', 404],
  ])('answers a HEAD with %s with no body, on both doors', async (_title, path, status) => {
    const res = await api.request('HEAD', path, { as: 'root' })
    expect([res.status, res.text]).toEqual([status, ''])
  })
})

contract('a backslash in the request target (issue 40)', {}, ({ api, transport }) => {
  const head = (target: string) => `GET ${target} HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-max-fakelab\r\nConnection: close\r\n\r\n`
  const statusAndBody = (raw: string) => [raw.slice(0, raw.indexOf('\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)]

  // Puma and Rack keep `\` a character of the path: no GitLab route has it, so the catch-all
  // answers. The WHATWG URL parser (what a Fetch client sends, and what the node door used) reads it as `/`.
  it.skipIf(transport === 'msw')('answers a raw backslash path with the catch-all 404, not the route its slashes would name', async () => {
    expect(statusAndBody(await rawExchange(api.baseUrl, head('/api/v4/projects\\acme%2Fwebsite\\labels')))).toEqual(['HTTP/1.1 404 Not Found', '{"error":"404 Not Found"}'])
    // Here `:id` takes the backslash: no project has the path acme/website\labels.
    expect(statusAndBody(await rawExchange(api.baseUrl, head('/api/v4/projects/acme%2Fwebsite\\labels')))).toEqual(['HTTP/1.1 404 Not Found', '{"message":"404 Project Not Found"}'])
    const [status] = statusAndBody(await rawExchange(api.baseUrl, head('/api/v4/projects/acme%2Fwebsite/labels')))
    expect(status).toBe('HTTP/1.1 200 OK')
  })

  it('answers an encoded backslash (%5C) in the path with the catch-all 404 on both doors', async () => {
    const res = await api.get('/projects%5Cacme%2Fwebsite%5Clabels', { as: 'max' })
    expect([res.status, res.body]).toEqual([404, { error: '404 Not Found' }])
    expect((await api.get('/projects/acme%2Fwebsite/labels', { as: 'max' })).status).toBe(200)
  })
})
