/**
 * Project and group CI variables (issue 36 item 1): CRUD with the 13.12 entity, environment scopes
 * and the `filter[environment_scope]` rule, the models' 400 texts, who may use them (Maintainer+),
 * and the variables reaching the pipelines fakelab makes (`rules: if:` and `only: variables:`
 * read instance, group, project and pipeline variables in GitLab's precedence; protected ones only
 * on protected refs). Source: gitlab (13.12): lib/api/variables.rb, lib/api/group_variables.rb,
 * lib/api/helpers/variables_helpers.rb, app/models/ci/variable.rb, app/models/ci/group_variable.rb,
 * app/models/ci/build.rb (`scoped_variables`); python-gitlab tests/functional/api/test_variables.py.
 * Default scenario: project 20 acme/website in group acme (max maintainer, devon developer,
 * riley reporter); project 30 ivy/tracker (max maintainer); the next pipeline id is 1008.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

contract('/projects/:id/variables', {}, ({ api }) => {
  it('creates, lists, gets, updates and deletes a variable (python-gitlab test_project_variables)', async () => {
    expect((await api.get('/projects/20/variables', { as: 'max' })).body).toEqual([])
    const made = await api.post('/projects/20/variables', { as: 'max', body: { key: 'key1', value: 'value1' } })
    expect(made.status).toBe(201)
    expect(made.text).toBe('{"variable_type":"env_var","key":"key1","value":"value1","protected":false,"masked":false,"environment_scope":"*"}')
    expect((await api.get('/projects/acme%2Fwebsite/variables', { as: 'max' })).body).toEqual([made.body])
    const put = await api.put('/projects/20/variables/key1', { as: 'max', body: { value: 'new_value1', protected: true, variable_type: 'file' } })
    expect(put.body).toEqual({ variable_type: 'file', key: 'key1', value: 'new_value1', protected: true, masked: false, environment_scope: '*' })
    expect((await api.get('/projects/20/variables/key1', { as: 'max' })).body).toEqual(put.body)
    expect((await api.delete('/projects/20/variables/key1', { as: 'max' })).status).toBe(204)
    expect(await api.get('/projects/20/variables/key1', { as: 'max' })).toBeGitLabError(404, { message: '404 Variable Not Found' })
    expect(await api.put('/projects/20/variables/key1', { as: 'max', body: { value: 'x' } })).toBeGitLabError(404, { message: '404 Variable Not Found' })
    expect(await api.delete('/projects/20/variables/key1', { as: 'max' })).toBeGitLabError(404, { message: '404 Variable Not Found' })
  })

  it('keeps one key per environment scope, and asks for filter[environment_scope] when several match', async () => {
    const a = await api.post('/projects/20/variables', { as: 'max', body: { key: 'DEPLOY', value: 'all' } })
    const b = await api.post('/projects/20/variables', { as: 'max', body: { key: 'DEPLOY', value: 'prod', environment_scope: 'production' } })
    expect([a.status, b.status]).toEqual([201, 201])
    expect(await api.post('/projects/20/variables', { as: 'max', body: { key: 'DEPLOY', value: 'again', environment_scope: 'production' } })).toBeGitLabError(400, { message: { key: ['(DEPLOY) has already been taken'] } })
    const ambiguous = { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" }
    expect(await api.get('/projects/20/variables/DEPLOY', { as: 'max' })).toBeGitLabError(409, ambiguous)
    expect(await api.put('/projects/20/variables/DEPLOY', { as: 'max', body: { value: 'x' } })).toBeGitLabError(409, ambiguous)
    expect(await api.delete('/projects/20/variables/DEPLOY', { as: 'max' })).toBeGitLabError(409, ambiguous)
    expect((await api.get('/projects/20/variables/DEPLOY?filter[environment_scope]=production', { as: 'max' })).body).toMatchObject({ value: 'prod', environment_scope: 'production' })
    const put = await api.put('/projects/20/variables/DEPLOY', { as: 'max', body: { value: 'prod2', filter: { environment_scope: 'production' } } })
    expect(put.body).toMatchObject({ value: 'prod2', environment_scope: 'production' })
    expect(await api.get('/projects/20/variables/DEPLOY?filter[environment_scope]=staging', { as: 'max' })).toBeGitLabError(404, { message: '404 Variable Not Found' })
    expect((await api.delete('/projects/20/variables/DEPLOY?filter[environment_scope]=*', { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/20/variables/DEPLOY', { as: 'max' })).body).toMatchObject({ value: 'prod2' })
  })

  it.each([
    [{ key: 'BAD KEY', value: 'x' }, { key: ["can contain only letters, digits and '_'."] }],
    [{ key: 'M', value: 'short', masked: true }, { value: ['is invalid'] }],
    [{ key: 'S', value: 'x', environment_scope: 'bad|scope' }, { environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"] }],
  ])('refuses %j', async (body, message) => {
    expect(await api.post('/projects/20/variables', { as: 'max', body })).toBeGitLabError(400, { message })
  })

  it('refuses a missing value and an unknown type', async () => {
    expect(await api.post('/projects/20/variables', { as: 'max', body: { key: 'T' } })).toBeGitLabError(400, { error: 'value is missing' })
    expect(await api.post('/projects/20/variables', { as: 'max', body: { key: 'T', value: 'v', variable_type: 'other' } })).toBeGitLabError(400, { error: 'variable_type does not have a valid value' })
  })

  it('is for Maintainers: 401 anonymous, 403 a developer, 404 a private project to a non-member', async () => {
    expect(await api.get('/projects/20/variables')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/projects/20/variables', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/20/variables', { as: 'devon', body: { key: 'A', value: 'b' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.get('/projects/20/variables', { as: 'root' })).status).toBe(200)
  })
})

contract('/groups/:id/variables', {}, ({ api }) => {
  it('creates, lists, gets, updates and deletes a variable (python-gitlab test_group_variables)', async () => {
    const made = await api.post('/groups/10/variables', { as: 'max', body: { key: 'key1', value: 'value1', environment_scope: 'production' } })
    expect(made.status).toBe(201)
    // CE 13.12 does not take `environment_scope` for group variables (a Premium parameter): `*`.
    expect(made.text).toBe('{"variable_type":"env_var","key":"key1","value":"value1","protected":false,"masked":false,"environment_scope":"*"}')
    expect((await api.get('/groups/acme/variables', { as: 'max' })).body).toEqual([made.body])
    expect((await api.put('/groups/10/variables/key1', { as: 'max', body: { value: 'new_value1', masked: true } })).body).toMatchObject({ value: 'new_value1', masked: true })
    expect((await api.get('/groups/10/variables/key1', { as: 'max' })).body).toMatchObject({ value: 'new_value1' })
    expect(await api.post('/groups/10/variables', { as: 'max', body: { key: 'key1', value: 'v' } })).toBeGitLabError(400, { message: { key: ['(key1) has already been taken'] } })
    expect((await api.delete('/groups/10/variables/key1', { as: 'max' })).status).toBe(204)
    expect(await api.get('/groups/10/variables/key1', { as: 'max' })).toBeGitLabError(404, { message: '404 GroupVariable Not Found' })
  })

  it('is for Maintainers of the group', async () => {
    expect(await api.get('/groups/10/variables')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/groups/10/variables', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/groups/12/variables', { as: 'devon' })).toBeGitLabError(404, { message: '404 Group Not Found' })
  })
})

/** Commits `content` as `.gitlab-ci.yml` on `branch` (new, off main, which has the file) of project 20, as max. */
async function branchWithCi(api: Api, branch: string, content: string): Promise<void> {
  expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch, ref: 'main' } })).status).toBe(201)
  expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch, content, commit_message: 'CI' } })).status).toBe(200)
}

