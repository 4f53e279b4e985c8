/**
 * The Python that can import python-gitlab, for the real-client tests (Debian's python3-gitlab lives
 * in /usr/bin, not behind a pyenv shim). Undefined where none can: those tests skip, saying so.
 */
import { execFileSync } from 'node:child_process'

/** The first of `python3`, `/usr/bin/python3` that imports `gitlab`, or undefined. */
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
