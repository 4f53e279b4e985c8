/**
 * Pipelines in the scenario format and the status rules (issue 25 item 3): a project's
 * `ci_config` and `public_builds`, a pipeline's own `jobs` and `variables`, their checks and
 * defaults, and GitLab's composite status of a set of jobs.
 * Source: gitlab (13.x): lib/gitlab/ci/status/composite.rb, lib/gitlab/ci/config/entry/job.rb.
 */
import { describe, expect, it } from 'vitest'
import { compositeStatus } from '../../src/resources/runners/pipelines.service.js'
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
`

describe('pipelines in a scenario', () => {
  it('loads the CI definition, public_builds, pipeline jobs with their defaults, and variables', () => {
    const sim = createSimulator({
      scenario: parseScenario(`${BASE}    public_builds: false
    ci_config:
      stages: [build, deploy]
      jobs: [{ name: make, stage: build }, { name: ship, stage: deploy, when: manual }]
    pipelines:
      - id: 7
        user: alice
        status: manual
        variables: [{ key: ENV, value: prod }]
        jobs: [{ name: make, stage: build, status: success }, { id: 40, name: ship, stage: deploy, status: manual }]
runners:
  - projects: [acme/web]
    jobs: [{ pipeline: 7, stage: deploy, name: notify, status: skipped, when: on_failure }]
`),
    })
    const t = sim.db.tables
    const project = t.projects.all()[0]!
    expect(t.project_ci_configs.get(project.id)).toEqual({
      id: project.id, project_id: project.id, stages: ['build', 'deploy'],
      jobs: [{ name: 'make', stage: 'build', when: 'on_success', allow_failure: false }, { name: 'ship', stage: 'deploy', when: 'manual', allow_failure: true }],
    })
    expect(t.project_ci_settings.get(project.id)?.public_builds).toBe(false)
    expect(t.jobs.all().map((j) => [j.id, j.name, j.status, j.when, j.allow_failure, j.stage_idx, j.runner_id, j.started_at])).toEqual([
      // Ids past every explicit one, the runners' jobs first.
      [41, 'notify', 'skipped', 'on_failure', false, 1, 1, null],
      [42, 'make', 'success', 'on_success', false, 0, null, expect.any(String)],
      [40, 'ship', 'manual', 'manual', true, 1, null, null],
    ])
    expect(t.pipeline_variables.all().map((v) => [v.pipeline_id, v.key, v.value, v.variable_type])).toEqual([[7, 'ENV', 'prod', 'env_var']])
  })

  it.each([
    ['a stage outside the stages', '    ci_config: { stages: [build], jobs: [{ name: a, stage: test }] }\n', 'stage "test" is not one of the stages (build)'],
    ['a job name twice', '    ci_config: { jobs: [{ name: a }, { name: a }] }\n', 'duplicate job name "a"'],
    ['a job id twice', '    pipelines: [{ id: 1, jobs: [{ id: 5, name: a }, { id: 5, name: b }] }]\n', 'duplicate jobs id 5'],
    ['an unknown job user', '    pipelines: [{ id: 1, jobs: [{ name: a, user: nobody }] }]\n', 'unknown user "nobody"'],
    ['a bad variable key', '    pipelines: [{ id: 1, variables: [{ key: "A-B", value: x }] }]\n', 'must be letters, digits and _'],
  ])('reports %s', (_, yaml, problem) => {
    expect(problemsOf(`${BASE}${yaml}`).join('\n')).toContain(problem)
  })

  // issue 40 item 4: with a repository the definition is its committed .gitlab-ci.yml.
  it('reports ci_config beside a repository at the ci_config, and takes either alone', () => {
    const repository = '    repository:\n      commits: [{ message: "Initial commit\\n", files: { README.md: "x" } }]\n'
    const ciConfig = '    ci_config:\n      jobs: [{ name: a }]\n'
    const problems = problemsOf(`${BASE}${repository}${ciConfig}`)
    expect(problems.filter((p) => p.includes('ci_config'))).toEqual([
      'test.yaml:11:7 projects[0].ci_config: ci_config stands in for .gitlab-ci.yml only in a project without a `repository:`; this project has one: commit the definition as `.gitlab-ci.yml` in its `repository: commits:` instead',
    ])
    expect(problemsOf(`${BASE}${ciConfig}${repository}`).filter((p) => p.includes('ci_config'))).toHaveLength(1)
    expect(problemsOf(`${BASE}${repository}`)).toEqual([])
    expect(problemsOf(`${BASE}${ciConfig}`)).toEqual([])
  })
})

describe('compositeStatus (Gitlab::Ci::Status::Composite with allow_failure)', () => {
  const job = (status: string, allow_failure = false) => ({ status, allow_failure })
  it.each([
    [[], undefined],
    [[job('success'), job('skipped')], 'success'],
    [[job('success'), job('failed', true)], 'success'],
    [[job('manual', true)], 'skipped'],
    [[job('success'), job('manual')], 'manual'],
    [[job('pending'), job('created')], 'pending'],
    [[job('success'), job('pending')], 'running'],
    [[job('success'), job('created')], 'running'],
    [[job('canceled'), job('skipped')], 'canceled'],
    [[job('failed'), job('success')], 'failed'],
    [[job('created'), job('manual', true)], 'created'],
  ] as const)('%j is %s', (jobs, expected) => {
    expect(compositeStatus(jobs)).toBe(expected)
  })
})
