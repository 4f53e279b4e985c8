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
 *    scenarios/, generated/) are the same. dist/cli-loader.cjs (scripts/cli-loader.cjs), which
 *    `bin/fakelab` requires, runs it; dist/cli.js does the same for `node dist/cli.js`.
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
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * npm packages (as the sources import them) that a `fakelab serve` start does not need: the CLI
 * bundle requires each on first use instead of reading, compiling and running it at every start
 * (issue 27: together about a megabyte of the bundle's source and 15 to 20 ms of its start).
 * Each is only ever used inside functions, which is what a stand-in needs: a module-level use
 * would load it at start, correct but no faster.
 * - `zod`: the scenario format's and cassettes' checks (the default state is already checked), over
 *   a third of the bundle before;
 * - `yaml`: scenario files, state exports as text, cassettes (the default state is JSON);
 * - `@faker-js/faker/locale/en`: generated values (the default state holds them already);
 * - `fflate`: repository archives; `diff`: repository file diffs; `cron-parser`: freeze periods;
 * - `qs`: nested query strings (flat ones are parsed without it, `core/params.ts`);
 * - emojibase's JoyPixels shortcodes: award emoji names, read on the first award; its emoji data:
 *   the glyphs of `<gl-emoji>`, read on the first emoji rendered (bundled in, the data was 0.75 MB of
 *   source and 2.6 MB of objects that every server loading the award emoji or Markdown routes kept;
 *   issue 39 item 5). A JSON package is copied to `dist/vendor/<name>.json`, which node parses
 *   with `JSON.parse`: a bundled one would be JavaScript whose source V8 keeps as long as the process;
 * - `@noble/hashes`' modules, `uint8array-extras` and `node-diff3`: the repository's objects, note
 *   ids and release evidence, all made on first use of a repository or a note;
 * - `color-name`: label colour keywords, read on the first colour given;
 * - `openpgp`: users' GPG keys, parsed on the first key added.
 */
const LAZY_PACKAGES = [
  'zod', 'yaml', '@faker-js/faker/locale/en', 'fflate', 'diff', 'cron-parser', 'qs', 'emojibase-data/en/shortcodes/joypixels.json', 'emojibase-data/en/data.json',
  '@noble/hashes/legacy.js', '@noble/hashes/sha2.js', '@noble/hashes/utils.js', 'uint8array-extras', 'node-diff3', 'color-name',
  'openpgp',
]

/**
 * Statements a vendor bundle runs before its package's exports, by package (`VENDOR_PRELUDE[spec]`).
 * - `cron-parser` gets luxon's default locale: luxon otherwise asks `new Intl.DateTimeFormat()` for
 *   the system locale when cron-parser makes its first date, and that first date format maps about
 *   6 MB of ICU's locale data into the process (`fakelab serve`'s RSS after the soak: issue 39 item
 *   5), although a cron's next time never formats a date (cron-parser uses no locale). The vendor
 *   bundle holds its own copy of luxon, so no other luxon user sees the setting. `require`, as
 *   cron-parser's CommonJS does: an `import` would bundle luxon's ES module build, a second copy.
 *   {@link checkVendorPrelude} makes sure the bundle holds one luxon.
 */
const VENDOR_PRELUDE = {
  'cron-parser': ["require('luxon').Settings.defaultLocale = 'en-US'"],
}

/**
 * Fails the build when a vendor bundle with a {@link VENDOR_PRELUDE} holds more than one copy of
 * luxon (the prelude would set up one that cron-parser does not use).
 */
function checkVendorPrelude(spec, text) {
  if (!VENDOR_PRELUDE[spec]) return
  const copies = text.match(/static set defaultLocale\(/g)?.length ?? 0
  if (copies !== 1) throw new Error(`build-cli: ${vendorFile(spec)} holds ${copies} copies of luxon's Settings, not 1: its prelude would not reach cron-parser's`)
}

/**
 * Writes dist/generated/default-state.json and dist/cli.js from an already compiled dist/.
 * @param root the project root (its dist/ and node_modules/).
 * @param options.preserveSymlinks resolve npm packages through a symbolic link to node_modules
 *   without following it (bench/double.mjs), so that their modules are named as in the real build.
 * @returns the paths written.
 */
export async function buildCli(root = ROOT, { preserveSymlinks = false } = {}) {
  const dist = join(root, 'dist')
  const { loadState } = await import(pathToFileURL(join(dist, 'simulator.js')).href)
  const { DEFAULT_SCENARIO_YAML } = await import(pathToFileURL(join(dist, 'generated', 'default-scenario.js')).href)
  const loaded = loadState(DEFAULT_SCENARIO_YAML)
  const statePath = join(dist, 'generated', 'default-state.json')
  mkdirSync(dirname(statePath), { recursive: true })
  writeFileSync(statePath, JSON.stringify({ fakelab_state: 1, now: loaded.now, seed: loaded.seed, tables: loaded.state }))

  // The bundle: CommonJS, so that dist/cli-loader.cjs can run it through vm.Script with a code cache
  // (an ES module cannot take one on Node 20). `import.meta.url` becomes the bundle's own URL,
  // which sits in dist/ like dist/node.js, so paths relative to it stay right.
  const bundlePath = join(dist, 'cli.cjs')
  const lazyExports = await lazyPackageExports()
  const lazyModules = await lazyModuleExports(dist)
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Whitespace only (names and syntax stay as written, so stack traces still name functions):
    // a third less source for every start to read, hash and keep for lazy compilation.
    minifyWhitespace: true,
    logLevel: 'warning',
    // A root whose node_modules is a symbolic link (bench/double.mjs's copy) names npm packages'
    // modules as the real build does (`node_modules/…`), not by the link's target.
    preserveSymlinks,
  }
  await bundleSplit(root, dist, common, [lazyParse5(root), lazyPackages(lazyExports, lazyModules)])
  const parse5Path = join(dist, 'parse5.cjs')
  await build({
    ...common,
    stdin: { contents: "export { parseFragment } from 'parse5'", resolveDir: root },
    outfile: parse5Path,
  })
  rmSync(join(dist, 'vendor'), { recursive: true, force: true })
  for (const spec of LAZY_PACKAGES) {
    if (spec.endsWith('.json')) {
      // Parsed by node's `require` (JSON.parse), so no source stays in the heap once it is read.
      mkdirSync(join(dist, 'vendor'), { recursive: true })
      writeFileSync(join(dist, vendorFile(spec)), JSON.stringify(createRequire(join(root, 'package.json'))(spec)))
      continue
    }
    // `export *` does not carry a default export: the sources import qs by its.
    const contents = [...(VENDOR_PRELUDE[spec] ?? []), `export * from '${spec}'`, ...('default' in lazyExports[spec] ? [`export { default } from '${spec}'`] : [])].join('\n')
    await build({ ...common, stdin: { contents, resolveDir: root }, outfile: join(dist, vendorFile(spec)) })
    checkVendorPrelude(spec, readFileSync(join(dist, vendorFile(spec)), 'latin1'))
  }
  copyFileSync(join(root, 'scripts', 'cli-loader.cjs'), join(dist, 'cli-loader.cjs'))
  rmSync(join(dist, 'cli-loader.js'), { force: true })
  const cliPath = join(dist, 'cli.js')
  writeFileSync(cliPath, [
    '// The fakelab CLI for `node dist/cli.js`: the bundle dist/cli.cjs, with its code cache, as bin/fakelab runs it',
    '// (through dist/cli-loader.cjs, without this ES module: bin/fakelab is CommonJS). Written by scripts/build-cli.mjs.',
    "import { createRequire } from 'node:module'",
    '',
    "createRequire(import.meta.url)('./cli-loader.cjs').main()",
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
  return `vendor/${spec.replace(/\.json$/, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.${spec.endsWith('.json') ? 'json' : 'cjs'}`
}

/**
 * What a module's export is to its stand-in: `'function'`, `'array'`, `'object'` (a plain one),
 * `'instance'` (any other object: a Set, a Map, a class's instance, whose methods need the real
 * object as `this`), or a constant `{ value }`.
 */
function exportKind(value) {
  if (typeof value === 'function') return 'function'
  if (Array.isArray(value)) return 'array'
  if (typeof value !== 'object' || value === null) return { value }
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null ? 'object' : 'instance'
}

/** Each lazy package's exports as the sources see them: name → {@link exportKind}. */
async function lazyPackageExports() {
  const require = createRequire(import.meta.url)
  const kinds = {}
  for (const spec of LAZY_PACKAGES) {
    const namespace = spec.endsWith('.json') ? { default: require(spec) } : await import(spec)
    kinds[spec] = Object.fromEntries(Object.entries(namespace).map(([name, value]) => [name, exportKind(value)]))
  }
  return kinds
}

/**
 * Modules of fakelab's own (paths under dist/) that a `fakelab serve` start does not need, by
 * pattern: the areas' scenario sections and cassette-import hooks, which build zod schemas as they
 * load, the scenario machinery's entry, and the cassette reader (`serve --replay`, zod as well). The composition root composes the scenario format on
 * first use (`src/simulator.ts`), so a start from a state export, the default scenario's included,
 * loads neither these nor zod (issue 27, cold start: about a third of the start's module work).
 * Every import of them in the bundle gets a stand-in; the real module runs on first use.
 */
const LAZY_MODULES = [/\/resources\/[^/]+\/[^/]+\.(scenario|import)\.js$/, /\/scenario\/index\.js$/, /\/record\/har\.js$/]

/** Each lazy module of `dist` (absolute path) → its exports as {@link exportKind}s. */
async function lazyModuleExports(dist) {
  const files = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (LAZY_MODULES.some((re) => re.test(path))) files.push(path)
    }
  }
  walk(dist)
  const kinds = {}
  for (const file of files) {
    const namespace = await import(pathToFileURL(file).href)
    kinds[file] = Object.fromEntries(Object.entries(namespace).map(([name, value]) => [name, exportKind(value)]))
  }
  return kinds
}

/**
 * A stand-in module: the export names of the real one, each a Proxy that requires it on first use
 * (a function's answers calls, `new`, `instanceof` and static members; an object's or array's,
 * property reads and key listing; a Set's or another instance's, its methods bound to the real
 * one); constants are copied. `load` is the expression requiring the
 * real module. Each first load is noted in `globalThis.__fakelabLazyLoaded`, which the build reads
 * to check that a start and a first request load none of them.
 */
function standIn(name, load, kinds) {
  // One handler for all of the module's exports, which finds the export by the Proxy's target: a
  // start creates the stand-ins of every lazy module its modules import, a closure per trap and
  // export before (about 0.7 KB of the young generation per export).
  const lines = [
    `let real`,
    `const load = () => real ?? (real = ${load}, (globalThis.__fakelabLazyLoaded ??= []).push(${JSON.stringify(name)}), real)`,
    `const exported = new Map()`,
    `const bound = new Set()`,
    `const real$ = (t) => load()[exported.get(t)]`,
    `const forward = {`,
    `  get: (t, key) => { const target = real$(t); const value = target[key]; return bound.has(t) && typeof value === 'function' ? value.bind(target) : value },`,
    `  set: (t, key, value) => { real$(t)[key] = value; return true },`,
    `  has: (t, key) => key in real$(t),`,
    `  ownKeys: (t) => Reflect.ownKeys(real$(t)),`,
    `  getOwnPropertyDescriptor: (t, key) => { const d = Reflect.getOwnPropertyDescriptor(real$(t), key); return d && { ...d, configurable: true } },`,
    `  getPrototypeOf: (t) => Reflect.getPrototypeOf(real$(t)),`,
    `  apply: (t, self, args) => Reflect.apply(real$(t), self, args),`,
    `  construct: (t, args) => Reflect.construct(real$(t), args),`,
    `}`,
    `const lazy = (name, target, bind) => { exported.set(target, name); if (bind) bound.add(target); return new Proxy(target, forward) }`,
  ]
  const targets = { function: 'function () {}', array: '[]', object: '{}', instance: '{}, true' }
  Object.entries(kinds).forEach(([exported, kind], i) => {
    const value = typeof kind === 'string' ? `lazy(${JSON.stringify(exported)}, ${targets[kind]})` : JSON.stringify(kind.value)
    lines.push(`const export${i} = ${value}`, `export { export${i} as ${exported} }`)
  })
  return lines.join('\n')
}

/**
 * The esbuild plugin that gives the CLI bundle a stand-in ({@link standIn}) for each of
 * {@link LAZY_PACKAGES}, which requires `dist/vendor/<name>.cjs`, and for each of
 * {@link LAZY_MODULES}, which requires the real module, bundled as usual but run on first use.
 */
function lazyPackages(packageKinds, moduleKinds) {
  return {
    name: 'lazy-packages',
    setup(build) {
      const filter = new RegExp(`^(${LAZY_PACKAGES.map((spec) => spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`)
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-package' }))
      build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({
        // A JSON package's vendor file is its data, which the sources import as the default export.
        contents: standIn(args.path, args.path.endsWith('.json') ? `{ default: require('./${vendorFile(args.path)}') }` : `require('./${vendorFile(args.path)}')`, packageKinds[args.path]),
        loader: 'js',
        resolveDir: ROOT,
      }))
      build.onResolve({ filter: /^\.\/vendor\// }, (args) => ({ path: args.path, external: true }))
      // Relative imports of a lazy module, from anywhere but its stand-in (marked `?real`).
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const real = args.path.endsWith('?real')
        const path = join(args.resolveDir, real ? args.path.slice(0, -'?real'.length) : args.path)
        if (!moduleKinds[path]) return undefined
        return real ? { path } : { path, namespace: 'lazy-module' }
      })
      build.onLoad({ filter: /.*/, namespace: 'lazy-module' }, (args) => ({
        contents: standIn(args.path.slice(args.path.indexOf('dist/')), `require(${JSON.stringify(`./${basename(args.path)}?real`)})`, moduleKinds[args.path]),
        loader: 'js',
        resolveDir: dirname(args.path),
      }))
    },
  }
}

