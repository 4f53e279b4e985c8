// One benchmark server, run as its own process (bench/run.mjs pins it to a core and loads it from
// another process). Prints its URL as the first stdout line and serves until killed.
//
//   node bench/server.mjs raw BODY_FILE        node:http sending the bytes of BODY_FILE as they are
//   node bench/server.mjs stringify BODY_FILE  node:http calling JSON.stringify on the parsed file per request
//   node bench/server.mjs fakelab DIST         fakelab's node:http door on the benchmark fixture
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { benchSimulator } from './fixture.mjs'

const [kind, arg] = process.argv.slice(2)
// A clean exit on SIGTERM, so `node --cpu-prof bench/server.mjs …` writes its profile.
process.on('SIGTERM', () => process.exit(0))

/** The headers fakelab sends with a list, so the raw servers write as many header bytes. */
const HEADERS = {
  'cache-control': 'max-age=0, private, must-revalidate',
  'content-type': 'application/json',
  vary: 'Origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
}

function listen(server) {
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`))
}

if (kind === 'raw') {
  const body = readFileSync(arg)
  listen(http.createServer((_req, res) => {
    res.writeHead(200, { ...HEADERS, 'content-length': body.length })
    res.end(body)
  }))
} else if (kind === 'stringify') {
  const value = JSON.parse(readFileSync(arg, 'utf8'))
  listen(http.createServer((_req, res) => {
    res.writeHead(200, HEADERS)
    res.end(JSON.stringify(value))
  }))
} else if (kind === 'fakelab') {
  const { startServer } = await import(pathToFileURL(join(arg, 'node.js')).href)
  const server = await startServer(await benchSimulator(arg), { port: 0 })
  process.stdout.write(`${server.url}\n`)
} else {
  process.stderr.write(`unknown server kind ${kind}\n`)
  process.exit(1)
}
