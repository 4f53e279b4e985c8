/**
 * fakelab in a real browser (issue 12): the example page (examples/browser/) built with esbuild and
 * served from http://localhost, driven in Debian's headless Chromium by playwright-core (never a
 * downloaded browser). The page runs the simulator in MSW's service worker; the contract smoke set
 * (smoke.ts) is sent from the page with `fetch` and must answer what the contract suites assert,
 * and byte for byte what the Node door answers to the same requests from the same scenario.
 * One browser launch for the whole file. Without /usr/bin/chromium the file skips with a printed
 * reason, except under CI=true, where that fails (.ci/run installs the package).
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, defaultScenario } from '../../src/index.js'
import { startServer, type RunningServer } from '../../src/node.js'
import { buildExample } from '../../examples/browser/build.mjs'
import { serveStatic, type StaticServer } from '../../examples/browser/serve.mjs'
import { gitbeakerSteps, type GitbeakerTrace } from './gitbeaker-steps.js'
import { SMOKE, type SmokeAnswer, type SmokeRequest } from './smoke.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]
const ROOT = join(import.meta.dirname, '..', '..')
const present = existsSync(CHROMIUM)
const mustRun = !!process.env.CI && !['false', '0'].includes(process.env.CI)
/** Chromium present, or CI, where its absence must fail (in the shared beforeAll). */
const runs = present || mustRun
if (!present && !mustRun) {
  console.warn(`test/browser/page.test.ts skipped: ${CHROMIUM} is absent (Debian package chromium: apt-get install -y chromium). Under CI=true this fails.`)
}

/** Headers that belong to one connection, not to the answer: left out of the door comparison. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length'])

/** A request on the wire: what both doors are sent. */
interface WireRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

/** Spells a smoke request out as headers and body text, once for both doors. */
function wire(r: SmokeRequest): WireRequest {
  const headers: Record<string, string> = { ...r.headers }
  if (r.token) headers['PRIVATE-TOKEN'] = r.token
  if (r.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    return { method: r.method, path: r.path, headers, body: JSON.stringify(r.json) }
  }
  if (r.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    return { method: r.method, path: r.path, headers, body: new URLSearchParams(r.form).toString() }
  }
  return { method: r.method, path: r.path, headers }
}

/** Sends the requests one after another from the page, with `fetch`. Runs in the browser. */
async function sendFromPage(requests: WireRequest[]): Promise<SmokeAnswer[]> {
  const answers: SmokeAnswer[] = []
  for (const r of requests) {
    const res = await fetch(r.path, { method: r.method, headers: r.headers, body: r.body })
    const found: Record<string, string> = {}
    res.headers.forEach((value, name) => { found[name] = value })
    answers.push({ status: res.status, headers: found, text: await res.text() })
  }
  return answers
}

/** The same requests through the Node door, with the page's `Host`, so URLs in bodies match. */
async function sendToNode(server: RunningServer, host: string, requests: WireRequest[]): Promise<SmokeAnswer[]> {
  const answers: SmokeAnswer[] = []
  for (const r of requests) {
    answers.push(await new Promise<SmokeAnswer>((resolve, reject) => {
      const req = http.request(`${server.url}${r.path}`, { method: r.method, headers: { host, ...r.headers } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const found: Record<string, string> = {}
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) found[name] = Array.isArray(value) ? value.join(', ') : value
          resolve({ status: res.statusCode ?? 0, headers: found, text: Buffer.concat(chunks).toString('utf8') })
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(r.body)
    }))
  }
  return answers
}

const withoutHopByHop = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)).sort(([a], [b]) => a.localeCompare(b)))

let site: string | undefined
let profile: string | undefined
let pageServer: StaticServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  if (!runs) return
  if (!present) throw new Error(`CI=true and ${CHROMIUM} is missing: .ci/run installs it (apt-get install -y chromium)`)
  site = await mkdtemp(join(tmpdir(), 'fakelab-browser-site-'))
  // The page as the README builds it, but bundling this checkout's src rather than its dist.
  await buildExample({ outdir: site, alias: { fakelab: join(ROOT, 'src', 'index.ts'), 'fakelab/msw': join(ROOT, 'src', 'msw.ts') } })
  pageServer = await serveStatic(site)
  profile = await mkdtemp(join(tmpdir(), 'fakelab-chromium-profile-'))
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS })
  page = context.pages()[0] ?? (await context.newPage())
  page.on('pageerror', (error) => pageErrors.push(String(error)))
  await page.goto(pageServer.url)
  await page.locator('#status').filter({ hasText: 'ready' }).waitFor({ timeout: 60_000 })
}, 120_000)

afterAll(async () => {
  await context?.close()
  await pageServer?.close()
  for (const dir of [site, profile]) if (dir) await rm(dir, { recursive: true, force: true })
})