/** The specifier prefix by which split bundles require a module of another bundle (`scripts/cli-loader.cjs`). */
const SPLIT_PREFIX = 'fakelab:'
/** Where a split bundle's code goes, relative to dist/ (beside dist/cli.cjs, so `import.meta.url` paths agree). */
const chunkFile = (name) => `chunk-${name}.cjs`

/**
 * The CLI bundle split by area (issue 39, cold start and its growth): `dist/cli.cjs` holds what a
 * `fakelab serve` start runs (the CLI, core, the store, every area's `index.js` and what it imports
 * statically: tables, scenario stand-ins, registrations), and each area's route modules (what its
 * `load()` imports, and every module of its folder that a start does not need) go to a bundle of
 * their own, `dist/chunk-<area>.cjs`, read and compiled on the area's first request. Modules
 * outside the area folders that only route modules need get one each, `dist/chunk-lib-<path>.cjs`. So a start
 * reads, deserialises and runs no area's route code: with twice the areas (bench/double.mjs) the
 * start bundle grows by the areas' index modules only.
 *
 * Every module is in exactly one bundle, so module state (registries, subscribers) is shared as in
 * one bundle: a split bundle requires a module of another as `require('fakelab:<path in dist>')`,
 * which `dist/cli-loader.cjs` answers from the owning bundle's table of modules
 * (`dist/chunks.json` says which bundle owns which module). A bundle's table holds one function
 * per module that initialises it on first use (esbuild's lazy module wrappers), so modules still run
 * in the order their imports ask for them, as in one bundle. npm packages a start does not load are
 * bundled into each split bundle that uses them (they hold no state fakelab shares).
 *
 * Three esbuild passes: the start bundle alone (which modules it holds), the split bundles (which of
 * the start bundle's modules they import), the start bundle again with its table of those modules.
 */
