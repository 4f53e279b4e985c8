#!/usr/bin/env node
/**
 * Runs python-gitlab 3.12's whole functional suite as its maintainers run it (upstream's own
 * conftest and fixtures creating its groups, projects and users through the API; `tests/functional/api`
 * and `tests/functional/cli` as two pytest sessions, as tox's `api_func_v4` and `cli_func_v4` do)
 * against `fakelab serve` on a scenario holding only the administrator and upstream's token
 * (test/clients/upstream/python-gitlab/upstream.yaml), and prints the per-file counts.
 *
 * Docker is replaced by fakelab: test/clients/upstream/python-gitlab/fakelab_upstream.py (a pytest
 * plugin standing in for pytest-docker's and pytest-console-scripts' fixtures) and
 * docker-stand-in.sh (the `docker` command the conftest calls). Nothing of python-gitlab is copied.
 *
 * Usage: node scripts/python-gitlab-suite.mjs --src <python-gitlab v3.12.0 tree> [--suite api|cli|all]
 *          [--json <file>] [-- <extra pytest args, e.g. -k test_variables>]
 * Needs dist/ (npm run build), Debian's python3-gitlab, python3-pytest and python3-responses.
 * Exit status: 0 when the suites ran (whatever they counted), 2 when they could not run.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const HERE = join(ROOT, 'test', 'clients', 'upstream', 'python-gitlab')

function usage(message) {
  console.error(`python-gitlab-suite: ${message}\nusage: node scripts/python-gitlab-suite.mjs --src <python-gitlab v3.12.0 tree> [--suite api|cli|all] [--json <file>] [-- <pytest args>]`)
  process.exit(2)
}

function parseArgs(argv) {
  const options = { src: process.env.PYTHON_GITLAB_SRC, suite: 'all', json: undefined, extra: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      options.extra = argv.slice(i + 1)
      break
    }
    if (arg === '--src') options.src = argv[++i]
    else if (arg === '--suite') options.suite = argv[++i]
    else if (arg === '--json') options.json = argv[++i]
    else usage(`unknown argument ${arg}`)
  }
  if (!options.src) usage('--src (or PYTHON_GITLAB_SRC) is required')
  if (!['api', 'cli', 'all'].includes(options.suite)) usage(`--suite must be api, cli or all, not ${options.suite}`)
  return options
}

/** Starts `fakelab serve --port 0` on the upstream scenario; resolves to its URL and a stop function. */
function serve() {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'fakelab'), 'serve', '--port', '0', '--log', 'off', '--scenario', join(HERE, 'upstream.yaml')], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error('fakelab serve printed no URL within 30 s')), 30_000)
    child.stdout.on('data', (chunk) => {
      text += chunk
      const url = /^(http:\/\/\S+)/m.exec(text)?.[1]
      if (url) {
        clearTimeout(timer)
        child.stdout.removeAllListeners('data')
        child.stdout.resume()
        resolve({ url, stop: () => child.kill('SIGTERM') })
      }
    })
    child.on('exit', (code) => reject(new Error(`fakelab serve exited with ${code}`)))
  })
}

/** The test cases of a JUnit XML report: file, name, outcome. */
function readJunit(path) {
  const xml = readFileSync(path, 'utf8')
  const cases = []
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    const body = match[3] ?? ''
    const outcome = /<skipped\b/.test(body) ? 'skipped' : /<failure\b/.test(body) ? 'failed' : /<error\b/.test(body) ? 'error' : 'passed'
    const file = (attrs.file ?? `${(attrs.classname ?? '').replace(/\./g, '/')}.py`).replace(/^.*tests\/functional\//, '')
    cases.push({ file, name: attrs.name, outcome })
  }
  return cases
}

/** The first Python that imports what the suite needs (Debian's, in /usr/bin, where another python3 comes first). */
function findPython() {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    if (spawnSync(candidate, ['-c', 'import gitlab, pytest, responses, requests_toolbelt'], { stdio: 'ignore' }).status === 0) return candidate
  }
  usage('no python3 imports gitlab, pytest, responses and requests_toolbelt (apt-get install python3-gitlab python3-pytest python3-responses)')
}

/** Runs one suite (`api` or `cli`) against a fresh server; returns its test cases. */
async function runSuite(suite, options, bin) {
  const { url, stop } = await serve()
  const report = join(bin, `${suite}.xml`)
  try {
    const pytest = spawnSync(options.python, ['-m', 'pytest', `tests/functional/${suite}`, '-p', 'fakelab_upstream', '-q', '-rN', '--junitxml', report, '-o', 'junit_family=xunit1', ...options.extra], {
      cwd: options.src,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, FAKELAB_URL: url, PATH: `${bin}:${process.env.PATH}`, PYTHONPATH: [HERE, options.src, process.env.PYTHONPATH].filter(Boolean).join(':') },
      timeout: 40 * 60_000,
    })
    if (pytest.error) throw pytest.error
    return readJunit(report)
  } finally {
    stop()
  }
}

const options = { ...parseArgs(process.argv.slice(2)), python: findPython() }
const bin = mkdtempSync(join(tmpdir(), 'fakelab-pg-'))
symlinkSync(join(HERE, 'docker-stand-in.sh'), join(bin, 'docker'))
// Upstream's CLI tests run the console script `gitlab`; Debian's python3-gitlab names it `python-gitlab`.
if (spawnSync('sh', ['-c', 'command -v gitlab'], { stdio: 'ignore' }).status !== 0) {
  const debian = spawnSync('sh', ['-c', 'command -v python-gitlab'], { encoding: 'utf8' }).stdout.trim()
  if (debian) symlinkSync(debian, join(bin, 'gitlab'))
}
try {
  const cases = []
  for (const suite of options.suite === 'all' ? ['api', 'cli'] : [options.suite]) cases.push(...(await runSuite(suite, options, bin)))
  const byFile = new Map()
  for (const c of cases) {
    const row = byFile.get(c.file) ?? { passed: 0, failed: 0, error: 0, skipped: 0 }
    row[c.outcome]++
    byFile.set(c.file, row)
  }
  const lines = [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([file, r]) => `${file.padEnd(40)} ${String(r.passed).padStart(4)} passed ${String(r.failed + r.error).padStart(4)} failed ${String(r.skipped).padStart(4)} skipped`)
  const total = (kind) => cases.filter((c) => c.outcome === kind).length
  console.log(['', 'python-gitlab 3.12 functional suite against fakelab, per file:', ...lines, `${'total'.padEnd(40)} ${String(total('passed')).padStart(4)} passed ${String(total('failed') + total('error')).padStart(4)} failed ${String(total('skipped')).padStart(4)} skipped`].join('\n'))
  if (options.json) writeFileSync(options.json, JSON.stringify({ cases, byFile: Object.fromEntries(byFile) }, null, 2))
} catch (error) {
  console.error(`python-gitlab-suite: ${error.message}`)
  process.exitCode = 2
} finally {
  rmSync(bin, { recursive: true, force: true })
}
