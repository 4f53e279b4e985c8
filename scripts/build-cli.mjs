#!/usr/bin/env node
/**
 * Post-build step for a fast `fakelab serve` cold start (issue 5), run by `npm run build` after tsc:
 *
 * 1. `dist/generated/default-state.json`: the embedded default scenario already parsed, checked and
 *    loaded, as a state export (`{ fakelab_state: 1, now, seed, tables }`, what `loadState()` gives
 *    for scenarios/default.yaml). `serve` without `--scenario` loads it straight into the store, so it
 *    needs neither the YAML parser nor the zod checks nor faker at start. test/unit/default-state.test.ts
 *    proves it equals what parsing scenarios/default.yaml gives, so it cannot drift.
 * 2. `dist/cli.cjs`: the CLI (dist/cli/main.js and everything it imports, npm dependencies included)
 *    bundled by esbuild into one file, so Node resolves and reads one module instead of a few
 *    hundred. It sits directly in dist/, like dist/node.js, so paths relative to it (package.json,
 *    scenarios/, generated/) are the same. dist/cli.js (what `bin/fakelab` imports) runs it through
 *    dist/cli-loader.js (scripts/cli-loader.mjs) with
 * 3. `dist/parse5.cjs`: the HTML5 parser the label and milestone sanitiser needs, bundled apart.
 *    The CLI bundle gets scripts/lazy-parse5.mjs in its place, which requires it on the first text
 *    with markup, so a start (and every request that writes no markup) does not pay for it.
 *    The same for the npm packages in LAZY_PACKAGES (issue 27, cold start): each is bundled apart
 *    into `dist/vendor/<name>.cjs`, and the CLI bundle gets a stand-in module with the package's
 *    export names that requires the real one on first use (a call, `new`, or a property read).
 * 4. `dist/cli.cjs.cache`: V8's code cache of the bundle after a start and a first request, so
 *    those functions are not compiled again on every start. dist/cli/main.js still works unbundled.
 *
 * Usable as a module (`buildCli`) or run directly.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * npm packages (as the sources import them) that a `fakelab serve` start does not need: the CLI
 * bundle requires each on first use instead of reading, compiling and running it at every start
 * (issue 27: together about a megabyte of the bundle's source and 15 to 20 ms of its start).
 * Each is only ever used inside functions, which is what a stand-in needs: a module-level use
 * would load it at start, correct but no faster.
 * - `yaml`: scenario files, state exports as text, cassettes (the default state is JSON);
 * - `@faker-js/faker/locale/en`: generated values (the default state holds them already);
 * - `fflate`: repository archives; `diff`: repository file diffs; `cron-parser`: freeze periods;
 * - `qs`: nested query strings (flat ones are parsed without it, `core/params.ts`);
 * - emojibase's JoyPixels shortcodes: award emoji names, read on the first award.
 */
