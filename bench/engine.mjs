// The engine alone on a first request: `sim.dispatch` (what the node:http door calls) on the
// 20-label list, each call with a request line not asked before (`?per_page=20&n=K`), in this process,
// no HTTP. Prints µs of CPU per call (median of ROUNDS rounds). For profiling the engine's stages:
//   node --cpu-prof bench/engine.mjs [DIST] [CALLS] [ROUNDS] [same]
// `same` asks the same request line every time (the reply memo's case).
import { join, resolve } from 'node:path'
import { LIST_PATH, TOKEN, benchSimulator } from './fixture.mjs'

const [distArg, callsText, roundsText, same] = process.argv.slice(2)
const dist = resolve(distArg ?? join(import.meta.dirname, '..', 'dist'))
const calls = Number(callsText ?? 20000)
const rounds = Number(roundsText ?? 5)
const sim = await benchSimulator(dist)
const headers = { 'private-token': TOKEN, host: '127.0.0.1:3000', 'user-agent': 'bench', accept: '*/*' }
let n = 0
/** A request as the node:http door makes it: fields, and headers looked up on demand. */
const request = () => ({
  method: 'GET',
  path: `/api/v4${LIST_PATH.slice('/api/v4'.length)}`,
  query: same ? '' : `per_page=20&n=${(n += 1)}`,
  origin: 'http://127.0.0.1:3000',
  header: (name) => headers[name],
  body: () => Promise.resolve(undefined),
})
const perCall = []
for (let r = 0; r < rounds + 1; r += 1) {
  const c0 = process.cpuUsage()
  for (let i = 0; i < calls; i += 1) {
    const reply = await sim.dispatch(request())
    if (reply.status !== 200) throw new Error(`answered ${reply.status}`)
  }
  const used = process.cpuUsage(c0)
  if (r > 0) perCall.push((used.user + used.system) / calls)
}
perCall.sort((a, b) => a - b)
process.stdout.write(`${JSON.stringify({ usPerCall: perCall[Math.floor((perCall.length - 1) / 2)], min: perCall[0], max: perCall.at(-1) })}\n`)
