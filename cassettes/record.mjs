// Re-records the verify corpus and the round-trip cassettes: for each session (the corpus's
// python-gitlab, @gitbeaker/rest and curl sessions, cassettes/<name>.har; the round trip's
// python-gitlab, @gitbeaker/rest, Ruby gem and curl sessions, cassettes/roundtrip/<client>.har), a
// fresh local upstream (`fakelab serve` on the default scenario: it stands in for GitLab), a
// `fakelab record` proxy in front of it, the session run through the proxy, then SIGINT, which
// writes the cassette. Run `npm run build` first (this uses bin/fakelab, so dist/).
// The Ruby session needs Debian's ruby-gitlab (`apt-get install ruby-gitlab`), the python ones
// python3-gitlab: re-recording runs where they are installed; tests replay the checked-in cassettes.
// Usage: node cassettes/record.mjs [name...]  (npm run corpus; names as in SESSIONS below)
import { execFileSync, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = join(HERE, '..')
const BIN = join(ROOT, 'bin', 'fakelab')

/** The first python with python-gitlab (Debian's python3-gitlab lives under /usr/bin). */
function findPython() {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(candidate, ['-c', 'import gitlab'], { stdio: 'ignore' })
      return candidate
    } catch {
      // try the next one
    }
  }
  throw new Error('no python3 with python-gitlab (apt-get install python3-gitlab)')
}

const SESSIONS = {
  'python-gitlab': (url) => [findPython(), ['-W', 'ignore', join(HERE, 'sessions', 'python_gitlab_session.py'), url]],
  gitbeaker: (url) => [process.execPath, [join(HERE, 'sessions', 'gitbeaker-session.mjs'), url]],
  curl: (url) => ['sh', [join(HERE, 'sessions', 'curl-session.sh'), url]],
  'roundtrip/python-gitlab': (url) => [findPython(), ['-W', 'ignore', join(HERE, 'sessions', 'roundtrip_python_gitlab.py'), url]],
  'roundtrip/gitbeaker': (url) => [process.execPath, [join(HERE, 'sessions', 'roundtrip-gitbeaker.mjs'), url]],
  'roundtrip/ruby-gitlab': (url) => ['ruby', [join(HERE, 'sessions', 'roundtrip_ruby_gitlab.rb'), url]],
  'roundtrip/curl': (url) => ['sh', [join(HERE, 'sessions', 'roundtrip-curl.sh'), url]],
}

/** Starts `fakelab <args>` and resolves with the child and the URL it prints first. */
function startFakelab(args) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fakelab ${args[0]} printed no URL: ${stderr}`)), 15_000)
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk
      const line = stdout.split('\n')[0]
      if (stdout.includes('\n') && /^https?:\/\//.test(line)) {
        clearTimeout(timer)
        resolve({ child, url: line.trim(), stderr: () => stderr })
      }
    })
    child.once('exit', (code) => reject(new Error(`fakelab ${args[0]} exited ${code}: ${stderr}`)))
  })
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))))
  })
}

function stop(child, signal = 'SIGINT') {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SESSIONS)
for (const name of names) {
  const upstream = await startFakelab(['serve', '--port', '0', '--log', 'off'])
  const out = join(HERE, `${name}.har`)
  const recorder = await startFakelab(['record', '--target', upstream.url, '--port', '0', '--out', out])
  try {
    const [command, args] = SESSIONS[name](recorder.url)
    await run(command, args)
  } finally {
    await stop(recorder.child)
    await stop(upstream.child, 'SIGTERM')
  }
  // The upstream's port changes every run: name it gitlab.example.com, so a re-recording diffs
  // only where answers changed.
  const text = readFileSync(out, 'utf8')
  const hosts = [new URL(upstream.url).host, new URL(recorder.url).host]
  writeFileSync(out, hosts.reduce((t, host) => t.split(host).join('gitlab.example.com'), text).split('git@127.0.0.1:').join('git@gitlab.example.com:'))
  process.stdout.write(`recorded ${out}\n`)
}
