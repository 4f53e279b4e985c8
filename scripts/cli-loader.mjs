// How the `fakelab` CLI starts (copied to dist/cli-loader.js by scripts/build-cli.mjs; issue 5, cold
// start; dist/cli.js, which bin/fakelab imports, calls it). It runs the bundled CLI, dist/cli.cjs,
// with V8's code cache from dist/cli.cjs.cache,
// written at build time after a `serve` answered a request, so the functions a start needs come
// compiled instead of being parsed and compiled on every start (Node 20 has no
// `module.enableCompileCache`). A cache made by another Node version or for another bundle is
// rejected by V8 and the bundle compiles as usual: it only ever costs the time it would have saved.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'

const file = fileURLToPath(new URL('./cli.cjs', import.meta.url))
/** Where the build writes the code cache. */
export const CODE_CACHE_PATH = `${file}.cache`

/** The compiled bundle, as a function of CommonJS's module arguments. */
export function compileCli(cachedData) {
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`
  return new vm.Script(source, { filename: file, cachedData })
}

/** Runs the compiled bundle (the CLI runs on `process.argv`). */
export function runCli(script) {
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
}

/** The code cache written at build time, `undefined` when there is none. */
export function readCodeCache() {
  try {
    return readFileSync(CODE_CACHE_PATH)
  } catch {
    return undefined
  }
}
