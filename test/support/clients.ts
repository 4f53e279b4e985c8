/**
 * Helpers the real-client tests share: the HTTP status of a failed @gitbeaker/rest call, and
 * finding and running a Python that has python-gitlab (Debian's python3-gitlab).
 */
import { execFile, execFileSync } from 'node:child_process'

/** The status of the error a gitbeaker call rejects with, or undefined when it succeeds. */
export async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call
    return undefined
  } catch (error) {
    return (error as { cause?: { response?: Response } }).cause?.response?.status
  }
}

/** The first Python that can import python-gitlab (Debian's lives in /usr/bin, not a pyenv shim). */
export function findPython(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(candidate, ['-c', 'import gitlab'], { stdio: 'ignore' })
      return candidate
    } catch {
      // try the next one
    }
  }
  return undefined
}

/** Runs a python-gitlab script with the server URL as its argument; resolves to its stdout. */
export function runPython(python: string, script: string, url: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(python, ['-W', 'ignore', script, url], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    )
  })
}
