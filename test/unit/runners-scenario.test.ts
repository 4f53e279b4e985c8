/**
 * The runners part of the scenario format (issue 7): what a scenario may say about runners, their
 * jobs and pipelines, the problems reported at their place, and what faker fills in.
 */
import { describe, expect, it } from 'vitest'
import { ScenarioError } from '../../src/scenario/index.js'
import { createSimulator, parseScenario } from '../../src/simulator.js'

function problemsOf(text: string): string[] {
  try {
    parseScenario(text, { file: 'test.yaml' })
  } catch (error) {
    if (error instanceof ScenarioError) return error.message.split('\n')
    throw error
  }
  return []
}

const BASE = `version: 1
now: "2021-04-01T12:00:00Z"
users: [{ username: alice }]
groups: [{ path: acme }]
projects:
  - path: web
    namespace: acme
    pipelines: [{ id: 7, user: alice }]
`

describe('runners in a scenario', () => {
  it('derives runner_type, links projects and groups, loads jobs and fills the rest', () => {
    const sim = createSimulator({
      scenario: parseScenario(`${BASE}runners_registration_token: reg-token
runners:
  - { description: shared }
  - { groups: [acme], tag_list: [a] }
  - projects: [acme/web]
    contacted_at: 2021-04-01T11:00:00Z
    jobs: [{ pipeline: 7, status: running }, { pipeline: 7, user: alice, status: success }]
`),
    })
    const t = sim.db.tables
    expect(t.runners.all().map((r) => [r.id, r.runner_type, r.contacted_at])).toEqual([
      [1, 'instance_type', null], [2, 'group_type', null], [3, 'project_type', '2021-04-01T11:00:00.000Z'],
    ])
    expect(t.application_settings.get(1)!.runners_registration_token).toBe('reg-token')
    expect(t.runner_projects.all().map((l) => [l.runner_id, l.project_id])).toEqual([[3, t.projects.all()[0]!.id]])
    expect(t.runner_namespaces.all().map((l) => l.runner_id)).toEqual([2])
    const jobs = t.jobs.all()
    expect(jobs.map((j) => [j.id, j.runner_id, j.pipeline_id, j.status, j.finished_at])).toEqual([[1, 3, 7, 'running', null], [2, 3, 7, 'success', expect.any(String)]])
    expect(jobs[0]!.user_id).toBe(t.users.all()[0]!.id) // the pipeline's user
    expect(t.runners.get(1)!.token).toMatch(/^[A-Za-z0-9]{20}$/)
    expect(t.pipelines.get(7)!.sha).toMatch(/^[0-9a-f]{40}$/)
  })

  it('refuses the top-level runner fields in an included file', () => {
    let message = ''
    try {
      parseScenario(`${BASE}include: [inc.yaml]\n`, { file: 'test.yaml', include: () => 'runners: [{ description: x }]\nrunners_registration_token: t\n' })
    } catch (error) {
      message = error instanceof ScenarioError ? error.message : String(error)
    }
    expect(message.split('\n')).toEqual([
      'inc.yaml:1:10 runners: is only allowed in the top-level scenario, not in an included file',
      'inc.yaml:2:29 runners_registration_token: is only allowed in the top-level scenario, not in an included file',
    ])
  })

  it('generates the instance registration token when the scenario leaves it out', () => {
    const sim = createSimulator({ scenario: parseScenario(BASE) })
    expect(sim.db.tables.application_settings.get(1)!.runners_registration_token).toMatch(/^GR1348941[A-Za-z0-9]{20}$/)
  })

  it('reports every reference problem at its place', () => {
    expect(problemsOf(`${BASE}runners:
  - { runner_type: instance_type, projects: [acme/web] }
  - { runner_type: group_type }
  - { projects: [acme/nope], token: t1 }
  - { groups: [nope], token: t1 }
  - projects: [acme/web]
    jobs: [{ pipeline: 8 }, { pipeline: 7, user: bob }, { pipeline: 7, project: acme/other }]
  - { id: 9, jobs: [{ pipeline: 7 }] }
`)).toEqual([
      'test.yaml:10:5 runners[0]: an instance_type runner belongs to no project or group',
      'test.yaml:11:5 runners[1]: a group_type runner belongs to exactly one group (groups: [path]) and no project',
      'test.yaml:12:18 runners[2].projects[0]: unknown project "acme/nope"',
      'test.yaml:13:16 runners[3].groups[0]: unknown group "nope"',
      'test.yaml:13:30 runners[3].token: token "t1" is already used by runners[2]',
      'test.yaml:15:24 runners[4].jobs[0].pipeline: unknown pipeline 8 of project "acme/web"',
      'test.yaml:15:50 runners[4].jobs[1].user: unknown user "bob"',
      'test.yaml:15:81 runners[4].jobs[2].project: unknown project "acme/other"',
      'test.yaml:16:21 runners[5].jobs[0]: needs a project (the runner has no single project)',
    ])
  })
})
