/**
 * `fakelab import` on sessions recorded from real clients (issue 28 item 7): group members import
 * (all of them), a project the session never fetched is imported from other answers (an issue's
 * `project_id` and `references`, a label list under `/projects/:id`), each credential's user gets a
 * token that works (`glpat-imported-<n>`, or the client's own with `--token`), and `--out` creates
 * missing folders. Each client then re-runs its session unchanged against the imported scenario
 * and sees what it saw when recording. python-gitlab's part skips when it is not installed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Gitlab } from '@gitbeaker/rest'
import type { Har } from 'har-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { serializeCassette } from '../../src/record/har.js'
import { importCassette, type ImportResult } from '../../src/verify/import.js'
import { createRecorder, loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'
import { execFile } from 'node:child_process'
import { findPython, statusOf } from '../support/clients.js'
import { runCli } from '../verify/support.js'
import { DEFAULT_TOKENS } from './support.js'

const PY_SESSION = fileURLToPath(new URL('./python_gitlab_import_session.py', import.meta.url))
const python = findPython()

/** Runs the python-gitlab session against `url` with `token`; resolves to what it printed, parsed. */
function pythonSession(url: string, token: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(python!, ['-W', 'ignore', PY_SESSION, url, token], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(JSON.parse(stdout) as unknown),
    )
  })
}

/** What the gitbeaker session saw: never GET /user, /projects/:id or /groups/:id. */
async function gitbeakerSession(host: string, token: string): Promise<unknown> {
  const root = new Gitlab({ host, token })
  const members = await root.GroupMembers.all('acme')
  const issues = await root.Issues.all({ projectId: 20, perPage: 2 })
  const labels = await root.ProjectLabels.all('acme/platform/api')
  return {
    members: members.map((m) => [m.username, m.access_level]).sort(),
    issues: issues.map((i) => i.iid).sort(),
    labels: labels.map((l) => l.name).sort(),
  }
}

/** Records `session` through a recorder in front of the default scenario. */
async function record(session: (host: string) => Promise<unknown>): Promise<{ cassette: Har; saw: unknown }> {
  const upstream = await startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
  const recorder = await createRecorder({ target: upstream.url })
  try {
    const saw = await session(recorder.url)
    return { cassette: recorder.cassette(), saw }
  } finally {
    await recorder.close()
    await upstream.close()
  }
}

/** Serves an imported scenario for the length of `run`. */
async function serving<T>(yaml: string, run: (server: RunningServer) => Promise<T>): Promise<T> {
  const server = await startServer(createSimulator({ scenario: yaml }), { port: 0 })
  try {
    return await run(server)
  } finally {
    await server.close()
  }
}

const ACME_MEMBERS = [['devon', 30], ['gina', 10], ['max', 40], ['olive', 50], ['riley', 20]]

