'use strict'
// How the `fakelab` CLI starts (copied to dist/cli-loader.cjs by scripts/build-cli.mjs; issue 5, cold
// start). bin/fakelab requires it, and dist/cli.js (for `node dist/cli.js`) too. It runs the
// bundled CLI, dist/cli.cjs, with V8's code cache from dist/cli.cjs.cache, written at build time
// after a `serve` answered a request, so the functions a start needs come compiled instead of being
// parsed and compiled on every start (Node 20 has no `module.enableCompileCache`). A cache made by
// another Node version or for another bundle is rejected by V8 and the bundle compiles as usual: it
// only ever costs the time it would have saved. CommonJS, as bin/fakelab is: loading an ES module
// costs a start node's ES module loader (issue 27).
const { readFileSync } = require('node:fs')
const { createRequire } = require('node:module')
const { join } = require('node:path')
const vm = require('node:vm')

const file = join(__dirname, 'cli.cjs')
/** Where the build writes the code cache. */
const CODE_CACHE_PATH = `${file}.cache`

/** The compiled bundle, as a function of CommonJS's module arguments. */
function compileCli(cachedData) {
  // Read as latin1, which is a plain copy: the bundle is ASCII (esbuild escapes every other
  // character, its `charset` default), and node's UTF-8 decoding of its megabyte costs a start 2-3 ms.
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'latin1')}\n})`
  return new vm.Script(source, { filename: file, cachedData })
}

/** Runs the compiled bundle (the CLI runs on `process.argv`). */
function runCli(script) {
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, __dirname)
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

module.exports = { CODE_CACHE_PATH, compileCli, main, readCodeCache, runCli }
