/**
 * GitLab's feature flags as a store over both doors: `GET /features`, `POST /features/:name`,
 * `DELETE /features/:name`, administrators only, with the Feature entity (name, state, gates,
 * definition) and Flipper's gate semantics.
 * Source: gitlab: lib/api/features.rb, lib/api/entities/feature.rb, feature_gate.rb, lib/feature.rb
 * (13.12), spec/requests/api/features_spec.rb, doc/api/features.md.
 * Default scenario: root (1) administrator; devon (4); group acme (10); project acme/website (20).
 */
import { expect, it } from 'vitest'
import { createSimulator } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

const off = (name: string) => ({ name, state: 'off', gates: [{ key: 'boolean', value: false }], definition: null })

contract('feature flags', {}, ({ api }) => {
  const set = (name: string, form: Record<string, string>) => api.post(`/features/${name}`, { as: 'root', form })

  it('creates a feature on, then lists it; false clears every gate but keeps it listed', async () => {
    expect((await api.get('/features', { as: 'root' })).body).toEqual([])
    const res = await set('new_library', { value: 'true' })
    expect([res.status, res.body]).toEqual([201, { name: 'new_library', state: 'on', gates: [{ key: 'boolean', value: true }], definition: null }])
    expect(Object.keys(res.body)).toEqual(['name', 'state', 'gates', 'definition'])
    await set('other_flag', { value: '30' })
    expect((await set('new_library', { value: 'false' })).body).toEqual(off('new_library'))
    const list = await api.get('/features', { as: 'root' })
    expect([list.status, list.body]).toEqual([200, [off('new_library'), { name: 'other_flag', state: 'conditional', gates: [{ key: 'boolean', value: false }, { key: 'percentage_of_time', value: 30 }], definition: null }]])
  })

  it('percentages of time and of actors; 100% of the time is on; enabling the boolean gate clears the others', async () => {
    expect((await set('my_user_feature', { value: '42', key: 'percentage_of_actors' })).body).toEqual({
      name: 'my_user_feature', state: 'conditional', gates: [{ key: 'boolean', value: false }, { key: 'percentage_of_actors', value: 42 }], definition: null,
    })
    expect((await set('my_user_feature', { value: '100' })).body).toEqual({
      name: 'my_user_feature', state: 'on', gates: [{ key: 'boolean', value: false }, { key: 'percentage_of_actors', value: 42 }, { key: 'percentage_of_time', value: 100 }], definition: null,
    })
    expect((await set('my_user_feature', { value: 'true' })).body.gates).toEqual([{ key: 'boolean', value: true }])
    // `0` is false: every gate cleared.
    expect((await set('my_user_feature', { value: '0' })).body).toEqual(off('my_user_feature'))
  })

  it('gates for a user, a project, a group and a feature group, in Flipper gate order; false removes a target only', async () => {
    await set('targeted', { value: 'true', user: 'devon' })
    await set('targeted', { value: 'true', project: 'acme/website' })
    await set('targeted', { value: 'true', group: 'acme' })
    const res = await set('targeted', { value: 'true', feature_group: 'gitlab_team' })
    expect(res.body).toEqual({
      name: 'targeted', state: 'conditional',
      gates: [{ key: 'boolean', value: false }, { key: 'actors', value: ['User:4', 'Project:20', 'Group:10'] }, { key: 'groups', value: ['gitlab_team'] }],
      definition: null,
    })
    expect((await set('targeted', { value: 'false', user: 'devon' })).body.gates).toEqual([
      { key: 'boolean', value: false }, { key: 'actors', value: ['Project:20', 'Group:10'] }, { key: 'groups', value: ['gitlab_team'] },
    ])
    // An unknown project or group is left out: nothing changes, nothing is made.
    expect((await set('ghost_flag', { value: 'true', project: 'nobody/nothing' })).body).toEqual(off('ghost_flag'))
    expect((await api.get('/features', { as: 'root' })).body.map((f: { name: string }) => f.name)).toEqual(['targeted'])
  })

  it('404 "Not found" for an unknown username; 400 for key with a target, a missing value, a percentage over 100', async () => {
    expect(await set('f', { value: 'true', user: 'nobody-here' })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await set('f', { value: '10', key: 'percentage_of_actors', user: 'devon' })).toBeGitLabError(400, { error: 'key, user are mutually exclusive' })
    expect(await api.post('/features/f', { as: 'root' })).toBeGitLabError(400, { error: 'value is missing' })
    expect(await set('f', { value: '150' })).toBeGitLabError(400, { message: '400 Bad request - value must be a positive number less than or equal to 100, but was 150' })
    expect((await api.get('/features', { as: 'root' })).body).toEqual([])
  })

  it('DELETE removes the feature, 204 whether it existed or not', async () => {
    await set('gone_soon', { value: 'true' })
    expect((await api.delete('/features/gone_soon', { as: 'root' })).status).toBe(204)
    expect((await api.delete('/features/never_was', { as: 'root' })).status).toBe(204)
    expect((await api.get('/features', { as: 'root' })).body).toEqual([])
  })

  it('administrators only: 401 anonymous, 403 otherwise, before the params are validated', async () => {
    for (const [method, path] of [['GET', '/features'], ['POST', '/features/x'], ['DELETE', '/features/x']] as const) {
      expect(await api.request(method, path)).toBeGitLabError(401, { message: '401 Unauthorized' })
      expect(await api.request(method, path, { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    }
  })
})

it("a scenario's features: load in order, and the state export keeps them", () => {
  const sim = createSimulator({ scenario: { version: 1, users: [{ username: 'root', admin: true }], features: [{ name: 'a', enabled: true }, { name: 'b', percentage_of_time: 25, actors: ['User:1'] }] } })
  expect(sim.db.tables.features.all().map((f) => [f.name, f.boolean, f.percentage_of_time, f.actors])).toEqual([['a', true, 0, []], ['b', false, 25, ['User:1']]])
  const copy = createSimulator({ scenario: sim.exportState() })
  expect(copy.db.tables.features.all()).toEqual(sim.db.tables.features.all())
})

// Issue 37: GET /features/definitions (features.rb `get :definitions`, 13.12): the definitions the
// scenario gives, in its order, as `Entities::Feature::Definition` (`Feature::Shared::PARAMS`);
// a persisted flag with a definition shows it in `definition`.
const DEFINITIONS = {
  version: 1 as const,
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'glpat-root-fakelab', name: 'default', scopes: ['api'] }] },
    { username: 'devon', tokens: [{ token: 'glpat-devon-fakelab', name: 'default', scopes: ['api'] }] },
  ],
  feature_definitions: [
    { name: 'search_blobs', type: 'ops' as const, default_enabled: true, group: 'group::global search' },
    { name: 'new_library', introduced_by_url: 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/1', rollout_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/2' },
  ],
}