async function bundleSplit(root, dist, common, plugins) {
  const key = (abs) => relative(dist, abs).split(sep).join('/')
  const cliOptions = (extra) => ({
    ...common,
    absWorkingDir: root,
    // Dynamic imports of split modules become `require('fakelab:…')` calls the loader answers.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__fakelabImportMetaUrl' },
    // Each bundle is written as the function scripts/cli-loader.cjs compiles (of CommonJS's module
    // arguments), so that it compiles the string it read rather than a copy in a concatenation.
    // Every bundle's \`import.meta.url\` is the start bundle's (they all sit in dist/), made once.
    banner: { js: `${WRAPPER_HEAD}var __fakelabImportMetaUrl = globalThis[Symbol.for('fakelab.cli-url')] ??= require('node:url').pathToFileURL(require('node:path').join(__dirname, 'cli.cjs')).href;` },
    footer: { js: WRAPPER_TAIL },
    ...extra,
  })
  // An area's route modules, imported by its index.js's `load()`, are what the start leaves out;
  // and whatever else a module imports when it runs rather than when it loads (`fakelab verify`'s
  // replayer, `record`'s proxy, the GitLab route list of `fakelab routes` and the control API):
  // a `serve` start neither runs nor compiles them. The area stubs' registration imports stay
  // (they run before every first request, so they keep the start bundle's code cache).
  const routesOut = {
    name: 'split-routes',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || args.namespace !== 'file' || !args.importer.startsWith(dist + sep)) return undefined
        if (/\/resources\/[^/]+\/index\.js$/.test(args.importer) && !/\.routes\.js$/.test(args.path)) return undefined
        return { path: SPLIT_PREFIX + key(join(args.resolveDir, args.path)), external: true }
      })
    },
  }
  // The mount list the start sees: an area stub per area, from the areas' static declarations.
  const stubs = await areaStubs(dist)
  const stubAreas = {
    name: 'split-areas',
    setup(b) {
      b.onResolve({ filter: /^\.\/areas\.js$/ }, (args) => (args.importer === join(dist, 'resources', 'index.js') ? { path: 'areas', namespace: 'area-stubs' } : undefined))
      b.onLoad({ filter: /.*/, namespace: 'area-stubs' }, () => ({ contents: stubs.source, loader: 'js', resolveDir: join(dist, 'resources') }))
      // resources/index.js takes the stubs' one object where it took the namespace of areas.js.
      b.onLoad({ filter: /\/resources\/index\.js$/ }, (args) => {
        if (args.path !== join(dist, 'resources', 'index.js')) return undefined
        const text = readFileSync(args.path, 'utf8')
        if (text.split(AREAS_IMPORT).length !== 2) throw new Error(`build-cli: dist/resources/index.js does not import the mount list as \`${AREAS_IMPORT}\` once (scripts/build-cli.mjs, areaStubs)`)
        return { contents: text.replace(AREAS_IMPORT, "import { mounted } from './areas.js';"), loader: 'js' }
      })
      b.onResolve({ filter: /^fakelab:/ }, (args) => ({ path: args.path, external: true }))
    },
  }
  const coreBuild = (contents, write) =>
    build(cliOptions({
      stdin: { contents, resolveDir: dist, sourcefile: 'cli-entry.js' },
      outfile: join(dist, 'cli.cjs'),
      metafile: true,
      write,
      plugins: [stubAreas, routesOut, ...plugins],
    }))
  const entry = "import './cli/main.js'\n"
  const first = await coreBuild(entry, false)
  const inCore = new Set(Object.keys(first.metafile.inputs).filter((path) => !path.includes(':')).map((path) => key(join(root, path))))
  const isDistModule = (k) => !k.startsWith('..') && /\.(js|json)$/.test(k)
  // A module outside the area folders that the start does not need is a bundle of its own: it may
  // carry a heavy npm package (emojibase's data) that only some areas' first requests need.
  const owner = (k) => (inCore.has(k) ? 'core' : /^resources\/([^/]+)\//.exec(k)?.[1] ?? `lib-${k.replace(/\.js$/, '').replace(/[^A-Za-z0-9]+/g, '-')}`)

  /** A split bundle: `modules` (paths in dist) exposed in its table; returns what it required from other bundles. */
  const chunkBuild = async (name, modules) => {
    const needed = new Set()
    const external = {
      name: 'split-external',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => {
          if (args.namespace !== 'file' && args.namespace !== '') return undefined
          const path = join(args.resolveDir, args.path.replace(/\?real$/, ''))
          const k = key(path)
          if (!isDistModule(k)) return undefined
          const own = owner(k)
          if (own === name) return undefined
          needed.add(k)
          return { path: SPLIT_PREFIX + k, external: true }
        })
      },
    }
    const contents = `module.exports = {\n${modules.map((k) => `  ${JSON.stringify(k)}: () => require(${JSON.stringify(`./${k}`)}),`).join('\n')}\n}\n`
    await build(cliOptions({ stdin: { contents, resolveDir: dist, sourcefile: `chunk-${name}-entry.js` }, outfile: join(dist, chunkFile(name)), plugins: [external, ...plugins] }))
    return needed
  }
  rmSync(join(dist, 'chunks.json'), { force: true })
  for (const file of readdirSync(dist)) if (/^chunk-.*\.cjs(\.cache|\.server-cache)?$/.test(file)) rmSync(join(dist, file))
  const owners = {}
  const fromCore = new Set()
  const lib = new Set()
  const note = (needed) => {
    for (const k of needed) {
      const own = owner(k)
      owners[k] = own
      if (own === 'core') fromCore.add(k)
      else if (own.startsWith('lib-')) lib.add(k)
    }
  }
  const resources = join(dist, 'resources')
  for (const entryDir of readdirSync(resources, { withFileTypes: true })) {
    if (!entryDir.isDirectory()) continue
    const modules = listModules(join(resources, entryDir.name)).map(key).filter((k) => !inCore.has(k))
    if (modules.length === 0) continue
    note(await chunkBuild(entryDir.name, modules))
  }
  // The modules the area stubs load their areas from (and resources/index.js, for the build's warm-up).
  note([...stubs.modules, 'resources/index.js', 'simulator.js'])
  // What the start bundle left out of itself: its route modules (their areas' bundles) and the
  // modules its commands load when they run (bundles of their own, or its own table's).
  const leftOut = Object.keys(first.metafile.outputs).flatMap((out) => first.metafile.outputs[out].imports.filter((i) => i.external && i.path.startsWith(SPLIT_PREFIX)).map((i) => i.path.slice(SPLIT_PREFIX.length)))
  note(leftOut)
  // The other modules' bundles, until every module a bundle asks for has one.
  const built = new Set()
  for (let next; (next = [...lib].find((k) => !built.has(k))); ) {
    built.add(next)
    note(await chunkBuild(owner(next), [next]))
  }
  writeFileSync(join(dist, 'chunks.json'), JSON.stringify(owners))
  const table = [...fromCore].sort().map((k) => `  ${JSON.stringify(k)}: () => require(${JSON.stringify(`./${k}`)}),`)
  await coreBuild(`${entry}globalThis[Symbol.for('fakelab.core-modules')] = {\n${table.join('\n')}\n}\n`, true)
  padToExternal(join(dist, 'cli.cjs'))
}

