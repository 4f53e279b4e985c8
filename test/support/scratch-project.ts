/**
 * A consumer project with the packed package installed, as a new user gets it (issue 12, "Tried as
 * a new user would"): `npm pack` of this repository, then `npm ci` in a temporary directory of a
 * project depending on the tarball, `vitest`, `msw`, `typescript` and `@types/node`.
 *
 * Offline first: `npm install <tarball> vitest msw --offline` cannot work on a clean CI machine,
 * because `npm ci` of this repository caches package tarballs but not the registry's package
 * documents a fresh resolution needs (ENOTCACHED). So the scratch project gets a lockfile made from
 * this repository's own `package-lock.json` (the closure of the packages it installs, plus the
 * tarball's entry with its integrity), and `npm ci --offline` takes every tarball from the npm
 * cache that this repository's `npm ci` filled, at the versions this repository tests with. When
 * the cache lacks one (a cleaned cache), the same `npm ci` runs again with `--prefer-offline`
 * against the registry. Install scripts are skipped (`--ignore-scripts`): the point is what the
 * package ships, and none of these packages needs one to run here (msw's only copies its worker).
 * @module
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The repository root. */
export const REPO = resolve(import.meta.dirname, '..', '..')

/** What the scratch project installs besides the tarball (its dev dependencies), by name. */
const CONSUMER_DEPENDENCIES = ['vitest', 'msw', 'typescript', '@types/node'] as const

/** A scratch project; `dispose()` removes it. */
export interface ScratchProject {
  /** Its directory. */
  readonly dir: string
  /** The package name and version installed (`fakelab@0.1.0`). */
  readonly installed: string
  /** Whether `npm ci --offline` sufficed (false: the registry was asked). */
  readonly offline: boolean
  /** Runs a command in the project; rejects with its output when it exits non-zero. */
  exec(file: string, args: readonly string[], options?: { timeout?: number; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }>
  /** Writes a file into the project (relative path). */
  write(path: string, text: string): void
  dispose(): void
}

interface LockEntry {
  version?: string
  resolved?: string
  integrity?: string
  dev?: boolean
  optional?: boolean
  peer?: boolean
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  [key: string]: unknown
}

/** Newest modification time of the files under `dir` (ms). */
function newest(dir: string): number {
  let latest = 0
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(join(dir, name))
    if (stat.isFile() && stat.mtimeMs > latest) latest = stat.mtimeMs
  }
  return latest
}

/**
 * Builds `dist/` when it is missing or older than `src/` (`npm test` has built it already). Test
 * files run in parallel: one builds while the others wait on a lock directory.
 */
async function ensureBuilt(): Promise<void> {
  const built = join(REPO, 'dist', 'index.js')
  const fresh = () => existsSync(built) && statSync(built).mtimeMs >= newest(join(REPO, 'src'))
  const lock = join(tmpdir(), `fakelab-build-${createHash('sha1').update(REPO).digest('hex').slice(0, 12)}`)
  for (let waited = 0; !fresh(); waited += 250) {
    try {
      mkdirSync(lock)
    } catch {
      if (waited > 300_000) throw new Error(`waited 5 minutes for the build lock ${lock}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
      continue
    }
    try {
      if (!fresh()) await run('npm', ['run', 'build'], { cwd: REPO, timeout: 300_000 })
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}

/**
 * The lock entries `roots` need, resolved as Node does (a nested `node_modules` first, then each
 * ancestor's): dependencies, optional dependencies (when the lock has them) and peer dependencies
 * (unless optional and absent).
 */
function closure(lock: Record<string, LockEntry>, roots: Record<string, string>): Record<string, LockEntry> {
  const out: Record<string, LockEntry> = {}
  const find = (name: string, from: string): string | undefined => {
    let base = from
    for (;;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`
      if (lock[candidate]) return candidate
      if (!base) return undefined
      const cut = base.lastIndexOf('/node_modules/')
      base = cut < 0 ? '' : base.slice(0, cut)
    }
  }
  const queue: [string, string][] = Object.keys(roots).map((name) => [name, ''])
  while (queue.length > 0) {
    const [name, from] = queue.shift()!
    const path = find(name, from)
    if (!path || out[path]) continue
    const entry = lock[path]!
    out[path] = entry
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies }
    for (const dep of Object.keys(wanted)) queue.push([dep, path])
  }
  return out
}

/** `sha512-…` of a file, as npm writes `integrity`. */
function integrity(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`
}

/**
 * Packs the repository and installs the tarball in a new temporary project (see the module
 * comment). Takes about 10 s (pack ~1 s, `npm ci` ~5–9 s), plus a build when `dist/` is stale.
 * @throws Error with npm's output when packing or installing fails.
 */
export async function createScratchProject(): Promise<ScratchProject> {
  await ensureBuilt()
  const dir = mkdtempSync(join(tmpdir(), 'fakelab-scratch-'))
  try {
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, timeout: 60_000 })
    const [{ filename, name, version }] = JSON.parse(packed.stdout) as [{ filename: string; name: string; version: string }]
    const tarball = join(dir, filename)
    const repoPkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, Record<string, string>>
    const repoLock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }
    const devDependencies = Object.fromEntries(CONSUMER_DEPENDENCIES.map((dep) => [dep, repoPkg.devDependencies![dep]!]))
    const pkg = { name: 'fakelab-scratch', private: true, type: 'module', dependencies: { [name]: `file:${filename}` }, devDependencies }
    const fakelabEntry: LockEntry = {
      version,
      resolved: `file:${filename}`,
      integrity: integrity(tarball),
      license: repoPkg.license as unknown as string,
      dependencies: repoPkg.dependencies!,
      bin: repoPkg.bin!,
      engines: repoPkg.engines!,
      peerDependencies: repoPkg.peerDependencies!,
      peerDependenciesMeta: repoPkg.peerDependenciesMeta as unknown as LockEntry['peerDependenciesMeta'],
    }
    const packages = {
      '': { name: pkg.name, dependencies: pkg.dependencies, devDependencies },
      [`node_modules/${name}`]: fakelabEntry,
      ...closure(repoLock.packages, { ...repoPkg.dependencies, ...devDependencies }),
    }
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
    writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`)
    const ci = (mode: string) => run('npm', ['ci', mode, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, timeout: 180_000 })
    let offline = true
    try {
      await ci('--offline')
    } catch {
      offline = false
      await ci('--prefer-offline')
    }
    return {
      dir,
      installed: `${name}@${version}`,
      offline,
      async exec(file, args, options = {}) {
        try {
          return await run(file, [...args], { cwd: dir, timeout: options.timeout ?? 150_000, env: { ...process.env, ...options.env }, maxBuffer: 16 * 1024 * 1024 })
        } catch (error) {
          // execFile's message has stderr only; tsc and vitest report on stdout.
          const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
          throw new Error(`${file} ${args.join(' ')} failed (${(error as Error).message.split('\n')[0]})\n${stdout}\n${stderr}`)
        }
      },
      write(path, text) {
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      },
      dispose: () => rmSync(dir, { recursive: true, force: true }),
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