contract('feature flag definitions', { scenario: JSON.stringify(DEFINITIONS) }, ({ api }) => {
  const NEW_LIBRARY = {
    name: 'new_library', default_enabled: false, type: 'development',
    introduced_by_url: 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/1', rollout_issue_url: 'https://gitlab.com/gitlab-org/gitlab/-/issues/2', group: null,
  }

  it('lists the definitions, administrators only', async () => {
    const res = await api.get('/features/definitions', { as: 'root' })
    expect([res.status, res.body]).toEqual([200, [
      { name: 'search_blobs', default_enabled: true, type: 'ops', introduced_by_url: null, rollout_issue_url: null, group: 'group::global search' },
      NEW_LIBRARY,
    ]])
    expect(Object.keys(res.body[0])).toEqual(['name', 'default_enabled', 'type', 'introduced_by_url', 'rollout_issue_url', 'group'])
    expect(res.headers.get('x-total')).toBeNull()
    expect(await api.get('/features/definitions', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/features/definitions')).toBeGitLabError(401, { message: '401 Unauthorized' })
  })

  it('shows a persisted flag\'s definition', async () => {
    const res = await api.post('/features/new_library', { as: 'root', form: { value: 'true' } })
    expect([res.status, res.body.definition]).toEqual([201, NEW_LIBRARY])
    expect((await api.post('/features/undefined_flag', { as: 'root', form: { value: 'true' } })).body.definition).toBeNull()
    expect((await api.get('/features', { as: 'root' })).body.map((f: { definition: unknown }) => f.definition)).toEqual([NEW_LIBRARY, null])
  })
})

it("a scenario's feature definitions: the state export keeps them", () => {
  const sim = createSimulator({ scenario: JSON.stringify(DEFINITIONS) })
  expect(sim.db.tables.feature_definitions.all().map((d) => [d.name, d.type, d.default_enabled])).toEqual([['search_blobs', 'ops', true], ['new_library', 'development', false]])
  const copy = createSimulator({ scenario: sim.exportState() })
  expect(copy.db.tables.feature_definitions.all()).toEqual(sim.db.tables.feature_definitions.all())
})
