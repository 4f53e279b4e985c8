/**
 * Starting from a clone (issue 28, item 2): `npm start` builds only when a build input changed
 * (scripts/build-if-stale.mjs, its `prestart`), and `bin/fakelab` in a clone that was never built
 * says what to run in one line. Both run in throwaway package roots (copies of the real bin and
 * script), so neither needs nor touches this checkout's dist/. Children are bounded by a timeout.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const CHILD_TIMEOUT_MS = 20_000

/** The environment without npm's and fakelab's variables, so the children find `npm` on PATH. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!/^(npm_|FAKELAB_)/i.test(name)) env[name] = value
  return { ...env, NO_COLOR: '1' }
}

/** Runs `node <script> ...args` in `cwd` to completion. */
function node(cwd: string, script: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [script, ...args], { cwd, env: cleanEnv(), encoding: 'utf8', timeout: CHILD_TIMEOUT_MS })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

let root: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'fakelab-build-'))
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('bin/fakelab before a build', () => {
  it.each([[['serve']], [['validate', 'x.yaml']], [[]]])('fakelab %j prints what to run, one line, exit 1', (args) => {
    const pkg = join(root, 'unbuilt')
    mkdirSync(join(pkg, 'bin'), { recursive: true })
    for (const file of ['fakelab', 'package.json']) copyFileSync(join(REPO, 'bin', file), join(pkg, 'bin', file))
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'fakelab', type: 'module' }))
    const run = node(pkg, join(pkg, 'bin', 'fakelab'), ...args)
    expect(run).toEqual({ status: 1, stdout: '', stderr: `fakelab: not built yet: run npm run build (or npm start) in ${pkg}\n` })
  })

  // What `npm install <git URL>` gives (npm builds a git dependency only through `prepare`; issue 28).
  it.each([['node_modules', 'fakelab'], ['node_modules', '@scope', 'fakelab']])('installed as a dependency (%s/%s) without dist/, points to the tarball', (...path) => {
    const pkg = join(root, 'consumer', ...path)
    mkdirSync(join(pkg, 'bin'), { recursive: true })
    for (const file of ['fakelab', 'package.json']) copyFileSync(join(REPO, 'bin', file), join(pkg, 'bin', file))
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'fakelab', type: 'module' }))
    const run = node(join(root, 'consumer'), join(pkg, 'bin', 'fakelab'), 'serve')
    expect(run).toEqual({ status: 1, stdout: '', stderr: `fakelab: ${pkg} has no build (dist/ is missing, as an install from a git URL gives); install the tarball npm pack writes in a clone instead (docs/install.md)\n` })
  })
})

describe('npm start builds only when sources changed', () => {
  /** A package root whose `npm run build` writes the outputs bin/fakelab needs and counts its runs. */
  let pkg: string
  const builds = (): number => readFileSync(join(pkg, 'builds.log'), 'utf8').length
  const start = (): { status: number | null; stdout: string; stderr: string } => node(pkg, join(pkg, 'scripts', 'build-if-stale.mjs'))
  const later = (path: string): void => {
    const future = new Date(Date.now() + 60_000)
    utimesSync(path, future, future)
  }

  beforeAll(() => {
    pkg = join(root, 'clone')
    for (const dir of ['src/generated', 'scenarios', 'scripts']) mkdirSync(join(pkg, dir), { recursive: true })
    copyFileSync(join(REPO, 'scripts', 'build-if-stale.mjs'), join(pkg, 'scripts', 'build-if-stale.mjs'))
    writeFileSync(join(pkg, 'src', 'a.ts'), 'export const a = 1\n')
    writeFileSync(join(pkg, 'src', 'generated', 'default-scenario.ts'), 'export const y = 1\n')
    writeFileSync(join(pkg, 'scenarios', 'default.yaml'), 'version: 1\n')
    writeFileSync(join(pkg, 'builds.log'), '')
    writeFileSync(
      join(pkg, 'scripts', 'fake-build.cjs'),
      [
        "const fs = require('node:fs')",
        "fs.mkdirSync('dist', { recursive: true })",
        "for (const f of ['cli.js', 'cli.cjs', 'index.js', 'scenario.schema.json']) fs.writeFileSync('dist/' + f, '')",
        "fs.appendFileSync('builds.log', 'x')",
        '',
      ].join('\n'),
    )
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'clone', type: 'module', scripts: { build: 'node scripts/fake-build.cjs' } }))
  })

  // In order: each step starts from the state the one before left.
  const steps: Array<[string, () => void, string | undefined]> = [
    ['never built', () => {}, 'no dist/cli.js'],
    ['nothing changed', () => {}, undefined],
    ['a source edited', () => writeFileSync(join(pkg, 'src', 'a.ts'), 'export const a = 22\n'), 'sources changed since the last build'],
    ['a source touched', () => later(join(pkg, 'src', 'a.ts')), 'sources changed since the last build'],
    ['a scenario added', () => writeFileSync(join(pkg, 'scenarios', 'more.yaml'), 'version: 1\n'), 'sources changed since the last build'],
    ['a scenario removed', () => rmSync(join(pkg, 'scenarios', 'more.yaml')), 'sources changed since the last build'],
    ['package.json edited', () => later(join(pkg, 'package.json')), 'sources changed since the last build'],
    ['src/generated rewritten (a build output)', () => writeFileSync(join(pkg, 'src', 'generated', 'default-scenario.ts'), 'export const y = 2\n'), undefined],
    ['a test or doc edited (not a build input)', () => writeFileSync(join(pkg, 'README.md'), '# x\n'), undefined],
    ['the bundle deleted', () => rmSync(join(pkg, 'dist', 'cli.cjs')), 'no dist/cli.cjs'],
    ['the stamp deleted', () => rmSync(join(pkg, 'dist', '.build-stamp')), 'no dist/.build-stamp'],
    ['nothing changed again', () => {}, undefined],
  ]
  let expected = 0
  it.each(steps)('%s: rebuilds only when stale', (_name, change, why) => {
    change()
    const run = start()
    if (why !== undefined) expected++
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe(
      why === undefined ? 'fakelab: build is current (no source changed since the last build), not rebuilding' : `fakelab: building (${why})`,
    )
    expect(builds()).toBe(expected)
  })

  it('a failing build fails npm start with its status and leaves the build stale', () => {
    writeFileSync(join(pkg, 'src', 'a.ts'), 'export const a = 333\n')
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'clone', type: 'module', scripts: { build: 'node -e "process.exit(3)"' } }))
    expect(start().status).toBe(3)
    expect(node(pkg, join(pkg, 'scripts', 'build-if-stale.mjs'), '--check')).toMatchObject({
      status: 1,
      stdout: 'fakelab: build is stale: sources changed since the last build\n',
    })
  })
})

describe('npm run build leaves the stamp npm start reads', () => {
  it('package.json: build ends with --stamp, prestart runs the check', () => {
    const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    expect(scripts.build).toMatch(/&& node scripts\/build-if-stale\.mjs --stamp$/)
    expect(scripts.prestart).toBe('node scripts/build-if-stale.mjs')
  })
})
