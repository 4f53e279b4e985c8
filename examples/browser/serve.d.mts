/** Types of serve.mjs (the example page's static server), for the TypeScript tests that import it. */
export interface StaticServer {
  /** Like `http://localhost:5173/`, with the trailing slash. */
  url: string
  close(): Promise<void>
}
/** Serves the files under `root` on http://localhost; port 0 (the default) picks a free one. */
export function serveStatic(root: string, options?: { port?: number }): Promise<StaticServer>
