#!/usr/bin/env node
/**
 * Post-build step for a fast `fakelab serve` cold start (issue 5), run by `npm run build` after tsc:
 *
 * 1. `dist/generated/default-state.json`: the embedded default scenario already parsed, checked and
 *    loaded, as a state export (`{ fakelab_state: 1, now, seed, tables }`, what `loadState()` gives
 *    for scenarios/default.yaml). `serve` without `--scenario` loads it straight into the store, so it
 *    needs neither the YAML parser nor the zod checks nor faker at start. test/unit/default-state.test.ts
 *    proves it equals what parsing scenarios/default.yaml gives, so it cannot drift.
 * 2. `dist/cli.js`: the CLI (dist/cli/main.js and everything it imports, npm dependencies included)
 *    bundled by esbuild into one ESM file, so Node resolves and reads one module instead of a few
 *    hundred. It sits directly in dist/, like dist/node.js, so paths relative to it (package.json,
 *    scenarios/, generated/) are the same. `bin/fakelab` runs it; dist/cli/main.js still works.
 *
 * Usable as a module (`buildCli`) or run directly.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Writes dist/generated/default-state.json and dist/cli.js from an already compiled dist/.
 * @returns the paths written.
 */
export async function buildCli(root = ROOT) {
  const dist = join(root, 'dist')
  const { loadState } = await import(pathToFileURL(join(dist, 'simulator.js')).href)
  const { DEFAULT_SCENARIO_YAML } = await import(pathToFileURL(join(dist, 'generated', 'default-scenario.js')).href)
  const loaded = loadState(DEFAULT_SCENARIO_YAML)
  const statePath = join(dist, 'generated', 'default-state.json')
  mkdirSync(dirname(statePath), { recursive: true })
  writeFileSync(statePath, JSON.stringify({ fakelab_state: 1, now: loaded.now, seed: loaded.seed, tables: loaded.state }))

  const cliPath = join(dist, 'cli.js')
  await build({
    entryPoints: [join(dist, 'cli', 'main.js')],
    outfile: cliPath,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // CommonJS dependencies bundled into an ES module call `require` for Node's built-ins.
    banner: { js: "import { createRequire as __fakelabRequire } from 'node:module'; const require = __fakelabRequire(import.meta.url);" },
  })
  return [statePath, cliPath]
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli()
