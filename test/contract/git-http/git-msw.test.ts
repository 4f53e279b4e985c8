/**
 * git's smart HTTP through the MSW door (issue 35 item 5): isomorphic-git, whose HTTP client is
 * `fetch`, clones from and pushes to fakelab's handlers with no server; and the wire answers both
 * doors give alike (the advertisement, the 401 challenge, the journal's service and refs).
 */
import fs from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import http from 'isomorphic-git/http/web'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator, type SimulatorSnapshot } from '../../../src/index.js'
import { createHandlers } from '../../../src/msw.js'
import { loadDefaultScenario, startServer } from '../../../src/node.js'

const BASE = 'http://gitlab.test'

describe('git over HTTP through the MSW door (isomorphic-git)', () => {
  let sim: Simulator
  let snapshot: SimulatorSnapshot
  let dir: string
  const server = { close: () => {} } as { close: () => void }

  beforeAll(async () => {
    const scenario = await loadDefaultScenario()
    Object.assign(scenario.users!.find((u) => u.username === 'elena')!, { password: 'elena-s3cret' })
    sim = createSimulator({ scenario })
    snapshot = sim.snapshot()
    const msw = setupServer(...createHandlers(sim, { baseUrl: BASE }))
    msw.listen({ onUnhandledRequest: 'error' })
    server.close = () => msw.close()
  })
  beforeEach(() => {
    sim.restore(snapshot)
    sim.journal.clear()
    dir = mkdtempSync(join(tmpdir(), 'fakelab-isogit-'))
    return () => rmSync(dir, { recursive: true, force: true })
  })
  afterAll(() => server.close())

  it('clones acme/website and sees the API branch tip', async () => {
    await git.clone({ fs, http, dir, url: `${BASE}/acme/website.git` })
    const head = await git.resolveRef({ fs, dir, ref: 'HEAD' })
    const branch = (await (await fetch(`${BASE}/api/v4/projects/20/repository/branches/main`)).json()) as { commit: { id: string } }
    expect(head).toBe(branch.commit.id)
    expect((await git.log({ fs, dir })).map((c) => c.commit.message.split('\n')[0])).toEqual(['Release 1.0', "Merge branch 'fix/footer-links' into 'main'", 'Repair footer links', 'Add the CI configuration', 'Add the footer', 'Initial commit'])
    expect(sim.journal.find({ method: 'GET', path: /\.git/ }).map((e) => [e.route, e.detail, e.user])).toEqual([['GET /*repository/info/refs', 'git-upload-pack', null]])
  })

  it('pushes a commit as a Developer, which the API then shows', async () => {
    const onAuth = () => ({ username: 'elena', password: 'glpat-elena-fakelab' })
    await git.clone({ fs, http, dir, url: `${BASE}/acme/website.git`, onAuth })
    await git.branch({ fs, dir, ref: 'iso', checkout: true })
    fs.writeFileSync(join(dir, 'iso.txt'), 'from isomorphic-git\n')
    await git.add({ fs, dir, filepath: 'iso.txt' })
    const author = { name: 'Elena', email: 'elena@example.com', timestamp: 1617278400, timezoneOffset: 0 }
    const sha = await git.commit({ fs, dir, message: 'From isomorphic-git', author })
    const result = await git.push({ fs, http, dir, remote: 'origin', ref: 'iso', onAuth })
    expect(result.ok).toBe(true)
    const branch = (await (await fetch(`${BASE}/api/v4/projects/20/repository/branches/iso`)).json()) as { commit: { id: string; title: string } }
    expect(branch.commit).toMatchObject({ id: sha, title: 'From isomorphic-git' })
    expect(sim.journal.find({ method: 'POST' }).at(-1)).toMatchObject({ route: 'POST /*repository/git-receive-pack', detail: 'git-receive-pack refs/heads/iso', user: 'elena', status: 200 })
  })

  it('refuses a push without credentials with the Basic challenge', async () => {
    await git.clone({ fs, http, dir, url: `${BASE}/acme/website.git` })
    await expect(git.push({ fs, http, dir, remote: 'origin', ref: 'main' })).rejects.toMatchObject({ code: 'HttpError', data: { statusCode: 401 } })
  })

  it('clones with a group deploy token, and pushes with a password to an old path: the moved message, a push pipeline from the pushed .gitlab-ci.yml', async () => {
    await git.clone({ fs, http, dir: join(dir, 'd'), url: `${BASE}/acme/website.git`, onAuth: () => ({ username: 'gitlab+deploy-token-31', password: 'fakelab-deploy-acme' }) })
    const pushAsDeployer = await fetch(`${BASE}/acme/website.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${btoa('gitlab+deploy-token-31:fakelab-deploy-acme')}` } })
    expect([pushAsDeployer.status, await pushAsDeployer.text()]).toEqual([403, 'You are not allowed to upload code.'])
    const renamed = await fetch(`${BASE}/api/v4/projects/20`, { method: 'PUT', headers: { 'private-token': 'glpat-root-fakelab', 'content-type': 'application/json' }, body: JSON.stringify({ path: 'site' }) })
    expect(renamed.status).toBe(200)
    const onAuth = () => ({ username: 'elena', password: 'elena-s3cret' })
    await git.clone({ fs, http, dir, url: `${BASE}/acme/website.git`, onAuth })
    await git.branch({ fs, dir, ref: 'iso-ci', checkout: true })
    fs.writeFileSync(join(dir, '.gitlab-ci.yml'), "build:\n  script: make\ndeploy:\n  rules:\n    - if: '$TARGET == \"prod\"'\n  script: deploy\n")
    await git.add({ fs, dir, filepath: '.gitlab-ci.yml' })
    const author = { name: 'Elena', email: 'elena@example.com', timestamp: 1617278400, timezoneOffset: 0 }
    const sha = await git.commit({ fs, dir, message: 'CI', author })
    const messages: string[] = []
    const result = await git.push({ fs, http, dir, remote: 'origin', ref: 'iso-ci', onAuth, onMessage: (m) => void messages.push(m) })
    expect(result.ok).toBe(true)
    expect(messages.join('')).toContain("Project 'acme/website' was moved to 'acme/site'.")
    // isomorphic-git sends no push options: the rule reads no TARGET, so only build runs.
    const get = async (path: string) => (await fetch(`${BASE}/api/v4${path}`, { headers: { 'private-token': 'glpat-root-fakelab' } })).json() as Promise<any>
    const pipelines = await get('/projects/20/pipelines?ref=iso-ci')
    expect(pipelines.map((p: any) => [p.sha, p.status])).toEqual([[sha, 'pending']])
    expect((await get(`/projects/20/pipelines/${pipelines[0].id}/jobs`)).map((j: any) => j.name)).toEqual(['build'])
    expect(await get(`/projects/20/pipelines/${pipelines[0].id}/variables`)).toEqual([])
  })
})

