/**
 * fakelab as a new user meets it (issue 12, "Tried as a new user would"): the packed tarball
 * installed in a separate project (`test/support/scratch-project.ts`: `npm pack`, then `npm ci`
 * offline from the npm cache), then `tsc --noEmit` on a consumer file that uses every entry's
 * public types (`consumer/types.ts`, `fakelab/default-scenario` included) and a vitest suite run
 * there against `fakelab`, `fakelab/msw`, `fakelab/node` and `fakelab/scenario.schema.json`
 * (`consumer/entries.spec.ts`), plus the `fakelab` bin (`validate`, and `serve` for python-gitlab).
 */
import { execFile, spawn } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPython } from '../support/clients.js'
import { createScratchProject, type ScratchProject } from '../support/scratch-project.js'

const CONSUMER = join(import.meta.dirname, 'consumer')
let project: ScratchProject

beforeAll(async () => {
  project = await createScratchProject()
  if (!project.offline) console.info('scratch project: npm ci --offline missed the cache; installed from the registry')
  for (const name of readdirSync(CONSUMER)) project.write(name, readFileSync(join(CONSUMER, name), 'utf8'))
}, 180_000)
afterAll(() => project?.dispose())

describe('the packed package in a separate project', () => {
  it('installs from the tarball with its exports map and files', async () => {
    const installed = JSON.parse(readFileSync(join(project.dir, 'node_modules', 'fakelab', 'package.json'), 'utf8'))
    expect(`${installed.name}@${installed.version}`).toBe(project.installed)
    expect(Object.keys(installed.exports)).toEqual(expect.arrayContaining(['.', './msw', './node']))
    expect(installed.scripts?.prepare).toBeUndefined() // no install script shown to consumers
    const shipped = readdirSync(join(project.dir, 'node_modules', 'fakelab')).sort()
    // What a user reads offline too (issue 28: ready to publish): the docs the README links, the changelog, the schema.
    expect(shipped).toEqual(expect.arrayContaining(['CHANGELOG.md', 'LICENSE', 'README.md', 'bin', 'dist', 'docs', 'fixtures', 'package.json', 'scenarios', 'schemas']))
    expect(readdirSync(join(project.dir, 'node_modules', 'fakelab', 'docs'))).toEqual(expect.arrayContaining(['install.md', 'cli.md', 'testing.md']))
    expect(installed.engines).toEqual({ node: '>=20.19' })
    expect(installed.publishConfig).toEqual({ provenance: true })
    expect(shipped).not.toContain('src')
    expect(shipped).not.toContain('test')
  })

  it('type-checks a consumer file using every entry\'s public types (tsc --noEmit)', async () => {
    await expect(project.exec('npx', ['tsc', '--noEmit', '-p', '.'])).resolves.toBeDefined()
  }, 180_000)

  it('runs a vitest suite against fakelab, fakelab/msw and fakelab/node', async () => {
    const { stdout } = await project.exec('npx', ['vitest', 'run', '--reporter=verbose', 'entries.spec.ts'], { env: { CI: '1', NO_COLOR: '1' } })
    expect(stdout).toMatch(/Tests\s+5 passed \(5\)/)
  }, 180_000)

  it('runs the fakelab bin: validate the embedded default scenario', async () => {
    const { stdout } = await project.exec('npx', ['fakelab', 'validate', 'node_modules/fakelab/scenarios/default.yaml'])
    expect(stdout).toContain('default.yaml')
  }, 60_000)

  it.skipIf(findPython() === undefined)('serves python-gitlab from the installed bin (fakelab serve --port 0)', async () => {
    const child = spawn(join(project.dir, 'node_modules', '.bin', 'fakelab'), ['serve', '--port', '0'], { cwd: project.dir, stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const [chunk] = (await once(child.stdout!, 'data')) as [Buffer]
      const url = chunk.toString().split('\n')[0]!.trim()
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const script = [
        'import sys, gitlab',
        'gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-max-fakelab")',
        'print(gl.version()[0], ",".join(l.name for l in gl.projects.get("acme/website").labels.list(per_page=2)))',
      ].join('\n')
      const out = await new Promise<string>((resolve, reject) =>
        execFile(findPython()!, ['-W', 'ignore', '-c', script, url], { timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim()))),
      )
      expect(out).toMatch(/^13\.12\.15 .+,.+/)
    } finally {
      child.kill('SIGINT')
      await once(child, 'exit')
    }
  }, 90_000)
})
