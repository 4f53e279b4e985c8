/**
 * Renovate end to end against fakelab (issue 35's "Done when"): the default scenario served by the
 * node:http door (what `fakelab serve` runs); the test pushes a package.json with an outdated
 * dependency to acme/website over git; package versions come from a tiny npm registry the test
 * serves itself (node:http), never the internet. Renovate 39 (the last major that runs on Node 20),
 * locked apart in test/e2e/renovate/ and installed there by .ci/run (`npm ci --omit=optional`).
 * First run: its onboarding merge request "Configure Renovate" with its pushed branch
 * renovate/configure (renovate.json). That merge request is merged through the API; the second
 * run: the update merge request of the outdated dependency with its pushed branch, and the
 * "Dependency Dashboard" issue; a third run finds them all again and makes nothing new.
 * Everything is asserted through the API.
 * Skipped with a message where git or the Renovate install is missing, except under CI (.ci/run
 * sets CI=true and installs both), where that is a failure.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer } from '../../src/node.js'
import { hasGit } from '../support/git.js'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
const RENOVATE = join(ROOT, 'test', 'e2e', 'renovate', 'node_modules', 'renovate', 'dist', 'renovate.js')
const BOT = { username: 'devon', token: 'glpat-devon-fakelab' } // a Developer of acme: pushes renovate/* branches, opens merge requests
const MAINTAINER = 'glpat-max-fakelab' // pushes to the protected main, merges
const PACKAGE = 'acme-widgets'

const missing = !hasGit() ? 'no `git` binary on the PATH' : !existsSync(RENOVATE) ? 'Renovate is not installed in test/e2e/renovate (npm ci --omit=optional there)' : null
if (missing && process.env.CI === 'true') throw new Error(`test/e2e/renovate.test.ts cannot run under CI: ${missing}`)
if (missing) console.warn(`test/e2e/renovate.test.ts: skipped, ${missing}`)

/**
 * The npm registry fixture: the packument of `acme-widgets` (1.0.0 and 1.1.0, the latest), as the
 * npm registry answers `GET /<name>`; every other package is a 404. Renovate reads `versions`,
 * `dist-tags` and `time`.
 */
