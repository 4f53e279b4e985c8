// `fakelab verify` on a 1,000-exchange cassette (issue 15; target: under 2 s). The cassette is the
// verify corpus (cassettes/*.har and fixtures/cassettes/*.har.json) repeated to 1,000 entries, so
// its later rounds also replay writes against changed state: differences are computed and
// reported too, as on a real drifting session. Times the whole verifyCassette call (import,
// seeding, replay through sim.dispatch, comparison, summary) and the text report, both seedings.
// Run with `npm run bench` (after the build) or `node bench/verify.mjs`.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatTextReport, loadCassetteFile, loadDefaultScenario, verifyCassette } from '../dist/node.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const files = [
  ...readdirSync(join(ROOT, 'cassettes')).filter((f) => f.endsWith('.har')).map((f) => join(ROOT, 'cassettes', f)),
  ...readdirSync(join(ROOT, 'fixtures', 'cassettes')).filter((f) => f.endsWith('.har.json')).map((f) => join(ROOT, 'fixtures', 'cassettes', f)),
]
const pool = (await Promise.all(files.map(loadCassetteFile))).flatMap((har) => har.log.entries)
const entries = Array.from({ length: 1000 }, (_, i) => pool[i % pool.length])
const cassette = { log: { version: '1.2', creator: { name: 'bench', version: '0' }, entries } }
const scenario = await loadDefaultScenario()

async function measure(label, options) {
  await verifyCassette(cassette, options) // warm-up
  const times = []
  let report
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    report = await verifyCassette(cassette, options)
    formatTextReport([report])
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]
  console.log(`verify 1,000 exchanges, ${label.padEnd(22)} median ${(median / 1000).toFixed(2)} s  max ${(times.at(-1) / 1000).toFixed(2)} s  (${report.identical}/${report.exchanges} identical)`)
  return median
}

const fromCassette = await measure('seeded from the cassette', {})
const fromScenario = await measure('seeded from a scenario', { scenario })
const worst = Math.max(fromCassette, fromScenario)
console.log(worst < 2000 ? 'verify: within the 2 s target' : `verify: OVER the 2 s target (${(worst / 1000).toFixed(2)} s)`)
