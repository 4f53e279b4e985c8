'use strict'
// How the `fakelab` CLI starts (copied to dist/cli-loader.cjs by scripts/build-cli.mjs; issue 5, cold
// start). bin/fakelab requires it, and dist/cli.js (for `node dist/cli.js`) too. It runs the
// bundled CLI, dist/cli.cjs, with V8's code cache from dist/cli.cjs.cache, written at build time
// after a `serve` answered a request, so the functions a start needs come compiled instead of being
// parsed and compiled on every start (Node 20 has no `module.enableCompileCache`). A cache made by
// another Node version or for another bundle is rejected by V8 and the bundle compiles as usual: it
// only ever costs the time it would have saved. CommonJS, as bin/fakelab is: loading an ES module
// costs a start node's ES module loader (issue 27).
// The CLI bundle is split (scripts/build-cli.mjs, `bundleSplit`): dist/cli.cjs holds what a start
// runs, and each area's route modules sit in dist/chunk-<area>.cjs, which this loader reads,
// compiles (with its own code cache, when the build wrote one) and runs on the first
// `require('fakelab:<module>')` that names one of its modules: a start reads no area's route code.
const { readFileSync } = require('node:fs')
const { createRequire } = require('node:module')
const { dirname, join } = require('node:path')
const vm = require('node:vm')

const file = join(__dirname, 'cli.cjs')
/** Where the build writes the code cache. */
const CODE_CACHE_PATH = `${file}.cache`

/**
 * A bundle's source, to compile as it is: the build writes each already wrapped as a function of
 * CommonJS's module arguments (scripts/build-cli.mjs, `wrapBundle`), so that the string read is
 * the one compiled, not copied into a concatenation. Read as latin1, which is a plain copy: the
 * bundle is ASCII (esbuild escapes every other character, its `charset` default), and node's
 * UTF-8 decoding of its megabyte costs a start 2-3 ms. Node makes a string of more than
 * 1,031,913 bytes (EXTERN_APEX, src/string_bytes.cc) external, outside V8's heap; the build pads
 * dist/cli.cjs to that size, so that a start does not copy its source into the young generation.
 */
function bundleSource(path) {
  return readFileSync(path, 'latin1')
}

/** The compiled bundle, as a function of CommonJS's module arguments. */
function compileCli(cachedData) {
  return new vm.Script(bundleSource(file), { filename: file, cachedData })
}

const nodeRequire = createRequire(file)
/** dist/chunks.json: which split bundle holds each module the bundles require of one another (read on first use). */
let owners
/** The split bundles loaded so far: name → their table of modules, and their compiled scripts (for the build's code caches). */
const chunks = new Map()
const scripts = new Map()

/** The modules required across bundles so far, by key: each bundle's exports object, made once. */
const modules = new Map()

/** The module `key` (its path in dist/) of whichever bundle holds it, initialised on first use. */
function splitModule(key) {
  let exports = modules.get(key)
  if (exports !== undefined) return exports
  owners ??= JSON.parse(readFileSync(join(__dirname, 'chunks.json'), 'utf8'))
  const owner = owners[key]
  if (owner === undefined) throw new Error(`fakelab: no bundle holds ${key} (a stale dist/chunks.json: run npm run build)`)
  const table = owner === 'core' ? globalThis[Symbol.for('fakelab.core-modules')] : loadChunk(owner)
  exports = table[key]()
  modules.set(key, exports)
  return exports
}

/**
 * Whether `spec` names an npm package the build bundled apart as a script (dist/vendor/*.cjs,
 * dist/parse5.cjs). A JSON package (dist/vendor/*.json) is node's to parse.
 */
const isVendor = (spec) => (spec.startsWith('./vendor/') && spec.endsWith('.cjs')) || spec === './parse5.cjs'

/**
 * The `require` the bundles get: `fakelab:<module>` from the split bundles, the npm packages
 * bundled apart with their code caches, anything else node's.
 */
function bundleRequire(spec) {
  if (spec.startsWith('fakelab:')) return splitModule(spec.slice('fakelab:'.length))
  return isVendor(spec) ? vendorModule(spec) : nodeRequire(spec)
}

