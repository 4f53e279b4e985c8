/**
 * Git reference names as branch and tag routes and the scenario's `repository:` section check them.
 * A module of its own, without the scenario section's imports: a route that checks a branch name
 * would otherwise load zod and the scenario scalars with `repository.scenario.ts` (1.7 MB of a
 * server's heap that only a scenario needs; issue 39 item 5).
 * Source: git's `check-ref-format` rules (refs.c `check_refname_format`).
 * @module
 */

/** A git reference name as `git check-ref-format --branch` accepts it (the common rules). */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false
  if (name.includes('..') || name.includes('//') || name.includes('@{') || /[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'))
}
