/**
 * Determinism across runs (issue 13): one fixed script of well-formed requests over every route
 * (reads and writes, generated from `sim.routes` and the default scenario with a fixed seed), sent
 * in order to two separately started `fakelab serve --port 0` processes and through the MSW door,
 * must give byte-identical answers: status, headers and body.
 *
 * What may differ, and is normalised: the origin (each server has its own port, and it appears in
 * `web_url`s and `Link` headers; the host alone in `ssh_url_to_repo`). `Date` is compared too: it
 * follows the scenario's frozen clock, not the wall clock. Between the node door
 * and the MSW door, also the headers `node:http` adds on the wire (`Connection`, `Keep-Alive`,
 * `Transfer-Encoding`, `Content-Length`). The two servers are compared with everything else, header for header.
 */
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadAllRoutes } from '../../src/resources/index.js'
import { createHandlers } from '../../src/msw.js'
import { loadDefaultScenario } from '../../src/node.js'
import { deepFixtures } from '../fuzz/deep.js'
import { wellFormedRequests, type FuzzRequest } from '../fuzz/requests.js'
import { serveFakelab, type ServedFakelab } from '../support/serve.js'

// Not gitlab.test: the default scenario itself writes that host into some values (a bot's email).
const MSW_BASE = 'http://determinism.test'
/** Requests per route; with 119 routes today, over 1,000 in all. */
const PER_ROUTE = 9
const SEED = 1313

const scenario = await loadDefaultScenario()

/** The script: PER_ROUTE requests per route, route by route, each route from its own fixed seed. */
async function script(): Promise<FuzzRequest[]> {
  const sim = createSimulator({ scenario })
  const fixtures = await deepFixtures(sim, MSW_BASE)
  const all = (await loadAllRoutes()).api.flatMap((route, index) => fc.sample(wellFormedRequests(route, fixtures), { seed: SEED + index, numRuns: PER_ROUTE }))
  // DELETEs last: deleting a project, group or user early would turn the rest of the script into 404s.
  return [...all.filter((r) => r.method !== 'DELETE'), ...all.filter((r) => r.method === 'DELETE')]
}

/** Headers a node:http server adds on the wire and MSW's in-process Response has not. */
const WIRE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length'])

/**
 * Sends the script in order through `fetch` to `origin` and returns each answer as text: status,
 * sorted headers, blank line, body, with `origin` replaced by `{origin}`. A request that fetch
 * refuses to build (a header it cannot encode) is `(not sent)` everywhere.
 */
async function run(origin: string, requests: FuzzRequest[], wire: boolean): Promise<string[]> {
  const answers: string[] = []
  for (const request of requests) {
    let built: Request
    try {
      const url = `${origin}/api/v4${request.path}${request.query ? `?${request.query}` : ''}`
      built = new Request(url, { method: request.method, headers: request.headers, body: request.body ? Buffer.from(request.body.text, request.body.latin1 ? 'latin1' : 'utf8') : undefined })
    } catch {
      answers.push('(not sent)')
      continue
    }
    const res = await fetch(built)
    const body = await res.text()
    const headers = [...res.headers]
      .filter(([name]) => !(wire && WIRE_HEADERS.has(name)))
      .map(([name, value]) => `${name}: ${value}`)
      .sort()
    // The host also appears alone in `ssh_url_to_repo` (`git@<host>:path.git`), bot emails
    // (`@noreply.<host>`) and the Sidekiq process's `hostname` (GET /sidekiq/process_metrics).
    const host = new URL(origin).hostname
    answers.push(`${res.status}\n${headers.join('\n')}\n\n${body}`.split(origin).join('{origin}').split(`git@${host}:`).join('git@{host}:').split(`@noreply.${host}`).join('@noreply.{host}').split(`"hostname":"${host}"`).join('"hostname":"{host}"'))
  }
  return answers
}

/** The first few differences between two runs, with the requests that gave them. */
function differences(requests: FuzzRequest[], a: string[], b: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < requests.length && out.length < 5; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x === y) continue
    let at = 0
    while (x[at] === y[at]) at++
    const around = (text: string) => text.slice(Math.max(0, at - 200), at + 200)
    out.push(`#${i} ${requests[i]!.method} ${requests[i]!.path}?${requests[i]!.query.slice(0, 200)}, from character ${at}\n--- a\n${around(x)}\n--- b\n${around(y)}`)
  }
  return out
}

describe('determinism across runs', () => {
  let requests: FuzzRequest[]
  const servers: ServedFakelab[] = []

  beforeAll(async () => {
    requests = await script()
  }, 120_000)
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
  })

  it('covers every route with a fixed script of at least 1,000 requests, reads and writes', async () => {
    const routes = createSimulator({ scenario }).routes
    expect(requests.length).toBeGreaterThanOrEqual(1000)
    expect(requests.length).toBe(routes.length * PER_ROUTE)
    expect(requests.filter((r) => r.method !== 'GET').length).toBeGreaterThan(300)
    // The same script when generated again.
    expect(JSON.stringify(await script())).toBe(JSON.stringify(requests))
    // Generating the script again takes as long as the first time: a few seconds per hundred routes.
  }, 120_000)

  it('gives byte-identical answers from two fakelab serve processes and the MSW door', async () => {
    servers.push(await serveFakelab(), await serveFakelab())
    const first = await run(servers[0]!.url, requests, false)
    const second = await run(servers[1]!.url, requests, false)
    expect(differences(requests, first, second)).toEqual([])

    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const msw = setupServer(...createHandlers(sim, { baseUrl: MSW_BASE }))
    msw.listen({ onUnhandledRequest: 'error' })
    let viaMsw: string[]
    try {
      viaMsw = await run(MSW_BASE, requests, true)
    } finally {
      msw.close()
    }
    const strip = (answers: string[]) => answers.map((answer) => answer.replace(/^(?:connection|keep-alive|transfer-encoding|content-length): .*\n/gm, ''))
    expect(differences(requests, strip(first), viaMsw)).toEqual([])
    // Not a script of refusals: a good share of the requests reach the handlers and succeed (a
    // quarter: the repository, pipeline and merge writes refuse most generated bodies, as GitLab does).
    expect(first.filter((answer) => /^2\d\d\n/.test(answer)).length).toBeGreaterThan(requests.length / 4)
  }, 120_000)
})
