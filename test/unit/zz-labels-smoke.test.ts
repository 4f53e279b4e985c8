import { it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'
it('smoke', async () => {
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  console.log(JSON.stringify(sim.db.tables.labels.all()), JSON.stringify(sim.db.tables.subscriptions.all()), JSON.stringify(sim.db.tables.label_priorities.all()))
  const r = await sim.handle(new Request('http://x/api/v4/projects/20/labels?with_counts=true', { headers: { 'PRIVATE-TOKEN': 'glpat-devon-fakelab' } }))
  console.log(r.status, [...r.headers].join(' | '), await r.text())
})