/** How every bundle begins and ends: a function of CommonJS's module arguments (scripts/cli-loader.cjs). */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {'
const WRAPPER_TAIL = '\n})'

/**
 * Node's EXTERN_APEX (src/string_bytes.cc): a string decoded from more bytes than this is made
 * external, its characters outside V8's heap; a shorter one is copied into the heap, a bundle's
 * megabyte into the young generation (a large object there), which a start then scavenges and
 * promotes: with dist/cli.cjs at 0.78 MB, a start took one scavenge more, earlier, than at 1.04 MB.
 */
const EXTERN_APEX = 0xfbee9

/**
 * Pads the start bundle with spaces after its function to just over {@link EXTERN_APEX} bytes,
 * so that the loader's read of it is an external string (a copy outside the heap, which V8
 * compiles and keeps without moving it); a bundle already over it is left as it is.
 */
function padToExternal(path) {
  const size = statSync(path).size
  if (size <= EXTERN_APEX) appendFileSync(path, `\n${' '.repeat(EXTERN_APEX - size)}`)
}

/**
 * The mount list as the start bundle sees it (`dist/resources/areas.js` replaced): for each area
 * its static declarations as data (name, tables, cascade rules, the tables it writes, its secrets),
 * and for everything else (routes, registrations, scenario section, importer, startup lines, hook
 * before each request) a stand-in that loads the real area, from its own bundle, on first use. So
 * a start runs no area's module: the store is built from the tables, and an area's `index.js` and
 * what it imports run on its first request, its registrations, or the first scenario parsed.
 * The real area is found by identity among the exports of `resources/<folder>/index.js`, or else
 * read from `resources/areas.js` itself (a mount list that builds areas, as bench/double.mjs's does).
 *
 * The stubs are data (issue 39, a start's growth with the areas): one JSON row per area (its
 * names, which fields it has, its declarations), parsed at start and made into stubs by one
 * factory that the bundle and its code cache hold once, instead of an object literal per area with
 * its own getters and arrow functions, each compiled, cached and deserialised at every start. Only
 * what must be code stays code, per area that has it: its registrations' imports and the hooks
 * imported for it ({@link registrationImports}, {@link hookImports}). The module exports one plain
 * object, `mounted`, the stubs in the mount list's order (a namespace's: sorted by export name),
 * which resources/index.js imports in place of its namespace of areas.js ({@link AREAS_IMPORT}):
 * a namespace would hold a getter per area, a function each in the bundle.
 * @returns the module's source and the dist paths of the modules it loads areas from.
 * @throws Error when a declaration that must be data is not (a function, a class instance, or a
 *   RegExp anywhere but `secrets.patterns`).
 */
async function areaStubs(dist) {
  const mounted = await import(pathToFileURL(join(dist, 'resources', 'areas.js')).href)
  const homes = new Map()
  for (const entry of readdirSync(join(dist, 'resources'), { withFileTypes: true })) {
    const index = join(dist, 'resources', entry.name, 'index.js')
    if (!entry.isDirectory() || !existsSync(index)) continue
    for (const [name, value] of Object.entries(await import(pathToFileURL(index).href))) if (typeof value === 'object' && value !== null) homes.set(value, [`resources/${entry.name}/index.js`, name])
  }
  // JSON values; a RegExp only as an element of `secrets.patterns`, as [source, flags].
  const data = (value, where) => {
    if (value instanceof RegExp) {
      if (!/\.secrets\.patterns\[\d+\]$/.test(where)) throw new Error(`the area stubs need ${where} as JSON data, and it is a RegExp`)
      return [value.source, value.flags]
    }
    if (Array.isArray(value)) return value.map((item, i) => data(item, `${where}[${i}]`))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value
    if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, data(v, `${where}.${k}`)]))
    throw new Error(`the area stubs need ${where} as data, and it is ${typeof value}`)
  }
  const lines = []
  const own = []
  const rows = []
  const modules = new Set()
  let hookCount = 0
  for (const [exported, area] of Object.entries(mounted)) {
    if (typeof area !== 'object' || area === null) continue
    const [key, name] = homes.get(area) ?? ['resources/areas.js', exported]
    modules.add(key)
    const unknown = Object.keys(area).filter((field) => !['name', 'tables', 'writes', 'cascade', 'secrets', 'scenario', 'importer', 'load', 'register', 'startup', 'beforeRequest'].includes(field))
    if (unknown.length > 0) throw new Error(`area ${area.name}: the area stubs do not know ${unknown.join(', ')} (scripts/build-cli.mjs, areaStubs)`)
    // What stays code: registrations run before every first request, so their modules come with the
    // start bundle (and its code cache), imported as the area's `register` imports them, without its
    // index module; and hooks that run at every start (`startup`, the banner's lines) or before
    // every request (`beforeRequest`), when the index module names an imported function for them.
    const fields = []
    const imports = key.endsWith('/index.js') && area.register ? registrationImports(join(dist, key)) : undefined
    if (imports) fields.push(`register: async () => {${imports.map((path) => ` await import(${JSON.stringify(`./${key.split('/')[1]}/${path.slice(2)}`)});`).join('')} }`)
    const hooks = key.endsWith('/index.js') ? hookImports(join(dist, key), area) : {}
    for (const [field, { module, name: hookName, params }] of Object.entries(hooks)) {
      const local = `hook${hookCount++}`
      lines.push(`import { ${hookName} as ${local} } from ${JSON.stringify(module)}`)
      fields.push(params === undefined ? `${field}: ${local}` : `${field}: (${params}) => ${local}(${params})`)
    }
    if (fields.length > 0) own.push(`  ${JSON.stringify(exported)}: {\n    ${fields.join(',\n    ')},\n  },`)
    // The rest is a row: [export, name, home module, its export there, fields the real area serves
    // (a bit each, STUB_FIELDS), tables, writes, cascade, secrets], trailing nulls left out.
    const served = STUB_FIELDS.reduce((bits, field, i) => bits | ((area[field] !== undefined && !(field === 'register' && imports) && !hooks[field]) ? 1 << i : 0), 0)
    const row = [exported, area.name, key, name, served, ...['tables', 'writes', 'cascade', 'secrets'].map((field) => (area[field] === undefined ? null : data(area[field], `${area.name}.${field}`)))]
    while (row.at(-1) === null) row.pop()
    rows.push(row)
  }
  const source = [
    ...lines,
    '/** The code some areas keep (registrations, hooks), by export name. */',
    `const own = {\n${own.join('\n')}\n}`,
    `const FIELDS = ${JSON.stringify(STUB_FIELDS)}`,
    '/** One area\'s stub from its row (see scripts/build-cli.mjs, areaStubs). */',
    'function areaStub(row) {',
    '  const exported = row[0], name = row[1], key = row[2], realName = row[3], served = row[4], tables = row[5], writes = row[6], cascade = row[7], secrets = row[8]',
    '  let area',
    "  const real = () => (area ??= require('fakelab:' + key)[realName])",
    '  const stub = { name }',
    '  if (tables != null) stub.tables = tables',
    '  if (writes != null) stub.writes = writes',
    '  if (cascade != null) stub.cascade = cascade',
    '  if (secrets != null) stub.secrets = secrets.patterns ? { ...secrets, patterns: secrets.patterns.map(([source, flags]) => new RegExp(source, flags)) } : secrets',
    "  if (served & 1) Object.defineProperty(stub, 'scenario', { get: () => real().scenario, enumerable: true, configurable: true })",
    "  if (served & 2) Object.defineProperty(stub, 'importer', { get: () => real().importer, enumerable: true, configurable: true })",
    '  const code = own[exported]',
    '  if (code !== undefined) Object.assign(stub, code)',
    '  for (let i = 2; i < FIELDS.length; i++) {',
    '    const field = FIELDS[i]',
    '    if (served & (1 << i)) stub[field] = (...args) => real()[field](...args)',
    '  }',
    '  return stub',
    '}',
    '/** The mount list: every area\'s stub by its export name, in the order of a namespace\'s (sorted). */',
    'export const mounted = {}',
    `const rows = JSON.parse(${JSON.stringify(JSON.stringify(rows))})`,
    'for (let i = 0; i < rows.length; i++) mounted[rows[i][0]] = areaStub(rows[i])',
    '',
  ].join('\n')
  return { source, modules: [...modules] }
}