/**
 * The code cache the build wrote for the bundle at `path`, `undefined` when there is none. V8
 * rejects a cache made under other flags: `serve` sets its heap flags once it listens, so what
 * loads after that reads the one made under them.
 */
function bundleCache(path) {
  try {
    return readFileSync(`${path}${globalThis[Symbol.for('fakelab.v8-flags')] ? '.server-cache' : '.cache'}`)
  } catch {
    return undefined
  }
}

/** The npm packages bundled apart, loaded so far: spec → their module object, and their scripts. */
const vendors = new Map()
const vendorScripts = new Map()

/**
 * An npm package the build bundled apart (dist/vendor/<name>.cjs: zod, yaml and faker for every
 * scenario file; dist/parse5.cjs), run once as node's `require` would run it, but compiled with
 * the build's code cache: node 20 compiles a required file from its source every time, which for
 * zod's 0.6 MB cost `fakelab validate` and `serve --scenario` more than loading every area.
 */
function vendorModule(spec) {
  const loaded = vendors.get(spec)
  if (loaded) return loaded.exports
  const path = join(__dirname, spec)
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${bundleSource(path)}\n})`, { filename: path, cachedData: bundleCache(path) })
  const module = { exports: {} }
  // Before it runs, as node's cache: a cycle back to it sees its exports so far.
  vendors.set(spec, module)
  try {
    script.runInThisContext()(module.exports, nodeRequire, module, path, dirname(path))
  } catch (error) {
    vendors.delete(spec)
    throw error
  }
  vendorScripts.set(spec, script)
  return module.exports
}

/** Loads the split bundle `name` once: its table of modules (none of them run yet). */
function loadChunk(name) {
  let table = chunks.get(name)
  if (table) return table
  const chunk = join(__dirname, `chunk-${name}.cjs`)
  const script = new vm.Script(bundleSource(chunk), { filename: chunk, cachedData: bundleCache(chunk) })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, bundleRequire, module, chunk, __dirname)
  table = module.exports
  chunks.set(name, table)
  scripts.set(name, script)
  return table
}

/** Runs the compiled bundle (the CLI runs on `process.argv`). */
function runCli(script) {
  const module = { exports: {} }
  script.runInThisContext()(module.exports, bundleRequire, module, file, __dirname)
}

/**
 * Code caches of the split bundles and of the npm packages bundled apart, for the build: the
 * loaded ones' with what they compiled so far, every other's compiled now (its top level only).
 * `[path of the cache, bytes]` each, the path the bundle's with `suffix` (`.cache`, or
 * `.server-cache` under `serve`'s heap flags).
 */
function chunkCodeCaches(suffix) {
  const { existsSync, readdirSync } = require('node:fs')
  const names = readdirSync(__dirname).flatMap((f) => /^chunk-(.*)\.cjs$/.exec(f)?.[1] ?? [])
  const caches = names.map((name) => {
    const chunk = join(__dirname, `chunk-${name}.cjs`)
    const script = scripts.get(name) ?? new vm.Script(bundleSource(chunk), { filename: chunk })
    return [`${chunk}${suffix}`, script.createCachedData()]
  })
  const vendorDir = join(__dirname, 'vendor')
  const specs = [...(existsSync(vendorDir) ? readdirSync(vendorDir).filter((f) => f.endsWith('.cjs')).map((f) => `./vendor/${f}`) : []), './parse5.cjs']
  for (const spec of specs) {
    const path = join(__dirname, spec)
    if (!existsSync(path)) continue
    const script = vendorScripts.get(spec) ?? new vm.Script(`(function (exports, require, module, __filename, __dirname) {${bundleSource(path)}\n})`, { filename: path })
    caches.push([`${path}${suffix}`, script.createCachedData()])
  }
  return caches
}

/** The code cache written at build time, `undefined` when there is none. */
function readCodeCache() {
  try {
    return readFileSync(CODE_CACHE_PATH)
  } catch {
    return undefined
  }
}

/** Runs the CLI on `process.argv`, with the code cache when there is one. */
function main() {
  runCli(compileCli(readCodeCache()))
}

module.exports = { CODE_CACHE_PATH, chunkCodeCaches, compileCli, main, readCodeCache, runCli }