describe('importing a @gitbeaker/rest session that never fetched a project or a group', () => {
  let cassette: Har
  let saw: unknown
  let result: ImportResult

  beforeAll(async () => {
    ;({ cassette, saw } = await record((host) => gitbeakerSession(host, DEFAULT_TOKENS.root)))
    result = await importCassette(cassette, { source: 'gitbeaker.har.json' })
  }, 60_000)

  it('saw every member of acme, issues across pages and the labels of acme/platform/api', () => {
    expect(saw).toMatchObject({ members: ACME_MEMBERS, issues: [1, 2, 3, 4] })
  })

  it('imports all five group members, and no note calls them outside the format', () => {
    const acme = (result.scenario.groups as { path: string; members?: { user: string; access_level: number }[] }[]).find((g) => g.path === 'acme')!
    expect(acme.members!.map((m) => [m.user, m.access_level]).sort()).toEqual(ACME_MEMBERS)
    expect(result.counts.members).toBe(5)
    expect(result.notReproduced.filter((n) => n.includes('not in the scenario format'))).toEqual([])
  })

  it('imports the projects from an issue list and a label list under /projects/:id', () => {
    const projects = (result.scenario.projects as { id: number; path: string; namespace: string; issues?: unknown[]; labels?: unknown[] }[]).map((p) => ({
      id: p.id,
      path: `${p.namespace}/${p.path}`,
      issues: p.issues?.length ?? 0,
    }))
    expect(projects).toEqual([
      { id: 20, path: 'acme/website', issues: 4 },
      { id: expect.any(Number), path: 'acme/platform/api', issues: 0 },
    ])
    expect(result.notReproduced).toContain('project acme/website: only seen in paths and other answers; its name, visibility, description and dates are not reproduced')
  })

  it('gives root glpat-imported-1, not the placeholder, and the client re-run with it sees the same', async () => {
    expect(result.tokens).toEqual([{ placeholder: '[REDACTED-1]', username: 'root', token: 'glpat-imported-1', given: false, sentAs: 'PRIVATE-TOKEN' }])
    expect(result.yaml).toContain('#   [REDACTED-1] -> root: glpat-imported-1')
    await serving(result.yaml, async (server) => {
      expect(await gitbeakerSession(server.url, 'glpat-imported-1')).toEqual(saw)
      // Without --token the client's own token is unknown to the imported scenario.
      expect(await statusOf(new Gitlab({ host: server.url, token: DEFAULT_TOKENS.root }).GroupMembers.all('acme'))).toBe(401)
    })
  })

  it('with --token root=<its own token>, the client re-run unchanged sees the same', async () => {
    const own = await importCassette(cassette, { verify: false, tokens: new Map([['root', DEFAULT_TOKENS.root]]) })
    await serving(own.yaml, async (server) => expect(await gitbeakerSession(server.url, DEFAULT_TOKENS.root)).toEqual(saw))
  })

  describe('fakelab import (CLI)', () => {
    let dir: string
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'fakelab-import-'))
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('creates the folders of --out, takes --token, and prints each token', async () => {
      const file = join(dir, 'session.har.json')
      writeFileSync(file, serializeCassette(cassette))
      const out = join(dir, 'not', 'yet', 'there.yaml')
      const { code, stderr } = await runCli(['import', file, '--out', out, '--token', `root=${DEFAULT_TOKENS.root}`])
      expect(code).toBe(0)
      expect(existsSync(out)).toBe(true)
      expect(readFileSync(out, 'utf8')).toContain(`token: ${DEFAULT_TOKENS.root}`)
      expect(stderr).toContain("[fakelab] token [REDACTED-1] is root's: send PRIVATE-TOKEN the token given with --token (now in the scenario: keep it out of version control)\n")
      const plain = await runCli(['import', file, '--out', join(dir, 'plain.yaml')])
      expect(plain.code).toBe(0)
      expect(plain.stderr).toContain("[fakelab] token [REDACTED-1] is root's: send PRIVATE-TOKEN glpat-imported-1 (or import with --token root=<the token you recorded with>)\n")
    })

    it('refuses a --token that names no recorded credential (exit 1)', async () => {
      const file = join(dir, 'session.har.json')
      writeFileSync(file, serializeCassette(cassette))
      const { code, stderr } = await runCli(['import', file, '--token', 'nobody=x'])
      expect(code).toBe(1)
      expect(stderr).toBe("[fakelab] --token nobody: no recorded credential of that name or user; the cassette's credentials: [REDACTED-1] (root)\n")
    })
  })
})

describe.skipIf(!python)('importing a python-gitlab session that never fetched a project or a group', () => {
  it('imports members, projects and a working token; the script re-run unchanged prints the same', async () => {
    const { cassette, saw } = await record((host) => pythonSession(host, DEFAULT_TOKENS.root))
    expect(saw).toMatchObject({ members: ACME_MEMBERS, issues: [1, 2, 3, 4] })
    const result = await importCassette(cassette, { tokens: new Map([['root', DEFAULT_TOKENS.root]]) })
    expect(result.counts).toMatchObject({ members: 5, projects: 2 })
    expect(result.tokens.map((t) => [t.username, t.given])).toEqual([['root', true]])
    const again = await serving(result.yaml, (server) => pythonSession(server.url, DEFAULT_TOKENS.root))
    expect(again).toEqual(saw)
  }, 60_000)
})
