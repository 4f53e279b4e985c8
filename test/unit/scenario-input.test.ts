/**
 * Scenario objects written in code (`ScenarioInput`) are validated exactly as YAML, and
 * `sim.arrange()` adds records through the scenario's loaders (issue 12, "Typed scenario input and
 * arranging data").
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  createSimulator,
  parseScenario,
  ScenarioError,
  type Issue,
  type Label,
  type Member,
  type Milestone,
  type Runner,
  type ScenarioInput,
  type Todo,
} from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'

const get = (sim: ReturnType<typeof createSimulator>, path: string, token: string) =>
  sim.handle(new Request(`http://gitlab.test/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } }))

function problemsOf(run: () => unknown): string[] {
  try {
    run()
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => p.message)
    throw error
  }
  throw new Error('no ScenarioError')
}

describe('createSimulator({ scenario: ScenarioInput })', () => {
  it('fills what a plain object leaves out, as YAML does (no revoked/impersonation needed)', async () => {
    const scenario: ScenarioInput = {
      version: 1,
      now: '2021-04-01T12:00:00Z',
      users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }],
      groups: [{ path: 'team', members: [{ user: 'zoe', access_level: 'owner' }], labels: [{ name: 'bug' }] }],
    }
    const sim = createSimulator({ scenario })
    const res = await get(sim, '/user', 'glpat-zoe')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ username: 'zoe' })
    const labels = (await (await get(sim, '/groups/team/labels', 'glpat-zoe')).json()) as Label[]
    expect(labels.map((l) => [l.name, l.color])).toEqual([['bug', '#428BCA']])
  })

  it('gives the same answers as the same scenario in YAML', async () => {
    const yaml = 'version: 1\nnow: 2021-04-01T12:00:00Z\nusers:\n  - { username: zoe, tokens: [{ token: glpat-zoe, scopes: [api] }] }\n'
    const fromObject = createSimulator({ scenario: { version: 1, now: '2021-04-01T12:00:00Z', users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }] } })
    const fromYaml = createSimulator({ scenario: yaml })
    expect(await (await get(fromObject, '/user', 'glpat-zoe')).text()).toBe(await (await get(fromYaml, '/user', 'glpat-zoe')).text())
  })

  it.each([
    ['a wrong type', { version: 1, users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: 'api' }] }] }, 'users: [{ username: zoe, tokens: [{ token: glpat-zoe, scopes: api }] }]'],
    ['an unknown reference', { version: 1, groups: [{ path: 'team', members: [{ user: 'nobody', access_level: 'owner' }] }] }, 'groups: [{ path: team, members: [{ user: nobody, access_level: owner }] }]'],
    ['an unknown field', { version: 1, users: [{ username: 'zoe', nmae: 'Zoe' }] }, 'users: [{ username: zoe, nmae: Zoe }]'],
  ])('refuses %s with the problems YAML gets (ScenarioError, no TypeError)', (_what, object, yamlBody) => {
    const fromObject = problemsOf(() => createSimulator({ scenario: object as unknown as ScenarioInput }))
    const fromYaml = problemsOf(() => parseScenario(`version: 1\n${yamlBody}\n`))
    expect(fromObject).toEqual(fromYaml)
    expect(fromObject.length).toBeGreaterThan(0)
  })

  it('refuses what is not a scenario at all with a ScenarioError', () => {
    expect(problemsOf(() => createSimulator({ scenario: { users: 'zoe' } as unknown as ScenarioInput })).length).toBeGreaterThan(0)
    expect(problemsOf(() => createSimulator({ scenario: [] as unknown as ScenarioInput })).length).toBeGreaterThan(0)
  })

  it('takes a parsed scenario as it is (validated once)', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    expect((await get(sim, '/user', 'glpat-max-fakelab')).status).toBe(200)
  })
})

describe('sim.arrange()', () => {
  it('adds users, groups and projects with faker-filled fields, and reset() drops them', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const { users: [zoe], groups: [team], projects: [app] } = sim.arrange({
      users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }],
      groups: [{ path: 'team', members: [{ user: 'zoe', access_level: 'maintainer' }] }],
      projects: [{ path: 'app', namespace: 'team', issues: [{ title: 'First', author: 'zoe' }] }],
    })
    expect(zoe!.id).toBeGreaterThan(90)
    expect(zoe!.name).not.toBe('')
    expect(zoe!.email).toContain('@')
    expect(team!.path).toBe('team')
    const issues = (await (await get(sim, `/projects/${app!.id}/issues`, 'glpat-zoe')).json()) as Issue[]
    expect(issues.map((i) => [i.iid, i.title, i.author?.username])).toEqual([[1, 'First', 'zoe']])
    sim.reset()
    expect((await get(sim, '/user', 'glpat-zoe')).status).toBe(401)
  })

  it('refers to the store\'s users and groups: a project in acme, its members and authors', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const before = { users: sim.db.tables.users.all().length, groups: sim.db.tables.groups.all().length }
    const { projects: [tool] } = sim.arrange({
      projects: [{
        path: 'tool',
        namespace: 'acme/platform',
        visibility: 'private',
        members: [{ user: 'oscar', access_level: 'developer' }],
        labels: [{ name: 'p1' }],
        issues: [{ title: 'Arranged', author: 'devon', labels: ['p1'] }],
      }],
    })
    expect(sim.db.groupFullPath(sim.db.tables.groups.get(tool!.namespace_id)!)).toBe('acme/platform')
    expect({ users: sim.db.tables.users.all().length, groups: sim.db.tables.groups.all().length }).toEqual(before)
    const issues = (await (await get(sim, '/projects/acme%2Fplatform%2Ftool/issues', 'glpat-oscar-fakelab')).json()) as Issue[]
    expect(issues.map((i) => [i.title, i.author?.username, i.labels])).toEqual([['Arranged', 'devon', ['p1']]])
    expect((await get(sim, '/projects/acme%2Fplatform%2Ftool', 'glpat-nora-fakelab')).status).toBe(404)
  })

  it('fills the same values for the same seed', async () => {
    const scenario = await loadDefaultScenario()
    const names = [1, 2].map(() => createSimulator({ scenario }).arrange({ users: [{ username: 'zoe' }] }).users[0]!.name)
    expect(names[0]).toBe(names[1])
  })

  it('refuses a name the store has, and references to records it does not define, writing nothing', async () => {
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    const before = sim.exportState()
    expect(problemsOf(() => sim.arrange({ users: [{ username: 'MAX' }], groups: [{ path: 'acme' }], projects: [{ path: 'website', namespace: 'acme' }] }))).toEqual([
      'users[0].username: user "MAX" is already in the store',
      'groups[0].path: group "acme" is already in the store',
      'projects[0].path: project "acme/website" is already in the store',
    ])
    expect(problemsOf(() => sim.arrange({ projects: [{ path: 'x', namespace: 'nowhere' }] }))[0]).toMatch(/^projects\[0\]\.namespace: .*nowhere/)
    expect(sim.exportState()).toBe(before)
  })
})

describe('entity types', () => {
  it('are the presenters\' shapes', () => {
    expectTypeOf<Label>().toHaveProperty('color').toEqualTypeOf<string>()
    expectTypeOf<Milestone>().toHaveProperty('due_date')
    expectTypeOf<Issue>().toHaveProperty('time_stats')
    expectTypeOf<Runner>().toHaveProperty('runner_type')
    expectTypeOf<Member>().toHaveProperty('access_level')
    expectTypeOf<Todo>().toHaveProperty('target_type')
  })
})