function registry(): Promise<{ url: string; server: Server; asked: string[] }> {
  const asked: string[] = []
  const version = (v: string) => ({ name: PACKAGE, version: v, dist: { tarball: `http://registry.invalid/${PACKAGE}/-/${PACKAGE}-${v}.tgz`, shasum: '0'.repeat(40) } })
  const packument = {
    name: PACKAGE,
    'dist-tags': { latest: '1.1.0' },
    versions: { '1.0.0': version('1.0.0'), '1.1.0': version('1.1.0') },
    time: { created: '2021-01-01T00:00:00.000Z', modified: '2021-03-01T00:00:00.000Z', '1.0.0': '2021-01-01T00:00:00.000Z', '1.1.0': '2021-03-01T00:00:00.000Z' },
  }
  const server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`)
    if (req.url === `/${PACKAGE}`) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(packument))
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"error":"Not found"}')
  })
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, asked })))
}

describe.skipIf(missing !== null)(`Renovate against fakelab${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let url: string
  let close: () => Promise<void>
  let npm: Awaited<ReturnType<typeof registry>>
  const dir = mkdtempSync(join(tmpdir(), 'fakelab-renovate-'))
  const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: dir, GIT_AUTHOR_NAME: 'Max', GIT_AUTHOR_EMAIL: 'max@example.com', GIT_COMMITTER_NAME: 'Max', GIT_COMMITTER_EMAIL: 'max@example.com' }
  const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env: gitEnv })).stdout.trim()
  const api = async (method: string, path: string, token = MAINTAINER) => {
    const res = await fetch(`${url}/api/v4${path}`, { method, headers: { 'private-token': token } })
    return { status: res.status, body: (await res.json()) as any }
  }

  let runs = 0
  /** One Renovate run on acme/website as the bot; its log (JSON lines); FAKELAB_RENOVATE_LOG=<path> keeps each run's in <path>.<n>. */
  async function renovate(): Promise<string> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      RENOVATE_PLATFORM: 'gitlab',
      RENOVATE_ENDPOINT: `${url}/api/v4/`,
      RENOVATE_TOKEN: BOT.token,
      RENOVATE_REPOSITORIES: 'acme/website',
      RENOVATE_GIT_AUTHOR: 'Renovate Bot <bot@renovateapp.com>',
      RENOVATE_BASE_DIR: join(dir, 'renovate'),
      RENOVATE_NPMRC: `registry=${npm.url}\n`,
      // A self-hosted Renovate's onboarding config is only `$schema`; its admins give the presets
      // (config:recommended, built into Renovate, turns the dependency dashboard on).
      RENOVATE_ONBOARDING_CONFIG: JSON.stringify({ $schema: 'https://docs.renovatebot.com/renovate-schema.json', extends: ['config:recommended'] }),
      // No changelog lookups, no update checks: nothing leaves the machine.
      RENOVATE_FETCH_CHANGE_LOGS: 'off',
      RENOVATE_PR_HOURLY_LIMIT: '0',
      RENOVATE_PR_CONCURRENT_LIMIT: '0',
    }
    try {
      const result = await run(process.execPath, [RENOVATE], { cwd: dir, env, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 })
      if (process.env.FAKELAB_RENOVATE_LOG) writeFileSync(`${process.env.FAKELAB_RENOVATE_LOG}.${++runs}`, result.stdout + result.stderr)
      return result.stdout + result.stderr
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string }
      throw new Error(`Renovate failed: ${e.message}\n${(e.stdout ?? '').slice(-20_000)}\n${e.stderr ?? ''}`)
    }
  }

  beforeAll(async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const server = await startServer(sim, { port: 0 })
    url = server.url
    close = () => Promise.resolve(server.close())
    npm = await registry()
  })
  afterAll(async () => {
    await close?.()
    npm?.server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('onboards acme/website, then opens the update merge request and the dependency dashboard', async () => {
    // The repository gets a package.json with the outdated dependency, pushed over git to main.
    await git(dir, 'clone', `${url.replace('://', `://max:${MAINTAINER}@`)}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    writeFileSync(join(w, 'package.json'), `${JSON.stringify({ name: 'website', version: '1.0.0', private: true, dependencies: { [PACKAGE]: '1.0.0' } }, null, 2)}\n`)
    await git(w, 'add', 'package.json')
    await git(w, 'commit', '-m', 'Add package.json')
    await git(w, 'push', 'origin', 'main')

    // First run: the onboarding merge request, from its pushed branch.
    const first = await renovate()
    const onboarding = await api('GET', '/projects/20/merge_requests?state=opened&source_branch=renovate/configure')
    expect(onboarding.body, first.slice(-20_000)).toHaveLength(1)
    expect(onboarding.body[0]).toMatchObject({ title: 'Configure Renovate', target_branch: 'main', author: { username: BOT.username } })
    const config = await api('GET', `/projects/20/repository/files/renovate.json/raw?ref=renovate%2Fconfigure`)
    expect([config.status, config.body.extends]).toEqual([200, ['config:recommended']])
    expect(npm.asked).toContain(`GET /${PACKAGE}`)

    // Merged through the API, as a maintainer would.
    const merged = await api('PUT', `/projects/20/merge_requests/${onboarding.body[0].iid}/merge`)
    expect([merged.status, merged.body.state]).toEqual([200, 'merged'])

    // Second run: the update merge request with its branch, and the dependency dashboard issue.
    const second = await renovate()
    const updates = await api('GET', '/projects/20/merge_requests?state=opened')
    const update = updates.body.find((mr: any) => mr.source_branch.startsWith('renovate/') && mr.source_branch !== 'renovate/configure')
    expect(update, second.slice(-20_000)).toBeDefined()
    expect(update).toMatchObject({ title: `Update dependency ${PACKAGE} to v1.1.0`, target_branch: 'main', author: { username: BOT.username } })
    const pkg = await api('GET', `/projects/20/repository/files/package.json/raw?ref=${encodeURIComponent(update.source_branch)}`)
    expect(pkg.body.dependencies).toEqual({ [PACKAGE]: '1.1.0' })
    const dashboard = await api('GET', '/projects/20/issues?state=opened&search=Dependency%20Dashboard')
    expect(dashboard.body.map((i: any) => [i.title, i.author.username])).toContainEqual(['Dependency Dashboard', BOT.username])

    // A third run finds its branch, merge request and dashboard again: nothing new, nothing lost.
    const third = await renovate()
    const after = await api('GET', '/projects/20/merge_requests?state=opened')
    expect(after.body.filter((mr: any) => mr.source_branch.startsWith('renovate/')).map((mr: any) => mr.iid), third.slice(-20_000)).toEqual([update.iid])
    const dashboards = await api('GET', '/projects/20/issues?state=opened&search=Dependency%20Dashboard')
    expect(dashboards.body.filter((i: any) => i.title === 'Dependency Dashboard')).toHaveLength(1)
  }, 600_000)
})
