import { it } from 'vitest'
import { createSimulator } from '../src/index.js'
import { defaultScenario } from '../src/default-scenario.js'
const steps: [string, string, string, unknown?][] = JSON.parse(process.env.STEPS!)
it('probe', async () => {
  const sim = createSimulator({ scenario: defaultScenario() })
  for (const [method, path, user, body] of steps) {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (user) headers['private-token'] = `glpat-${user}-fakelab`
    const res = await sim.handle(new Request('http://gitlab.test/api/v4' + path, { method, headers, body: body ? JSON.stringify(body) : undefined }))
    const text = await res.text()
    console.log(method, path, user, res.status, res.headers.get('x-total'), text.slice(0, Number(process.env.MAX ?? 600)))
  }
})
