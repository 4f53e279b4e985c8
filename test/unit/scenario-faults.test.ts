/**
 * Faults from the scenario file (issue 12: latency and faults "can be set from the scenario, the
 * CLI, the control API or the library"): a top-level `faults:` list of `FaultRule`s, checked like
 * `sim.faults.set()` checks them.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, parseScenario, ScenarioError } from '../../src/index.js'

const scenario = (faults: string) => `version: 1
now: 2021-04-01T12:00:00Z
users: [{ username: zoe, tokens: [{ token: glpat-zoe, scopes: [api] }] }]
faults:
${faults}
`
const user = (sim: ReturnType<typeof createSimulator>) =>
  sim.handle(new Request('http://gitlab.test/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'glpat-zoe' } }))

function problems(run: () => unknown): string[] {
  try {
    run()
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.line}:${p.col} ${p.message}`)
    throw error
  }
  return []
}

describe('scenario faults:', () => {
  it('puts the rules in force from the start, with GitLab\'s bodies', async () => {
    const sim = createSimulator({ scenario: scenario('  - { route: GET /user, status: 503, times: 1 }') })
    const first = await user(sim)
    expect([first.status, await first.json()]).toEqual([503, { message: '503 Service Unavailable' }])
    expect((await user(sim)).status).toBe(200)
    expect(sim.faults.list()).toEqual([])
  })

  it('comes before the caller\'s rules (the CLI\'s --fault)', () => {
    const sim = createSimulator({ scenario: scenario('  - { route: GET /user, delay: 5 }'), faults: [{ method: 'POST', status: 500 }] })
    expect(sim.faults.list().map((r) => r.route ?? r.method)).toEqual(['GET /user', 'POST'])
  })

  it.each([
    ['  - { route: GET /user, status: 404 }', 'faults[0].status'],
    ['  - { route: GET /user }', 'needs delay, status, reset or malformed'],
    ['  - { route: GET /user, status: 503, times: 0 }', 'faults[0].times'],
    ['  - { route: GET /user, status: 503, nope: 1 }', 'nope'],
  ])('refuses %s at its line', (rule, text) => {
    const found = problems(() => parseScenario(scenario(rule)))
    expect(found.length).toBeGreaterThan(0)
    expect(found.join('\n')).toContain(text)
    expect(found[0]).toMatch(/^5:\d+ /)
  })

  it('is a top-level key only: an included file may not set it', () => {
    const found = problems(() => parseScenario('version: 1\ninclude: [more.yaml]\n', { file: 'main.yaml', include: () => 'faults: [{ status: 503 }]\n' }))
    expect(found.join('\n')).toContain('is only allowed in the top-level scenario')
  })

  it('replaces the rules in force when loaded at runtime; a scenario without the key leaves them', async () => {
    const sim = createSimulator({ scenario: scenario('  - { route: GET /user, status: 502 }') })
    sim.loadScenario(scenario('  - { route: GET /user, status: 429, retryAfter: 7 }'))
    const res = await user(sim)
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '7'])
    sim.loadScenario('version: 1\nusers: [{ username: zoe, tokens: [{ token: glpat-zoe, scopes: [api] }] }]\n')
    expect(sim.faults.list()).toHaveLength(1)
  })

  it('is accepted in a ScenarioInput object', async () => {
    const sim = createSimulator({ scenario: { version: 1, users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }], faults: [{ route: 'GET /user', malformed: true }] } })
    await expect((await user(sim)).json()).rejects.toThrow()
  })
})
