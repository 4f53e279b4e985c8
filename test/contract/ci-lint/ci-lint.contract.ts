/**
 * CI lint as 13.12 answers it: `POST /ci/lint` (`status`/`errors`/`warnings`, `merged_yaml` when
 * asked) and the project routes' `Entities::Ci::Lint::Result`, with the pipelines' own reader.
 * Source: gitlab: lib/api/lint.rb (13.12), lib/gitlab/ci/yaml_processor.rb,
 * lib/gitlab/config/loader/yaml.rb; python-gitlab tests/functional/api/test_gitlab.py (test_lint),
 * tests/functional/cli/test_cli_v4.py (ci-lint), tests/conftest.py (its valid and invalid YAML).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

/** python-gitlab's fixture: keys written as Ruby symbols. */
const SYMBOL_KEYS = '---\n:test_job:\n  :script: echo 1\n'

contract('POST /ci/lint', {}, ({ api }) => {
  it.each([
    ['symbol keys (python-gitlab\'s valid fixture)', SYMBOL_KEYS, 'valid', []],
    ['a plain job', 'build:\n  stage: build\n  script: make\n', 'valid', []],
    ['a string', 'invalid', 'invalid', ['Invalid configuration format']],
    ['blank content', '  ', 'invalid', ['Please provide content of .gitlab-ci.yml']],
    ['no visible job', '.hidden:\n  script: x\n', 'invalid', ['jobs config should contain at least one visible job']],
    ['a job without script', 'build:\n  stage: test\n', 'invalid', ['jobs:build config should implement a script: or a trigger: keyword']],
    ['unknown job keys', 'build:\n  script: x\n  scriptt: y\n  foo: 1\n', 'invalid', ['jobs:build config contains unknown keys: scriptt, foo']],
    ['a job that is not a hash', 'build: make\n', 'invalid', ['jobs:build config should be a hash']],
    ['an unknown stage', 'stages: [build]\ndeploy:\n  stage: deploy\n  script: x\n', 'invalid', ['deploy job: chosen stage does not exist; available stages are .pre, build, .post']],
  ])('%s', async (_, content, status, errors) => {
    const res = await api.post('/ci/lint', { as: 'nora', body: { content } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status, errors, warnings: [] })
    expect(Object.keys(res.body)).toEqual(['status', 'errors', 'warnings'])
  })

  it('reports a YAML syntax error with the parser\'s message', async () => {
    const res = await api.post('/ci/lint', { as: 'nora', body: { content: 'a: [1, 2\nb: }' } })
    expect(res.body.status).toBe('invalid')
    expect(res.body.errors).toHaveLength(1)
    expect(res.body.errors[0]).toMatch(/^\(<unknown>\): /)
  })

  it('adds merged_yaml when asked, with the symbol keys read as names', async () => {
    const res = await api.post('/ci/lint', { as: 'nora', body: { content: SYMBOL_KEYS, include_merged_yaml: true } })
    expect(res.text).toBe('{"status":"valid","errors":[],"warnings":[],"merged_yaml":"---\\ntest_job:\\n  script: echo 1\\n"}')
    const bad = await api.post('/ci/lint', { as: 'nora', body: { content: 'invalid', include_merged_yaml: true } })
    expect(bad.body.merged_yaml).toBeNull()
  })

  it('is open to anonymous callers (sign-up enabled) and needs content', async () => {
    expect((await api.post('/ci/lint', { body: { content: SYMBOL_KEYS } })).body.status).toBe('valid')
    expect(await api.post('/ci/lint', { as: 'nora', body: {} })).toBeGitLabError(400, { error: 'content is missing' })
  })
})

contract('GET|POST /projects/:id/ci/lint', {}, ({ api }) => {
  it('POST lints given content as Entities::Ci::Lint::Result', async () => {
    const res = await api.post('/projects/20/ci/lint', { as: 'devon', body: { content: SYMBOL_KEYS } })
    expect(res.status).toBe(200)
    expect(res.text).toBe('{"valid":true,"errors":[],"warnings":[],"merged_yaml":"---\\ntest_job:\\n  script: echo 1\\n"}')
    const bad = await api.post('/projects/20/ci/lint', { as: 'devon', body: { content: 'invalid', dry_run: true } })
    expect(bad.body).toEqual({ valid: false, errors: ['Invalid configuration format'], warnings: [], merged_yaml: null })
  })

  it('POST needs create_pipeline: a Reporter 403, a non-member of a private project 404', async () => {
    expect(await api.post('/projects/20/ci/lint', { as: 'riley', body: { content: SYMBOL_KEYS } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/21/ci/lint', { as: 'nora', body: { content: SYMBOL_KEYS } })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })

  it('GET lints the default branch\'s .gitlab-ci.yml, after a commit adds one (ivy/tracker has none)', async () => {
    const none = await api.get('/projects/30/ci/lint', { as: 'devon' })
    expect(none.status).toBe(200)
    const write = await api.post('/projects/30/repository/commits', {
      as: 'max',
      body: { branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: make\n' }] },
    })
    expect(write.status).toBe(201)
    const res = await api.get('/projects/30/ci/lint', { as: 'devon' })
    expect(res.body).toEqual({ valid: true, errors: [], warnings: [], merged_yaml: '---\nbuild:\n  script: make\n' })
  })

  it('GET lints acme/website\'s committed .gitlab-ci.yml (the default scenario\'s CI definition)', async () => {
    const res = await api.get('/projects/20/ci/lint', { as: 'devon' })
    expect([res.status, res.body.valid, res.body.errors]).toEqual([200, true, []])
    expect(res.body.merged_yaml).toContain('deploy-production:')
  })

  it('GET on a project without .gitlab-ci.yml (ivy/tracker) lints no content', async () => {
    const res = await api.get('/projects/30/ci/lint', { as: 'devon' })
    expect(res.body.valid).toBe(false)
    expect(res.body.errors).toEqual(['Please provide content of .gitlab-ci.yml'])
  })
})
