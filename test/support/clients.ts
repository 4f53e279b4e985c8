/**
 * Helpers the real-client tests share: finding a Python that has python-gitlab, and the HTTP status
 * of a failed @gitbeaker/rest call.
 */
import { execFileSync } from 'node:child_process'

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

/** The status of the response a gitbeaker call failed with, or undefined when it succeeded. */
export async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call
    return undefined
  } catch (error) {
    return (error as { cause?: { response?: Response } }).cause?.response?.status
  }
}
