/**
 * Deploy tokens over both doors: the instance list, and the tokens of projects and groups, with
 * GitLab's permissions, validation and answers; and what a deploy token may authenticate.
 * Source: gitlab: lib/api/deploy_tokens.rb, app/models/deploy_token.rb,
 * lib/gitlab/auth/auth_finders.rb (`deploy_token_from_request` only on routes that set
 * `deploy_token_allowed`, the package registries: the REST repository routes do not).
 *
 * Default scenario: acme (group 10, public; olive owns it, max maintains it) holds token 31
 * (read_repository, read_registry); acme/platform/api (project 21, private) holds 32 (username
 * api-deployer), 33 (read_registry, expires 2021-12-31) and 34 (revoked). Today is 2021-04-01.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders } from '../../support/contract.js'
import { deployTokenByToken, deployTokenCanReadRepository, deployTokenLogin, type DeployTokenRecord } from '../../../src/resources/deploy-tokens/deploy-tokens.public.js'

const FIELDS = ['id', 'name', 'username', 'expires_at', 'scopes']
const T31 = { id: 31, name: 'Acme mirror', username: 'gitlab+deploy-token-31', expires_at: null, scopes: ['read_repository', 'read_registry'] }
const T32 = { id: 32, name: 'API deploy', username: 'api-deployer', expires_at: null, scopes: ['read_repository'] }
const T33 = { id: 33, name: 'API registry', username: 'gitlab+deploy-token-33', expires_at: '2021-12-31T00:00:00.000Z', scopes: ['read_registry'] }
const T34 = { id: 34, name: 'Old deploy', username: 'gitlab+deploy-token-34', expires_at: null, scopes: ['read_repository'] }
const FORBIDDEN = { message: '403 Forbidden' }

contract('GET /deploy_tokens', {}, ({ api }) => {
  it('lists every deploy token of the instance to an administrator, revoked ones too', async () => {
    const res = await api.get('/deploy_tokens', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([T31, T32, T33, T34])
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '4' })
  })

  it.each([
    ['anonymous', undefined, 401, { message: '401 Unauthorized' }],
    ['a group owner', 'olive', 403, FORBIDDEN],
  ])('refuses %s', async (_t, as, status, body) => {
    expect(await api.get('/deploy_tokens', as ? { as } : {})).toBeGitLabError(status, body)
  })
})

contract('GET /projects/:id/deploy_tokens', {}, ({ api }) => {
  it('lists the project\'s tokens, without their secrets, to a maintainer', async () => {
    const res = await api.get('/projects/21/deploy_tokens', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([T32, T33, T34])
  })

  it.each([
    ['a developer', 21, 'devon', 403, FORBIDDEN],
    ['a non-member of a public project', 20, 'nora', 403, FORBIDDEN],
    ['a non-member of a private project', 21, 'nora', 404, { message: '404 Project Not Found' }],
  ])('answers %s as GitLab does', async (_t, project, as, status, body) => {
    expect(await api.get(`/projects/${project}/deploy_tokens`, { as })).toBeGitLabError(status, body)
  })
})

contract('GET /groups/:id/deploy_tokens', {}, ({ api }) => {
  it('lists the group\'s tokens to a maintainer', async () => {
    const res = await api.get('/groups/10/deploy_tokens', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([T31])
  })

  it('refuses a developer with 403', async () => {
    expect(await api.get('/groups/10/deploy_tokens', { as: 'devon' })).toBeGitLabError(403, FORBIDDEN)
  })
})

contract('POST /projects/:id/deploy_tokens', {}, ({ api, sim }) => {
  it('creates a token and answers its secret once, as python-gitlab\'s suite reads it back', async () => {
    const res = await api.post('/projects/21/deploy_tokens', { as: 'max', body: { name: 'foo', username: 'bar', expires_at: '2022-01-01', scopes: ['read_registry'] } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual([...FIELDS, 'token'])
    expect(res.body).toMatchObject({ name: 'foo', username: 'bar', expires_at: '2022-01-01T00:00:00.000Z', scopes: ['read_registry'] })
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{20}$/)
    const got = await api.get(`/projects/21/deploy_tokens/${res.body.id}`, { as: 'max' })
    expect(got.body).toEqual({ id: res.body.id, name: 'foo', username: 'bar', expires_at: '2022-01-01T00:00:00.000Z', scopes: ['read_registry'] })
    expect(sim().db.tables.deploy_tokens.get(res.body.id)).toMatchObject({ project_id: 21, group_id: null, creator_id: 5 })
  })

  it('names a token without a username gitlab+deploy-token-<id> and keeps scopes in GitLab\'s order', async () => {
    const res = await api.post('/projects/21/deploy_tokens', { as: 'max', form: { name: 'ci', scopes: 'write_registry,read_repository' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ username: `gitlab+deploy-token-${res.body.id}`, expires_at: null, scopes: ['read_repository', 'write_registry'] })
  })

  it.each([
    ['no scopes', { name: 'x', scopes: [] }, { message: "Scopes can't be blank" }],
    ['a bad username', { name: 'x', scopes: ['read_repository'], username: 'a b' }, { message: "Username can contain only letters, digits, '_', '-', '+', and '.'" }],
    ['an unknown scope', { name: 'x', scopes: ['api'] }, { error: 'scopes does not have a valid value' }],
    ['no name', { scopes: ['read_repository'] }, { error: 'name is missing' }],
    ['a bad expires_at', { name: 'x', scopes: ['read_repository'], expires_at: 'soon' }, { error: 'expires_at is invalid' }],
  ])('answers 400 for %s and creates nothing', async (_t, body, error) => {
    const before = sim().db.tables.deploy_tokens.size
    expect(await api.post('/projects/21/deploy_tokens', { as: 'max', body })).toBeGitLabError(400, error)
    expect(sim().db.tables.deploy_tokens.size).toBe(before)
  })

  it('refuses a developer with 403', async () => {
    expect(await api.post('/projects/21/deploy_tokens', { as: 'devon', body: { name: 'x', scopes: ['read_repository'] } })).toBeGitLabError(403, FORBIDDEN)
  })
})

contract('POST /groups/:id/deploy_tokens', {}, ({ api }) => {
  it('lets an owner create a group token; a maintainer gets 403', async () => {
    const res = await api.post('/groups/10/deploy_tokens', { as: 'olive', body: { name: 'foo', scopes: ['read_registry'] } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'foo', scopes: ['read_registry'] })
    expect(await api.post('/groups/10/deploy_tokens', { as: 'max', body: { name: 'foo', scopes: ['read_registry'] } })).toBeGitLabError(403, FORBIDDEN)
  })
})

contract('GET /projects/:id/deploy_tokens/:token_id', {}, ({ api }) => {
  it('gets one of the project\'s tokens; another holder\'s token is 404', async () => {
    expect((await api.get('/projects/21/deploy_tokens/33', { as: 'max' })).body).toEqual(T33)
    expect(await api.get('/projects/21/deploy_tokens/31', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
    expect((await api.get('/groups/10/deploy_tokens/31', { as: 'max' })).body).toEqual(T31)
  })
})

contract('DELETE /projects/:id/deploy_tokens/:token_id', {}, ({ api, sim }) => {
  it('deletes the token: gone from the project\'s and the instance\'s lists', async () => {
    const res = await api.delete('/projects/21/deploy_tokens/32', { as: 'max' })
    expect(res.status).toBe(204)
    expect(sim().db.tables.deploy_tokens.get(32)).toBeUndefined()
    expect((await api.get('/deploy_tokens', { as: 'root' })).body.map((t: { id: number }) => t.id)).toEqual([31, 33, 34])
  })

  it('answers 404 for a token the project does not hold, and 403 to a developer', async () => {
    expect(await api.delete('/projects/21/deploy_tokens/31', { as: 'max' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.delete('/projects/21/deploy_tokens/32', { as: 'devon' })).toBeGitLabError(403, FORBIDDEN)
    expect(await api.delete('/groups/10/deploy_tokens/31', { as: 'max' })).toBeGitLabError(403, FORBIDDEN)
    expect((await api.delete('/groups/10/deploy_tokens/31', { as: 'olive' })).status).toBe(204)
  })
})

contract('deploy tokens authenticating', {}, ({ api, sim }) => {
  it('reads the repository of its own project and of its group\'s projects, through the finder git over HTTP uses', () => {
    const db = sim().db
    const now = '2021-04-01T12:00:00.000Z'
    const api32 = deployTokenByToken(db, 'fakelab-deploy-api', now)!
    const acme31 = deployTokenByToken(db, 'fakelab-deploy-acme', now)!
    const registry33 = deployTokenByToken(db, 'fakelab-deploy-api-registry', now)!
    const [website, apiProject] = [db.tables.projects.get(20)!, db.tables.projects.get(21)!]
    expect(deployTokenCanReadRepository(db, api32, apiProject)).toBe(true)
    expect(deployTokenCanReadRepository(db, api32, website)).toBe(false)
    expect(deployTokenCanReadRepository(db, acme31, website)).toBe(true)
    expect(deployTokenCanReadRepository(db, acme31, apiProject)).toBe(true) // acme/platform/api: a descendant
    expect(deployTokenCanReadRepository(db, registry33, apiProject)).toBe(false) // no read_repository
    expect(deployTokenByToken(db, 'fakelab-deploy-api-revoked', now)).toBeUndefined()
    expect(deployTokenByToken(db, 'fakelab-deploy-api-registry', '2021-12-31T00:00:00.000Z')).toBeUndefined()
    expect(deployTokenByToken(db, 'nope', now)).toBeUndefined()
    const logins = [api32, acme31].map((t: DeployTokenRecord) => deployTokenLogin(t))
    expect(logins).toEqual(['api-deployer', 'gitlab+deploy-token-31'])
  })

  it('is no API credential on the REST routes, as GitLab\'s are not deploy_token_allowed: 401 as a token, ignored as a header', async () => {
    expect(await api.get('/projects/21/repository/tree', { token: 'fakelab-deploy-api' })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/projects/21/repository/tree', { headers: { 'Deploy-Token': 'fakelab-deploy-api' } })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.get('/projects/21', { headers: { Authorization: 'Bearer fakelab-deploy-api' } })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('once revoked, the finder no longer gives it', () => {
    const db = sim().db
    db.tables.deploy_tokens.update(32, { revoked: true })
    expect(deployTokenByToken(db, 'fakelab-deploy-api', '2021-04-01T12:00:00.000Z')).toBeUndefined()
  })
})
