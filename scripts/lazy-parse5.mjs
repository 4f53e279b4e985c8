/**
 * What the CLI bundle (scripts/build-cli.mjs) gets for `import { parseFragment } from 'parse5'`:
 * parse5 itself sits next to the bundle, in dist/parse5.cjs, and is required on the first call, so
 * a `fakelab serve` whose requests write no markup never reads, compiles or runs it (issue 24,
 * item 5). src/rules/sanitize.ts calls it only for text that carries `<` or `&`. The bundle runs
 * with a `require` rooted at dist/cli.cjs (scripts/cli-loader.cjs), so the path is relative to it.
 */
let parse5

/** parse5's `parseFragment`, loaded on first use. */
export function parseFragment(...args) {
  parse5 ??= require('./parse5.cjs')
  return parse5.parseFragment(...args)
}