/** How resources/index.js imports the mount list, which the start bundle replaces by the stubs' object ({@link areaStubs}). */
const AREAS_IMPORT = "import * as mounted from './areas.js';"

/**
 * The fields of an area that its stub serves from the real area, in the order of the bits of a
 * stub row's `served`: getters for the first two, functions calling the real one's for the rest.
 */
const STUB_FIELDS = ['scenario', 'importer', 'load', 'register', 'startup', 'beforeRequest']

/**
 * The modules an area's `register` imports, in order, read from its compiled index module, when
 * its body is nothing but `await import('./….js')` lines (and comments), as `Area.register`'s
 * documentation shows it; `undefined` for any other body (the stub then runs the real one).
 */
function registrationImports(indexPath) {
  const body = /\n(\s*)register: async \(\) => \{\n([\s\S]*?)\n\1\},/.exec(readFileSync(indexPath, 'utf8'))?.[2]
  if (body === undefined) return undefined
  const lines = body.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('//'))
  const imports = lines.map((line) => /^await import\('(\.\/[^']+\.js)'\);$/.exec(line)?.[1])
  return imports.every(Boolean) ? imports : undefined
}

/**
 * An area's `startup` and `beforeRequest` hooks that its compiled index module names as an
 * imported function (`startup: runnerTokenLines`, or `beforeRequest: (db) => destroyOrphaned(db)`
 * passing its parameters through): field → the module (relative to dist/resources/, as the stub
 * module imports it), the export's name, and the arrow's parameters (`undefined` for a plain
 * reference). A hook written any other way is left out (the stub then runs the real area's).
 * Each is checked to be the very function the area holds, or one calling it (an arrow).
 */
