#!/usr/bin/env node
/**
 * Writes src/generated/default-scenario.ts: the text of scenarios/default.yaml as a string constant,
 * so the browser-safe `fakelab` entry can hand the default scenario to a simulator without reading
 * a file (issue 12). scenarios/default.yaml stays the one source: the output is git-ignored and
 * rewritten before every build, type-check and vitest run (package.json scripts, vitest.config.ts).
 * Writes only when the text changed, so watchers do not loop. Usable as a module (`embedDefaultScenario`)
 * or run directly.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Regenerates src/generated/default-scenario.ts from scenarios/default.yaml.
 * @returns the path written (or left as it was, when already current).
 */
export function embedDefaultScenario(root = ROOT) {
  const yaml = readFileSync(join(root, 'scenarios', 'default.yaml'), 'utf8')
  const out = join(root, 'src', 'generated', 'default-scenario.ts')
  const text = [
    '// Generated from scenarios/default.yaml by scripts/embed-default-scenario.mjs: do not edit, do not commit.',
    '/** The text of the embedded default scenario (`scenarios/default.yaml`), YAML. */',
    `export const DEFAULT_SCENARIO_YAML: string = ${JSON.stringify(yaml)}`,
    '',
  ].join('\n')
  let current
  try {
    current = readFileSync(out, 'utf8')
  } catch {
    current = undefined
  }
  if (current !== text) {
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, text)
  }
  return out
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) embedDefaultScenario()
