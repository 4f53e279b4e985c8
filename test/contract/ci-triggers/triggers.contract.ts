/**
 * Pipeline triggers (issue 36 item 2): trigger tokens (Maintainer+; the token in full only for its
 * owner) and `POST /projects/:id/(ref/:ref/)trigger/pipeline`: a `trigger` pipeline as the token's
 * owner whose `.gitlab-ci.yml` rules read the trigger's variables; 404 for a bad token, 400 texts.
 * Source: gitlab (13.12): lib/api/triggers.rb, app/services/ci/pipeline_trigger_service.rb,
 * app/presenters/ci/trigger_presenter.rb; python-gitlab tests/functional/api/test_projects.py
 * (test_project_triggers). Default scenario: project 20 acme/website (max maintainer, olive owner
 * of acme, devon developer); clock frozen at 2021-04-01T12:00:00Z; next pipeline id 1008 (a branch off
 * main, which has the `.gitlab-ci.yml`, takes it with its push, the commit rewriting the file 1009, so
 * the triggered pipeline is 1010).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'

const CI = `
triggered:
  rules:
    - if: '$CI_PIPELINE_SOURCE == "trigger" && $DEPLOY_TO == "staging"'
  script: deploy
always:
  script: test
`

contract('/projects/:id/triggers', {}, ({ api }) => {
  it('creates, lists, gets, updates and deletes a trigger (python-gitlab test_project_triggers)', async () => {
    const made = await api.post('/projects/20/triggers', { as: 'max', body: { description: 'trigger1' } })
    expect(made.status).toBe(201)
    const max = { id: 5, name: 'Max Maintainer', username: 'max', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/max` }
    expect(Object.keys(made.body as object)).toEqual(['id', 'token', 'description', 'created_at', 'updated_at', 'last_used', 'owner'])
    expect(made.body).toMatchObject({ description: 'trigger1', created_at: NOW, updated_at: NOW, last_used: null })
    expect(made.body.owner).toMatchObject({ id: max.id, username: 'max' })
    const token = made.body.token as string
    expect(token).toMatch(/^[0-9a-f]{40}$/)
    expect((await api.get('/projects/20/triggers', { as: 'max' })).body).toEqual([made.body])
    // Another maintainer sees the first 4 characters only, and may not update it.
    const asOlive = await api.get(`/projects/20/triggers/${made.body.id}`, { as: 'olive' })
    expect(asOlive.body.token).toBe(token.slice(0, 4))
    expect(await api.put(`/projects/20/triggers/${made.body.id}`, { as: 'olive', body: { description: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.put(`/projects/20/triggers/${made.body.id}`, { as: 'max', body: { description: 'renamed' } })).body).toMatchObject({ description: 'renamed', token })
    expect((await api.delete(`/projects/20/triggers/${made.body.id}`, { as: 'max' })).status).toBe(204)
    expect(await api.get(`/projects/20/triggers/${made.body.id}`, { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
    expect((await api.get('/projects/20/triggers', { as: 'max' })).body).toEqual([])
  })

  it('is for Maintainers; a description is required', async () => {
    expect(await api.get('/projects/20/triggers')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/projects/20/triggers', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/20/triggers', { as: 'max', body: {} })).toBeGitLabError(400, { error: 'description is missing' })
  })

  it('triggers a pipeline whose rules read the trigger\'s variables, as the owner, without authentication', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'ci-trigger', ref: 'main' } })).status).toBe(201)
    expect((await api.put('/projects/20/repository/files/.gitlab-ci.yml', { as: 'max', body: { branch: 'ci-trigger', content: CI, commit_message: 'CI' } })).status).toBe(200)
    const token = (await api.post('/projects/20/triggers', { as: 'max', body: { description: 'deploy' } })).body.token as string
    const res = await api.post('/projects/20/trigger/pipeline', { form: { token, ref: 'ci-trigger', 'variables[DEPLOY_TO]': 'staging' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ id: 1010, ref: 'ci-trigger', status: 'pending', user: { username: 'max' } })
    const pipeline = await api.get('/projects/20/pipelines/1010', { as: 'max' })
    expect(pipeline.body.id).toBe(1010)
    const jobs = (await api.get('/projects/20/pipelines/1010/jobs', { as: 'max' })).body as { name: string }[]
    expect(jobs.map((j) => j.name).sort()).toEqual(['always', 'triggered'])
    expect((await api.get('/projects/20/pipelines/1010/variables', { as: 'max' })).body).toEqual([{ variable_type: 'env_var', key: 'DEPLOY_TO', value: 'staging' }])
    // The ref in the path; no variables: the rule leaves its job out.
    const byPath = await api.post('/projects/acme%2Fwebsite/ref/ci-trigger/trigger/pipeline', { body: { token } })
    expect(byPath.status).toBe(201)
    expect(((await api.get(`/projects/20/pipelines/${byPath.body.id}/jobs`, { as: 'max' })).body as { name: string }[]).map((j) => j.name)).toEqual(['always'])
    expect((await api.get('/projects/20/triggers', { as: 'max' })).body[0].last_used).toBe(NOW)
  })

  it('refuses a bad token (404), bad variables and refs (400)', async () => {
    const token = (await api.post('/projects/20/triggers', { as: 'max', body: { description: 'd' } })).body.token as string
    expect(await api.post('/projects/20/trigger/pipeline', { body: { token: 'nope', ref: 'main' } })).toBeGitLabError(404, { message: '404 Not Found' })
    // Another project's path with this project's token.
    expect(await api.post('/projects/30/trigger/pipeline', { body: { token, ref: 'main' } })).toBeGitLabError(404, { message: '404 Not Found' })
    expect(await api.post('/projects/20/trigger/pipeline', { body: { token } })).toBeGitLabError(400, { error: 'ref is missing' })
    expect(await api.post('/projects/20/trigger/pipeline', { body: { token, ref: 'main', variables: { A: 1 } } })).toBeGitLabError(400, { message: 'variables needs to be a map of key-valued strings' })
    expect(await api.post('/projects/20/trigger/pipeline', { body: { token, ref: 'no-such-branch' } })).toBeGitLabError(400, { message: { base: ['Reference not found'] } })
  })
})
