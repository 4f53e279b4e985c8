/**
 * `fakelab serve --port 0` as a child process (issue 13: determinism, concurrency and soak run
 * against separately started servers). Runs `node bin/fakelab` (dist/, built by `npm test`).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = join(ROOT, 'bin', 'fakelab')
/** The banner's last line: off a terminal the banner goes to stderr (issue 38 item 5). */
const BANNER_END = 'Press Ctrl+C to stop.\n'

/** A running `fakelab serve`. */
export interface ServedFakelab {
  /** Its origin, `http://127.0.0.1:<port>`. */
  url: string
  /** The child's pid. */
  pid: number
  /** Stops the child (SIGKILL) and waits until it has exited. */
  stop(): Promise<void>
}

/**
 * Starts `fakelab serve --port 0 --log off` with extra `args`, and resolves once its banner has
 * printed the URL. FAKELAB_* variables of the parent are not passed on.
 * @throws Error when the process exits before printing its banner.
 */
export async function serveFakelab(args: string[] = []): Promise<ServedFakelab> {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) env[name] = value
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log', 'off', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
      if (stderr.includes(BANNER_END)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`fakelab serve exited (${code}): ${stderr}`)))
  })
  const url = stdout.slice(0, stdout.indexOf('\n')).trim()
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}
