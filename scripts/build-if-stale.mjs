#!/usr/bin/env node
/**
 * `npm start`'s build step (issue 28, item 2): builds only when a build input changed since the last
 * build, so a second `npm start` starts at once instead of rebuilding for ~16 s.
 *
 * The check is a fingerprint, not a guess: the path, size and mtime of every file under the build's
 * inputs ({@link BUILD_INPUTS}: src/ without src/generated/, which the build derives from scenarios/,
 * scenarios/, scripts/, package.json, package-lock.json, tsconfig*.json), hashed. `npm run build`
 * writes it to dist/.build-stamp as its last step (`--stamp`); the build is stale when the stamp is
 * missing, differs from the fingerprint now (a file was edited, added, removed or renamed), or a
 * file `bin/fakelab` needs is missing. Sizes and mtimes rather than contents keep it to a few
 * milliseconds; an edit that keeps both size and mtime (rare outside `touch -r`) goes unseen.
 *
 *   node scripts/build-if-stale.mjs          builds (`npm run build`) when stale, else says it is current
 *   node scripts/build-if-stale.mjs --stamp  writes dist/.build-stamp (the last step of `npm run build`)
 *   node scripts/build-if-stale.mjs --check  exit 0 when current, 1 when stale (prints why)
 *
 * Usable as a module (`fingerprint`, `staleness`, `writeStamp`).
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** What the build reads, relative to the package root: directories (walked) and files. */
export const BUILD_INPUTS = ['src', 'scenarios', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']
/** Build outputs under an input directory: the build rewrites them, so they are not inputs. */
const EXCLUDED = new Set([join('src', 'generated')])
/** What `bin/fakelab` runs: without these the build is stale whatever the stamp says. */
const OUTPUTS = [join('dist', 'cli.js'), join('dist', 'cli.cjs'), join('dist', 'index.js'), join('dist', 'scenario.schema.json')]
/** Where `npm run build` leaves its fingerprint. */
export const STAMP = join('dist', '.build-stamp')

/**
 * The fingerprint of the build inputs under `root`: a sha256 (hex) over `path size mtimeMs` of each
 * file, sorted by path. A missing input contributes nothing (package-lock.json may be absent).
 */
export function fingerprint(root = ROOT) {
  const lines = []
  const visit = (path) => {
    const rel = relative(root, path)
    if (EXCLUDED.has(rel)) return
    let stat
    try {
      stat = statSync(path)
    } catch {
      return
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name))
    } else if (stat.isFile()) {
      lines.push(`${rel.split(sep).join('/')} ${stat.size} ${stat.mtimeMs}`)
    }
  }
  for (const input of BUILD_INPUTS) visit(join(root, input))
  lines.sort()
  return createHash('sha256').update(lines.join('\n')).digest('hex')
}

/**
 * Why the build under `root` is stale, or `undefined` when it is current.
 * @returns a short reason, e.g. `no dist/cli.js` or `sources changed since the last build`.
 */
export function staleness(root = ROOT) {
  for (const output of OUTPUTS) if (!existsSync(join(root, output))) return `no ${output.split(sep).join('/')}`
  let stamp
  try {
    stamp = readFileSync(join(root, STAMP), 'utf8').trim()
  } catch {
    return `no ${STAMP.split(sep).join('/')}`
  }
  return stamp === fingerprint(root) ? undefined : 'sources changed since the last build'
}

/** Writes `print` (default: the fingerprint now) to dist/.build-stamp under `root`. */
export function writeStamp(root = ROOT, print = fingerprint(root)) {
  const path = join(root, STAMP)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${print}\n`)
  return path
}

/** `npm run build` in `root`, through the npm that runs this script when there is one. */
function runBuild(root) {
  const npm = process.env.npm_execpath
  const [command, args] = npm && /npm-cli\.[cm]?js$/.test(npm) ? [process.execPath, [npm, 'run', 'build']] : ['npm', ['run', 'build']]
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' && command === 'npm' })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = ROOT
  const mode = process.argv[2]
  if (mode === '--stamp') {
    writeStamp(root)
  } else if (mode === '--check') {
    const why = staleness(root)
    console.log(why === undefined ? 'fakelab: build is current' : `fakelab: build is stale: ${why}`)
    process.exit(why === undefined ? 0 : 1)
  } else {
    const why = staleness(root)
    if (why === undefined) {
      console.log('fakelab: build is current (no source changed since the last build), not rebuilding')
    } else {
      console.log(`fakelab: building (${why})`)
      // The fingerprint from before the build: a file edited while it ran makes the next start rebuild.
      const before = fingerprint(root)
      const run = runBuild(root)
      if (run.status !== 0) process.exit(run.status ?? 1)
      writeStamp(root, before)
    }
  }
}