const LAZY_PACKAGES = ['yaml', '@faker-js/faker/locale/en', 'fflate', 'diff', 'cron-parser', 'qs', 'emojibase-data/en/shortcodes/joypixels.json']

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

  // The bundle: CommonJS, so that dist/cli-loader.js can run it through vm.Script with a code cache
  // (an ES module cannot take one on Node 20). `import.meta.url` becomes the bundle's own URL,
  // which sits in dist/ like dist/node.js, so paths relative to it stay right.
  const bundlePath = join(dist, 'cli.cjs')
  const lazyExports = await lazyPackageExports()
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Whitespace only (names and syntax stay as written, so stack traces still name functions):
    // a third less source for every start to read, hash and keep for lazy compilation.
    minifyWhitespace: true,
    logLevel: 'warning',
  }
  await build({
    ...common,
    entryPoints: [join(dist, 'cli', 'main.js')],
    outfile: bundlePath,
    plugins: [lazyParse5(root), lazyPackages(lazyExports)],
    define: { 'import.meta.url': '__fakelabImportMetaUrl' },
    banner: { js: "var __fakelabImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  })
  const parse5Path = join(dist, 'parse5.cjs')
  await build({
    ...common,
    stdin: { contents: "export { parseFragment } from 'parse5'", resolveDir: root },
    outfile: parse5Path,
  })
  rmSync(join(dist, 'vendor'), { recursive: true, force: true })
  for (const spec of LAZY_PACKAGES) {
    // `export *` does not carry a default export: the sources import qs and the JSON by theirs.
    const contents = [...(spec.endsWith('.json') ? [] : [`export * from '${spec}'`]), ...('default' in lazyExports[spec] ? [`export { default } from '${spec}'`] : [])].join('\n')
    await build({ ...common, stdin: { contents, resolveDir: root }, outfile: join(dist, vendorFile(spec)) })
  }
  copyFileSync(join(root, 'scripts', 'cli-loader.mjs'), join(dist, 'cli-loader.js'))
  const cliPath = join(dist, 'cli.js')
  writeFileSync(cliPath, [
    '// The fakelab CLI (bin/fakelab): the bundle dist/cli.cjs, with its code cache. Written by scripts/build-cli.mjs.',
    "import { compileCli, readCodeCache, runCli } from './cli-loader.js'",
    '',
    'runCli(compileCli(readCodeCache()))',
    '',
  ].join('\n'))
  writeCodeCache(dist)
  return [statePath, bundlePath, parse5Path, cliPath]
}

/**
 * The esbuild plugin that gives the CLI bundle scripts/lazy-parse5.mjs for `parse5`, and leaves
 * its `require('./parse5.cjs')` to run time.
 */
function lazyParse5(root) {
  return {
    name: 'lazy-parse5',
    setup(build) {
      build.onResolve({ filter: /^parse5$/ }, () => ({ path: join(root, 'scripts', 'lazy-parse5.mjs') }))
      build.onResolve({ filter: /^\.\/parse5\.cjs$/ }, (args) => ({ path: args.path, external: true }))
    },
  }
}

/** Where a lazy package's own bundle goes, relative to dist/ (and to the CLI bundle). */
function vendorFile(spec) {
  return `vendor/${spec.replace(/\.json$/, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.cjs`
}

/**
 * Each lazy package's exports as the sources see them: name → `'object'` (a stand-in forwarding
 * property reads), `'function'` (forwarding calls, `new` and property reads) or, for anything else,
 * the value itself as JSON (a constant is copied into the stand-in).
 */
async function lazyPackageExports() {
  const require = createRequire(import.meta.url)
  const kinds = {}
  for (const spec of LAZY_PACKAGES) {
    const namespace = spec.endsWith('.json') ? { default: require(spec) } : await import(spec)
    kinds[spec] = Object.fromEntries(Object.entries(namespace).map(([name, value]) => [
      name,
      typeof value === 'function' ? 'function' : typeof value === 'object' && value !== null ? 'object' : { value },
    ]))
  }
  return kinds
}

/**
 * The esbuild plugin that gives the CLI bundle a stand-in for each of {@link LAZY_PACKAGES}: a module
 * with the package's export names, each a Proxy that requires `dist/vendor/<name>.cjs` on first use.
 * A function's stand-in answers calls, `new` and static members (`CronExpressionParser.parse`); an
 * object's, property reads and key listing (`Object.values` of the JSON).
 */
function lazyPackages(kinds) {
  const stand = (spec) => {
    const lines = [
      `let real`,
      `const load = () => (real ??= require('./${vendorFile(spec)}'))`,
      `const forward = (name) => ({`,
      `  get: (_, key) => load()[name][key],`,
      `  has: (_, key) => key in load()[name],`,
      `  ownKeys: () => Reflect.ownKeys(load()[name]),`,
      `  getOwnPropertyDescriptor: (_, key) => { const d = Reflect.getOwnPropertyDescriptor(load()[name], key); return d && { ...d, configurable: true } },`,
      `  apply: (_, self, args) => Reflect.apply(load()[name], self, args),`,
      `  construct: (_, args, target) => Reflect.construct(load()[name], args),`,
      `})`,
      `const lazyFunction = (name) => new Proxy(function () {}, forward(name))`,
      `const lazyObject = (name) => new Proxy({}, forward(name))`,
    ]
    Object.entries(kinds[spec]).forEach(([name, kind], i) => {
      const value = kind === 'function' ? `lazyFunction(${JSON.stringify(name)})` : kind === 'object' ? `lazyObject(${JSON.stringify(name)})` : JSON.stringify(kind.value)
      lines.push(`const export${i} = ${value}`, `export { export${i} as ${name} }`)
    })
    return lines.join('\n')
  }
  return {
    name: 'lazy-packages',
    setup(build) {
      const filter = new RegExp(`^(${LAZY_PACKAGES.map((spec) => spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`)
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-package' }))
      build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({ contents: stand(args.path), loader: 'js', resolveDir: ROOT }))
      build.onResolve({ filter: /^\.\/vendor\// }, (args) => ({ path: args.path, external: true }))
    },
  }
}

/**
 * Writes dist/cli.cjs.cache: in a child process, compiles the bundle, starts `serve --port 0` on the
 * default scenario, requests a project's labels once, then saves V8's code cache, which by then holds
 * every function a start and a first request compiled. Bounded: the child is killed after 30 s.
 */
function writeCodeCache(dist) {
  const loader = pathToFileURL(join(dist, 'cli-loader.js')).href
  const child = `
    import { writeFileSync } from 'node:fs'
    import { CODE_CACHE_PATH, compileCli, runCli } from ${JSON.stringify(loader)}
    const script = compileCli(undefined)
    process.argv.splice(1, Infinity, 'fakelab', 'serve', '--port', '0', '--log', 'off')
    const write = process.stdout.write.bind(process.stdout)
    let text = ''
    process.stdout.write = (chunk, ...rest) => {
      if (!text.includes('\\n')) {
        text += chunk
        if (text.includes('\\n')) void first(text.split('\\n')[0].trim())
      }
      return true
    }
    async function first(url) {
      const res = await fetch(url + '/api/v4/projects/20/labels', { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
      await res.text()
      writeFileSync(CODE_CACHE_PATH, script.createCachedData())
      write('code cache written\\n')
      process.exit(res.status === 200 ? 0 : 1)
    }
    runCli(script)
  `
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8', timeout: 30_000 })
  if (run.status !== 0 || !run.stdout.includes('code cache written')) {
    throw new Error(`writing the CLI code cache failed (${run.status}): ${run.stderr}`)
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli()
