/**
 * The control API describes itself (issue 40 item 3): `GET /-/fakelab/openapi.json` is a valid
 * OpenAPI 3.1 document (checked with @seriousme/openapi-schema-validator) naming every control
 * route, built from the table the dispatch uses (`controlRoutes`), so what it says is what answers:
 * the read routes' bodies match the schemas it gives, and an undocumented method is the catch-all
 * 404. docs/control-api.openapi.json is the same document (rewrite it with
 * `UPDATE_OPENAPI=1 npx vitest run test/contract/control-openapi.contract.ts`).
 * `GET /-/fakelab/routes` (issue 40 item 1) serves the route table docs/coverage.md shows.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { controlOpenApi, controlRoutes } from '../../src/core/control.js'
import { routeTable } from '../../src/reference/coverage.js'
import { ROUTE_TABLE } from '../../src/resources/route-table.js'
import { contract } from '../support/contract.js'

/** fakelab's API route keys, from the static route table (src/resources/route-table.ts). */
const fakelabKeys = Object.values(ROUTE_TABLE).flatMap((area) => area.api)

const DOC_FILE = join(import.meta.dirname, '..', '..', 'docs', 'control-api.openapi.json')

type Doc = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>; components: { schemas: Record<string, object> } }

/** Checks a body against the schema a documented answer gives. */
function checkBody(doc: Doc, path: string, method: string, status: number, type: string, body: unknown): void {
  const answer = doc.paths[path]?.[method]?.responses[String(status)]
  expect(answer, `${method} ${path} documents ${status}`).toBeDefined()
  const schema = answer!.content?.[type]?.schema
  expect(schema, `${method} ${path} ${status} documents ${type}`).toBeDefined()
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const validate = ajv.compile({ ...schema, components: doc.components })
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
}

describe('the control API\'s OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator()
    const result = await validator.validate(controlOpenApi())
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('names every control route once, with its answers', () => {
    const doc = controlOpenApi() as Doc
    const named = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort()
    expect(named).toEqual(controlRoutes.map((r) => `${r.method} /-/fakelab${r.path}`).sort())
    expect(named).toContain('GET /-/fakelab/openapi.json')
    expect(named).toContain('GET /-/fakelab/routes')
    expect(named.length).toBeGreaterThanOrEqual(15)
  })

  it('docs/control-api.openapi.json is the same document', () => {
    const text = `${JSON.stringify(controlOpenApi(), null, 2)}\n`
    if (process.env.UPDATE_OPENAPI) writeFileSync(DOC_FILE, text)
    expect(readFileSync(DOC_FILE, 'utf8')).toBe(text)
  })
})

contract('control API: openapi.json and routes', {}, ({ api }) => {
  it('GET /-/fakelab/openapi.json serves the document', async () => {
    const res = await api.get('/-/fakelab/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.body).toEqual(controlOpenApi())
    expect(res.body.openapi).toBe('3.1.0')
  })

  it('answers the read routes as the document says', async () => {
    const doc = (await api.get('/-/fakelab/openapi.json')).body as Doc
    await api.get('/projects', { as: 'root' })
    for (const path of ['/clock', '/journal', '/faults', '/routes']) {
      const res = await api.get(`/-/fakelab${path}`)
      expect(res.status).toBe(200)
      checkBody(doc, `/-/fakelab${path}`, 'get', 200, 'application/json', res.body)
    }
    const bad = await api.get('/-/fakelab/journal', { query: { status: 'abc' } })
    expect(bad.status).toBe(400)
    checkBody(doc, '/-/fakelab/journal', 'get', 400, 'application/json', bad.body)
    const clock = await api.put('/-/fakelab/clock', { body: { now: 'never' } })
    expect(clock.status).toBe(400)
    checkBody(doc, '/-/fakelab/clock', 'put', 400, 'application/json', clock.body)
    const now = (await api.get('/-/fakelab/clock')).body.now
    const set = await api.put('/-/fakelab/clock', { body: { now } })
    expect(set.status).toBe(200)
    checkBody(doc, '/-/fakelab/clock', 'put', 200, 'application/json', set.body)
    expect(set.body).toEqual({ now })
  })

  it('an undocumented method on a documented path is the catch-all 404', async () => {
    for (const [method, path] of [['DELETE', '/-/fakelab/openapi.json'], ['POST', '/-/fakelab/routes'], ['GET', '/-/fakelab/reset']] as const) {
      const res = await api.request(method, path)
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.body).toEqual({ error: '404 Not Found' })
    }
  })

  it('GET /-/fakelab/routes serves the route table of docs/coverage.md', async () => {
    const res = await api.get('/-/fakelab/routes')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(routeTable(fakelabKeys))
    expect(res.body.gitlab.version).toBe('13.12 CE')
    const labels = res.body.areas.find((a: { area: string }) => a.area === 'lib/api/labels.rb')
    expect(labels.routes.find((r: { method: string; path: string }) => r.method === 'GET' && r.path === '/projects/:id/labels')).toEqual({
      method: 'GET', path: '/projects/:id/labels', file: 'lib/api/labels.rb', tier: 'free', simulated: true, inGitlab: true,
    })
    const access = res.body.areas.find((a: { area: string }) => a.area === 'lib/api/access_requests.rb')
    expect(access.simulated).toBe(0)
    expect(access.gitlab).toBe(8)
  })
})
