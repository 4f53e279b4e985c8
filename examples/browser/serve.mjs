#!/usr/bin/env node
/**
 * A tiny static file server for the example page (node:http, explicit MIME types, no caching).
 * A service worker needs a secure context: http://localhost is one. Serves examples/browser/public/
 * on http://localhost:5173 (`PORT` to change it) when run directly; test/browser/page.test.ts
 * starts it on a free port.
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { dirname, extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
}

/**
 * Serves the files under `root` (`/` is index.html); 404 for anything else, 405 for methods other
 * than GET and HEAD.
 * @param {string} root
 * @param {{ port?: number }} options port 0 picks a free one.
 * @returns {Promise<{ url: string, close: () => Promise<void> }>} `url` like http://localhost:5173/
 */
export function serveStatic(root, { port = 0 } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path))
    const type = TYPES[extname(file)]
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || !type) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store' })
      res.end(req.method === 'HEAD' ? undefined : body)
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, 'localhost', () => {
      const address = server.address()
      resolve({
        url: `http://localhost:${typeof address === 'object' && address ? address.port : port}/`,
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()) }),
      })
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serveStatic(join(HERE, 'public'), { port: Number(process.env.PORT ?? 5173) })
  console.log(`fakelab browser example at ${url} (Ctrl-C stops)`)
}
