/** Types of build.mjs (the example page's build), for the TypeScript tests that import it. */
export interface BuildExampleOptions {
  /** Where to write index.html, app.js and mockServiceWorker.js; default examples/browser/public. */
  outdir?: string
  /** esbuild's `alias`: bundle other sources for the `fakelab` imports (the tests use src). */
  alias?: Record<string, string>
}
/** Builds the page; resolves to the directory written. */
export function buildExample(options?: BuildExampleOptions): Promise<string>