function hookImports(indexPath, area) {
  const source = readFileSync(indexPath, 'utf8')
  const imported = new Map()
  for (const [, names, from] of source.matchAll(/^import \{ ([^}]+) \} from '([^']+)';$/gm)) {
    for (const name of names.split(',').map((n) => n.trim())) if (/^[A-Za-z_$][\w$]*$/.test(name)) imported.set(name, from)
  }
  const hooks = {}
  for (const field of ['startup', 'beforeRequest']) {
    if (typeof area[field] !== 'function') continue
    const m = new RegExp(`\\n\\s+${field}: (?:\\(([\\w$, ]*)\\) => )?([A-Za-z_$][\\w$]*)(?:\\(([\\w$, ]*)\\))?,\\n`).exec(source)
    if (!m) continue
    const [, params, name, args] = m
    // A plain reference, or an arrow that passes its parameters on unchanged.
    if ((params === undefined) !== (args === undefined) || (params !== undefined && params !== args)) continue
    const from = imported.get(name)
    if (from === undefined || !from.startsWith('.')) continue
    const path = relative(join(indexPath, '..', '..'), join(indexPath, '..', from)).split(sep).join('/')
    const module = path.startsWith('.') ? path : `./${path}`
    if (params === undefined && area[field].name !== name) continue
    hooks[field] = { module, name, params }
  }
  return hooks
}

