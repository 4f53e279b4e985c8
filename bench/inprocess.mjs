// One in-process measurement, in a process of its own so that builds and handlers measured in
// turn do not share V8's inline caches in MSW and undici (bench/run.mjs spawns one per round).
//
//   node bench/inprocess.mjs DIST bare|msw|bare-first|msw-first|handle CALLS
//     bare    fetch() through MSW setupServer with one bare handler returning fakelab's bytes
//     msw     fetch() through MSW setupServer with fakelab's handlers (createHandlers)
//     *-first the same, each call asking a request line not asked before (`?per_page=20&n=K`, K
//             counting): the same list, never from the reply memo (the bare handler ignores the query)
//     handle  sim.handle(Request) -> Response, no MSW
// Prints {"wall": calls/s, "cpu": calls per CPU-second of this process}.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { LIST_PATH, TOKEN, benchSimulator } from './fixture.mjs'

const [dist, mode, countText] = process.argv.slice(2)
const count = Number(countText)
const url = `http://gitlab.test${LIST_PATH}`
const first = mode.endsWith('-first')
let n = 0
const next = () => (first ? `${url}?per_page=20&n=${(n += 1)}` : url)
const init = { headers: { 'PRIVATE-TOKEN': TOKEN } }
const sim = await benchSimulator(dist)

let call
let server
if (mode === 'handle') {
  call = async () => (await sim.handle(new Request(url, init))).arrayBuffer()
} else {
  const { setupServer } = await import('msw/node')
  if (mode.startsWith('bare')) {
    const { http } = await import('msw')
    const probe = await sim.handle(new Request(url, init))
    const bytes = new Uint8Array(await probe.arrayBuffer())
    const headers = [...probe.headers]
    server = setupServer(http.get(url, () => new Response(bytes, { status: 200, headers })))
  } else {
    const { createHandlers } = await import(pathToFileURL(join(dist, 'msw.js')).href)
    server = setupServer(...createHandlers(sim, { baseUrl: 'http://gitlab.test' }))
  }
  server.listen({ onUnhandledRequest: 'error' })
  call = async () => (await fetch(next(), init)).arrayBuffer()
}

for (let i = 0; i < Math.min(500, count); i += 1) await call()
const t0 = performance.now()
const c0 = process.cpuUsage()
for (let i = 0; i < count; i += 1) await call()
const used = process.cpuUsage(c0)
server?.close()
process.stdout.write(`${JSON.stringify({ wall: count / ((performance.now() - t0) / 1000), cpu: count / ((used.user + used.system) / 1e6) })}\n`)
