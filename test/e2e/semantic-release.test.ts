/**
 * semantic-release end to end against fakelab (issue 35's and issue 34's "Done when"): a clone of
 * acme/website (default scenario, served by the node:http door `fakelab serve` runs) made with the
 * git CLI, a `feat:` commit pushed to main, then semantic-release 24 with @semantic-release/gitlab
 * run in that clone (commit-analyzer, release-notes-generator, gitlab with a file asset), GITLAB_URL
 * and GITLAB_TOKEN pointed at fakelab. It pushes the tag and its notes ref over git (with the token
 * under the `gitlab-ci-token` login), uploads the asset and creates the release through the API.
 * Asserted through the API: the tag, the release with its notes, the asset link to an upload.
 * Needs the `git` binary (.ci/run installs it); skipped with a message where it is missing.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer } from '../../src/node.js'
import { hasGit } from '../support/git.js'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
const SEMANTIC_RELEASE = join(ROOT, 'node_modules', 'semantic-release', 'bin', 'semantic-release.js')
const TOKEN = 'glpat-max-fakelab' // max: Maintainer of group acme (the plugin asks for Developer or more, main is protected)

const GIT = hasGit()
if (!GIT) console.warn('test/e2e/semantic-release.test.ts: skipped, no `git` binary on the PATH (semantic-release drives git itself)')

describe.skipIf(!GIT)(`semantic-release with @semantic-release/gitlab against fakelab${GIT ? '' : ' (skipped: no git binary on the PATH)'}`, () => {
  let url: string
  let close: () => Promise<void>
  let dir: string
  const home = mkdtempSync(join(tmpdir(), 'fakelab-sr-home-'))
  const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: home, GIT_AUTHOR_NAME: 'Max', GIT_AUTHOR_EMAIL: 'max@example.com', GIT_COMMITTER_NAME: 'Max', GIT_COMMITTER_EMAIL: 'max@example.com' }
  const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env: gitEnv })).stdout.trim()
  const api = async (path: string) => {
    const res = await fetch(`${url}/api/v4${path}`, { headers: { 'private-token': TOKEN } })
    return { status: res.status, body: (await res.json()) as any }
  }

  beforeAll(async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const server = await startServer(sim, { port: 0 })
    url = server.url
    close = () => Promise.resolve(server.close())
    dir = mkdtempSync(join(tmpdir(), 'fakelab-sr-'))
  })
  afterAll(async () => {
    await close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  })

  it('releases v1.1.0 from a feat: commit: the tag pushed over git, the release with its notes, its asset an upload', async () => {
    // The clone a CI job has: origin without credentials (semantic-release adds GITLAB_TOKEN to push).
    await git(dir, 'clone', `${url}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    writeFileSync(join(w, 'search.txt'), 'search\n')
    writeFileSync(join(w, '.releaserc.json'), `${JSON.stringify({
      branches: ['main'],
      plugins: [
        '@semantic-release/commit-analyzer',
        '@semantic-release/release-notes-generator',
        ['@semantic-release/gitlab', { assets: [{ path: 'dist/site.txt', label: 'Site bundle' }] }],
      ],
    }, null, 2)}\n`)
    await git(w, 'add', '.')
    await git(w, 'commit', '-m', 'feat: add search')
    const sha = await git(w, 'rev-parse', 'HEAD')
    await git(w, 'push', `${url.replace('://', `://max:${TOKEN}@`)}/acme/website.git`, 'main')
    mkdirSync(join(w, 'dist'))
    writeFileSync(join(w, 'dist', 'site.txt'), 'the site, bundled\n')

    const env: Record<string, string> = { ...gitEnv, GITLAB_URL: url, GITLAB_TOKEN: TOKEN }
    for (const name of Object.keys(env)) if (/^(CI|GITLAB_CI|GITHUB_ACTIONS|GH_TOKEN|GITHUB_TOKEN|GL_TOKEN|GIT_CREDENTIALS|BB_TOKEN|BITBUCKET_TOKEN|NPM_TOKEN)$/.test(name)) delete env[name]
    let output: string
    try {
      const result = await run(process.execPath, [SEMANTIC_RELEASE, '--no-ci'], { cwd: w, env, timeout: 120_000 })
      output = result.stdout + result.stderr
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string }
      throw new Error(`semantic-release failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
    }
    expect(output).toContain('Published release 1.1.0 on default channel')

    // The tag semantic-release pushed with `git push --tags`, on the feat commit.
    const tag = await api('/projects/20/repository/tags/v1.1.0')
    expect(tag.status).toBe(200)
    expect(tag.body.commit.id).toBe(sha)
    // Its notes ref (the release's channels), pushed over git, advertised, not a branch or tag.
    const remote = await git(w, 'ls-remote', `${url}/acme/website.git`)
    expect(remote).toMatch(/^[0-9a-f]{40}\trefs\/notes\/semantic-release-v1\.1\.0$/m)

    // The release, with the generated notes and the asset link to the project's upload.
    const release = await api('/projects/20/releases/v1.1.0')
    expect(release.status).toBe(200)
    expect(release.body).toMatchObject({ tag_name: 'v1.1.0', name: 'v1.1.0', commit: { id: sha } })
    expect(release.body.description).toContain('### Features')
    expect(release.body.description).toContain('* add search')
    const links = release.body.assets.links as Array<{ name: string; url: string }>
    expect(links).toHaveLength(1)
    expect(links[0]!.name).toBe('Site bundle')
    expect(links[0]!.url).toMatch(new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/acme/website/uploads/[0-9a-f]{32}/site\\.txt$`))
    const asset = await fetch(links[0]!.url)
    expect([asset.status, await asset.text()]).toEqual([200, 'the site, bundled\n'])
  }, 180_000)
})