/** Every .js and .json module under `dir` (absolute paths). */
function listModules(dir) {
  const files = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...listModules(path))
    else if (/\.(js|json)$/.test(entry.name)) files.push(path)
  }
  return files.sort()
}

/**
 * Writes dist/cli.cjs.cache: in a child process, compiles the bundle, starts `serve --port 0` on the
 * default scenario, requests a project's labels once, then saves V8's code cache, which by then holds
 * every function a start and a first request compiled. Bounded: the child is killed after 30 s.
 */
function writeCodeCache(dist) {
  const loader = JSON.stringify(join(dist, 'cli-loader.cjs'))
  const child = `
    import { writeFileSync } from 'node:fs'
    import v8 from 'node:v8'
    import { createRequire } from 'node:module'
    const { CODE_CACHE_PATH, chunkCodeCaches, compileCli, runCli } = createRequire(import.meta.url)(${loader})
    // V8 stamps a code cache with a hash of its flags and rejects it under others: serve sets its
    // heap flags once it listens, before the request after which the cache is written. The start
    // bundle is compiled before they are set, the split bundles a first request loads after: so
    // the first's cache is written without them, the others' with them.
    const setFlags = v8.setFlagsFromString
    let serverFlags = ''
    v8.setFlagsFromString = (flags) => { serverFlags = flags }
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
      const lazyLoaded = JSON.stringify(globalThis.__fakelabLazyLoaded ?? [])
      // The split bundles' caches as \`serve\` loads them, after its start, under its heap flags.
      setFlags(serverFlags)
      for (const [path, data] of chunkCodeCaches('.server-cache')) writeFileSync(path, data)
      write('lazy modules loaded: ' + lazyLoaded + '\\n')
      write('code cache written\\n')
      process.exit(res.status === 200 ? 0 : 1)
    }
    runCli(script)
  `
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8', timeout: 30_000 })
  if (run.status !== 0 || !run.stdout.includes('code cache written')) {
    throw new Error(`writing the CLI code cache failed (${run.status}): ${run.stderr}`)
  }
  // The split bundles' caches without the heap flags, in a second process, after the default
  // scenario is parsed and loaded: what \`serve --scenario\`, \`validate\`, \`record\` and \`import\`
  // load (before serve sets its flags, or without them), compiled as a scenario's parsing needs.
  const scenarioChild = `
    import { writeFileSync } from 'node:fs'
    import { createRequire } from 'node:module'
    const { chunkCodeCaches, compileCli, readCodeCache, runCli } = createRequire(import.meta.url)(${loader})
    process.argv.splice(1, Infinity, 'fakelab', 'routes')
    process.stdout.write = () => true
    runCli(compileCli(readCodeCache()))
    const core = globalThis[Symbol.for('fakelab.core-modules')]
    const { DEFAULT_SCENARIO_YAML } = await import(${JSON.stringify(pathToFileURL(join(dist, 'generated', 'default-scenario.js')).href)})
    core['simulator.js']().loadState(DEFAULT_SCENARIO_YAML)
    for (const [path, data] of chunkCodeCaches('.cache')) writeFileSync(path, data)
    process.stderr.write('scenario caches written\\n')
    process.exit(0)
  `
  const second = spawnSync(process.execPath, ['--input-type=module', '-e', scenarioChild], { encoding: 'utf8', timeout: 30_000 })
  if (second.status !== 0 || !second.stderr.includes('scenario caches written')) throw new Error(`writing the split bundles' code caches failed (${second.status}): ${second.stderr}`)
  // A lazy package or module that a start or a first request loads costs the start its full price
  // (issue 27): a module-level use of one is a regression, so the build fails on it.
  const loaded = JSON.parse(/lazy modules loaded: (.*)/.exec(run.stdout)?.[1] ?? '[]')
  if (loaded.length > 0) throw new Error(`a start and a first request loaded these lazy modules, which must load on first use only: ${loaded.join(', ')}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli()
