/** Finding the Python that real-client tests run python-gitlab with. */
import { execFileSync } from 'node:child_process'

/** The first Python that can import python-gitlab (Debian's lives in /usr/bin, not a pyenv shim); `undefined` when none can. */
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