describe.each(['node', 'msw'] as const)('git wire answers [%s]', (door) => {
  let sim: Simulator
  let base: string
  let close: () => unknown
  beforeAll(async () => {
    sim = createSimulator({ scenario: await loadDefaultScenario() })
    if (door === 'node') {
      const s = await startServer(sim, { port: 0 })
      base = s.url
      close = () => s.close()
    } else {
      const msw = setupServer(...createHandlers(sim, { baseUrl: BASE }))
      msw.listen({ onUnhandledRequest: 'error' })
      base = BASE
      close = () => msw.close()
    }
  })
  afterAll(() => close())

  it.each([
    // [path, headers, status, content type, body start or exact]
    ['/acme/website.git/info/refs?service=git-upload-pack', {}, 200, 'application/x-git-upload-pack-advertisement', '001e# service=git-upload-pack\n0000'],
    ['/ACME/Website/info/refs?service=git-upload-pack', { 'git-protocol': 'version=2' }, 200, 'application/x-git-upload-pack-advertisement', '001e# service=git-upload-pack\n0000000eversion 2\n'],
    ['/acme/website.git/info/refs?service=git-receive-pack', {}, 401, 'text/plain; charset=utf-8', 'HTTP Basic: Access denied\n'],
    ['/acme/nothing.git/info/refs?service=git-upload-pack', { authorization: `Basic ${btoa('root:glpat-root-fakelab')}` }, 404, 'text/plain; charset=utf-8', "The project you were looking for could not be found or you don't have permission to view it."],
    ['/acme/website.git/info/refs?service=git-receive-pack', { authorization: `Basic ${btoa('ext:glpat-ext-fakelab')}` }, 403, 'text/plain; charset=utf-8', 'You are not allowed to push code to this project.'],
  ])('GET %s', async (path, headers, status, type, body) => {
    const res = await fetch(`${base}${path}`, { headers })
    const text = await res.text()
    expect([res.status, res.headers.get('content-type')]).toEqual([status, type])
    expect(text.startsWith(body)).toBe(true)
    if (status === 401) expect(res.headers.get('www-authenticate')).toBe('Basic realm="GitLab"')
  })

  it.skipIf(door === 'msw')('marks an unsimulated web path like an unsimulated API path', async () => {
    const res = await fetch(`${base}/acme/website/-/issues`)
    expect([res.status, res.headers.get('x-fakelab-unsimulated')]).toEqual([404, 'true'])
    expect(sim.journal.last()).toMatchObject({ path: '/acme/website/-/issues', simulated: false, routeMiss: 'path' })
  })
})

