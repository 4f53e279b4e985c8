/**
 * A CI job token's `job:` in the scenario format: the runner job it is the token of (what `GET /job`
 * presents), with the job's status and user. Source: src/resources/authentication/authentication.scenario.ts.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, parseScenario } from '../../src/simulator.js'
import { scenarioProblems } from '../support/scenario-problems.js'

const BASE = `version: 1
users: [{ username: alice }, { username: bob }]
groups: [{ path: acme }]
runners:
  - projects: [acme/web]
    jobs: [{ id: 70, pipeline: 7, user: alice, status: running }, { id: 71, pipeline: 7, status: success }]
projects:
  - path: web
    namespace: acme
    pipelines: [{ id: 7, user: alice }]
    job_tokens:
`

describe('job_tokens[].job', () => {
  it('links the token to its job (null when the scenario names none)', () => {
    const sim = createSimulator({ scenario: parseScenario(`${BASE}      - { token: t1, user: alice, job: 70 }\n      - { token: t2, user: bob }\n`) })
    expect(sim.db.tables.ci_job_tokens.all().map((t) => [t.token, t.job_id, t.status])).toEqual([['t1', 70, 'running'], ['t2', null, 'running']])
  })

  it('reports an unknown job, and a status or user other than the job\'s', () => {
    expect(scenarioProblems(`${BASE}      - { token: t1, user: alice, job: 99 }\n      - { token: t2, user: alice, job: 71 }\n      - { token: t3, user: bob, job: 70 }\n`)).toEqual([
      'test.yaml:12:40 projects[0].job_tokens[0].job: unknown job 99 (no runners[].jobs[] entry has this id)',
      'test.yaml:13:9 projects[0].job_tokens[1].status: must be job 71\'s status (success)',
      'test.yaml:14:28 projects[0].job_tokens[2].user: must be job 70\'s user (alice)',
    ])
  })
})
