// Isolation costs on the default scenario (issue 12 "Isolation"): creating a session
// (`sim.session(id)`: a store loaded from the reset point) and a per-test `sim.reset()`.
// Target: reset <= 1 ms. Run with `npm run bench` (after the build) or `node bench/sessions.mjs`.
import { createSimulator } from '../dist/index.js'
import { loadDefaultScenario } from '../dist/node.js'

const sim = createSimulator({ scenario: await loadDefaultScenario() })

function measure(label, runs, fn) {
  for (let i = 0; i < 50; i++) fn(i) // warm-up
  const times = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    fn(i)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]
  const p95 = times[Math.floor(times.length * 0.95)]
  console.log(`${label.padEnd(28)} median ${median.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms  (${runs} runs)`)
  return median
}

const reset = measure('sim.reset()', 2000, () => sim.reset())
// The alternative to a reset per test: a new simulator from the parsed scenario (README "Use it in your tests").
const parsed = await loadDefaultScenario()
measure('createSimulator(parsed)', 100, () => createSimulator({ scenario: parsed }))
measure('sim.snapshot()+restore()', 2000, () => sim.restore(sim.snapshot()))
let n = 0
measure('sim.session(new id)', 1000, () => {
  const id = `s${n++}`
  sim.session(id)
  sim.dropSession(id)
})
console.log(reset <= 1 ? 'reset target met (<= 1 ms)' : `reset target MISSED: ${reset.toFixed(3)} ms > 1 ms`)