/** The job names of a pipeline, oldest first. */
async function jobNames(api: Api, id: number): Promise<string[]> {
  return ((await api.get(`/projects/20/pipelines/${id}/jobs`, { as: 'max' })).body as { name: string }[]).map((j) => j.name).reverse()
}

const RULES = `
from-instance:
  rules: [{ if: '$LEVEL_INSTANCE == "i"' }]
  script: x
from-group:
  rules: [{ if: '$LEVEL_GROUP == "g"' }]
  script: x
project-wins:
  rules: [{ if: '$SHARED == "project"' }]
  script: x
pipeline-wins:
  rules: [{ if: '$OVERRIDE == "pipeline"' }]
  script: x
protected-only:
  rules: [{ if: '$SECRET' }]
  script: x
only-variables:
  only:
    variables: ['$FEATURE == "on"']
  script: x
except-variables:
  except:
    variables: ['$FEATURE == "on"']
  script: x
scoped:
  rules: [{ if: '$SCOPED' }]
  script: x
predefined:
  rules: [{ if: '$CI_PROJECT_PATH == "acme/website" && $CI_COMMIT_REF_NAME == "ci-vars" && $CI_PIPELINE_SOURCE == "api"' }]
  script: x
`

contract('CI variables in pipelines', {}, ({ api }) => {
  it('rules and only: variables read predefined, instance, group, project and pipeline variables, in precedence', async () => {
    await branchWithCi(api, 'ci-vars', RULES)
    const post = (path: string, body: Record<string, unknown>) => api.post(path, { as: 'root', body })
    await post('/admin/ci/variables', { key: 'LEVEL_INSTANCE', value: 'i' })
    await post('/admin/ci/variables', { key: 'SHARED', value: 'instance' })
    await post('/groups/10/variables', { key: 'LEVEL_GROUP', value: 'g' })
    await post('/groups/10/variables', { key: 'SHARED', value: 'group' })
    await post('/projects/20/variables', { key: 'SHARED', value: 'project' })
    await post('/projects/20/variables', { key: 'OVERRIDE', value: 'project' })
    await post('/projects/20/variables', { key: 'FEATURE', value: 'on' })
    await post('/projects/20/variables', { key: 'SECRET', value: 'yes', protected: true })
    await post('/projects/20/variables', { key: 'SCOPED', value: 'yes', environment_scope: 'production' })
    const created = await api.post('/projects/20/pipeline', { as: 'max', body: { ref: 'ci-vars', variables: [{ key: 'OVERRIDE', value: 'pipeline' }] } })
    expect(created.status).toBe(201)
    // `ci-vars` is not protected: no protected variable; `scoped` has no environment.
    expect(await jobNames(api, created.body.id as number)).toEqual(['from-instance', 'from-group', 'project-wins', 'pipeline-wins', 'only-variables', 'predefined'])
  })

  it('protected variables reach pipelines of protected branches only', async () => {
    await api.post('/projects/20/variables', { as: 'root', body: { key: 'SECRET', value: 'yes', protected: true } })
    // main is protected: committing there as max (Maintainer) and running a pipeline.
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'main', content: 'secret:\n  rules: [{ if: \'$SECRET == "yes"\' }]\n  script: x\nalways:\n  script: x\n', commit_message: 'CI' } })).status).toBe(200)
    const main = await api.post('/projects/20/pipeline', { as: 'max', body: { ref: 'main' } })
    expect(main.status).toBe(201)
    expect(await jobNames(api, main.body.id as number)).toEqual(['secret', 'always'])
  })
})