describe.skipIf(!runs)('the example page', () => {
  it('starts the worker and shows the answers of its calls', async () => {
    const lines = await page.locator('#answers li code').allInnerTexts()
    expect(lines).toEqual([
      'GET /version → 200',
      'GET /projects/acme%2Fwebsite/labels?per_page=2 → 200 (X-Total: 6)',
      'POST /projects/20/labels → 201',
      'GET /projects/acme%2Fplatform%2Fapi → 404',
    ])
    const shown = (await page.locator('#answers li pre').allInnerTexts()).map((text) => JSON.parse(text))
    expect(shown[0]).toEqual({ version: '13.12.15', revision: 'f4d1fa3b1d6' })
    expect(shown[1].map((l: { name: string }) => l.name)).toEqual(['bug', 'docs'])
    expect(shown[2]).toMatchObject({ name: 'browser', color: '#1f75cb', is_project_label: true })
    expect(shown[3]).toEqual({ message: '404 Project Not Found' })
    expect(pageErrors).toEqual([])
  })

  it("answers a GitLab URL of another origin as well (the handlers' default baseUrl is any origin)", async () => {
    const answer = await page.evaluate(async () => {
      const res = await fetch('https://gitlab.example.com/api/v4/projects/20/labels?per_page=2', { headers: { 'PRIVATE-TOKEN': 'glpat-max-fakelab' } })
      return { status: res.status, total: res.headers.get('x-total'), link: res.headers.get('link'), cors: res.headers.get('access-control-allow-origin') }
    })
    // The page's request reaches the handlers without the Origin header the browser would add on
    // the network, so no CORS headers come back (and the page sees every header, as same-origin).
    expect(answer).toEqual({
      status: 200,
      total: '7', // the six of the scenario and the page's own label
      link: expect.stringMatching(/^<https:\/\/gitlab\.example\.com\/api\/v4\/projects\/20\/labels\?/),
      cors: null,
    })
  })

  it('is controlled by the service worker', async () => {
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${pageServer!.url}mockServiceWorker.js`)
  })
})

describe.skipIf(!runs)('the contract smoke set', () => {
  let inPage: SmokeAnswer[] = []
  let inNode: SmokeAnswer[] = []
  let origin = ''

  beforeAll(async () => {
    origin = new URL(pageServer!.url).origin
    // The page's own calls wrote a label: back to the scenario through the control API.
    const reset = await page.evaluate(async () => (await fetch('/-/fakelab/reset', { method: 'POST' })).status)
    expect(reset).toBe(204)
    const requests = SMOKE.map((c) => wire(c.request))
    inPage = await page.evaluate(sendFromPage, requests)
    const node = await startServer(createSimulator({ scenario: defaultScenario() }), { port: 0 })
    try {
      inNode = await sendToNode(node, new URL(origin).host, requests)
    } finally {
      await node.close()
    }
  }, 60_000)

  it.each(SMOKE.map((c, i) => [c.name, i] as const))('%s', (_, i) => {
    const c = SMOKE[i]!
    const answer = inPage[i]!
    const body = answer.text === '' ? undefined : JSON.parse(answer.text)
    expect(answer.status).toBe(c.status)
    if (c.body !== undefined || c.status === 204) expect(body).toEqual(c.body)
    if (c.check) expect(c.check(body)).toEqual(c.checked)
    if (c.headers) {
      const expected = c.headers(origin)
      expect(Object.fromEntries(Object.keys(expected).map((name) => [name, answer.headers[name]]))).toEqual(expected)
    }
    expect(answer.headers['date']).toBe('Thu, 01 Apr 2021 12:00:00 GMT')
  })

  it('answers byte for byte as the Node door does (bodies, statuses, headers)', () => {
    expect(inPage.length).toBe(SMOKE.length)
    const view = (answers: SmokeAnswer[]) => answers.map((a, i) => ({ name: SMOKE[i]!.name, status: a.status, headers: withoutHopByHop(a.headers), text: a.text }))
    expect(view(inPage)).toEqual(view(inNode))
  })
})

describe.skipIf(!runs)('@gitbeaker/rest in the page', () => {
  let inPage: GitbeakerTrace
  let inNode: GitbeakerTrace
  let origin = ''
  let nodeOrigin = ''

  beforeAll(async () => {
    origin = new URL(pageServer!.url).origin
    const bundle = await build({
      entryPoints: [join(import.meta.dirname, 'gitbeaker-steps.ts')],
      bundle: true, platform: 'browser', format: 'iife', globalName: 'fakelabGitbeaker', write: false, logLevel: 'silent',
    })
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text })
    expect(await page.evaluate(async () => (await fetch('/-/fakelab/reset', { method: 'POST' })).status)).toBe(204)
    inPage = await page.evaluate(
      (host) => (globalThis as unknown as { fakelabGitbeaker: { gitbeakerSteps: typeof gitbeakerSteps } }).fakelabGitbeaker.gitbeakerSteps(host),
      origin,
    )
    // On localhost too, so that only the port differs (the ssh URLs carry the host alone).
    const node = await startServer(createSimulator({ scenario: defaultScenario() }), { port: 0, host: 'localhost' })
    try {
      nodeOrigin = `http://localhost:${node.port}`
      inNode = await gitbeakerSteps(nodeOrigin)
    } finally {
      await node.close()
    }
  }, 60_000)

  it('reads, pages, creates, lists and deletes as GitLab answers', () => {
    expect((inPage.currentUser as { username: string }).username).toBe('max')
    const ids = inPage.projects.map((p) => (p as { id: number }).id)
    expect(ids.slice(0, 3)).toEqual([20, 21, 23])
    expect(ids.length).toBeGreaterThan(2) // more than one page of two: the client followed the Link header
    expect(inPage.created).toMatchObject({ name: 'from gitbeaker', color: '#663399', description: 'in a browser', is_project_label: true })
    expect(inPage.listed.map((l) => (l as { name: string }).name)).toContain('from gitbeaker')
    expect(inPage.failures).toEqual([404, 404])
  })

  it('sees what the same client sees through the Node door (URLs aside)', () => {
    const text = (trace: GitbeakerTrace, from: string) => JSON.stringify(trace).replaceAll(from, 'ORIGIN')
    expect(JSON.parse(text(inPage, origin))).toEqual(JSON.parse(text(inNode, nodeOrigin)))
  })
})
