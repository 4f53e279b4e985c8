/**
 * Whether the `git` CLI is on the PATH, for the end-to-end tests whose tool drives git itself
 * (semantic-release, Renovate): they skip without it, or fail under CI.
 */
import { execFileSync } from 'node:child_process'

/** True when `git --version` runs. */
export function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