describe('git endpoints never fail on a malformed body', () => {
  it('answers 200 or 400, never 500, and leaves the repository alone (fast-check)', async () => {
    const fc = await import('fast-check')
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const errors: unknown[] = []
    const root = `Basic ${btoa('root:glpat-root-fakelab')}`
    const tip = ((await (await sim.handle(new Request('http://gitlab.test/api/v4/projects/20/repository/branches/main'))).json()) as { commit: { id: string } }).commit.id
    const pkt = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`
    const enc = new TextEncoder()
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      // A command that would move main, then a "pack" of random bytes (or PACK and random bytes).
      fc.tuple(fc.constantFrom('', 'PACK\0\0\0\x02\0\0\0\x01'), fc.uint8Array({ maxLength: 200 })).map(([head, tail]) => {
        const line = enc.encode(`${pkt(`${tip} ${'1'.repeat(40)} refs/heads/main\0report-status side-band-64k\n`)}0000${head}`)
        const out = new Uint8Array(line.length + tail.length)
        out.set(line)
        out.set(tail, line.length)
        return out
      }),
      fc.array(fc.constantFrom('want ', 'have ', 'done', 'deepen ', 'command=fetch', 'command=ls-refs', '0001', '0000', tip, 'shallow '), { maxLength: 12 }).map((parts) => enc.encode(parts.map((p) => (/^000[01]$/.test(p) ? p : pkt(`${p}\n`))).join(''))),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('git-upload-pack', 'git-receive-pack'), fc.boolean(), body, async (service, v2, bytes) => {
        const res = await sim.handle(new Request(`http://gitlab.test/acme/website.git/${service}`, { method: 'POST', body: bytes, headers: { authorization: root, ...(v2 ? { 'git-protocol': 'version=2' } : {}) } }))
        await res.arrayBuffer()
        if (res.status !== 200 && res.status !== 400) errors.push([service, v2, res.status, Buffer.from(bytes).toString('latin1')])
      }),
      { numRuns: 300, seed: 35 },
    )
    expect(errors).toEqual([])
    const after = ((await (await sim.handle(new Request('http://gitlab.test/api/v4/projects/20/repository/branches/main'))).json()) as { commit: { id: string } }).commit.id
    expect(after).toBe(tip)
  })
})
