/**
 * The tags API's release notes (deprecated since 11.7, still in 13.x) over both doors:
 * `release_description` on `POST /projects/:id/repository/tags`, and
 * `POST`/`PUT /projects/:id/repository/tags/:tag_name/release`, answering `Entities::TagRelease`.
 * gitlab: lib/api/tags.rb, lib/api/entities/tag_release.rb, app/services/releases/{create,update}_service.rb (13.x).
 *
 * Default scenario: acme/website (20, public) has release 1 on tag v1.0.0 and a bare tag v0.9.0;
 * acme/platform/api (21, private) has an empty repository. riley/devon/max: reporter, developer,
 * maintainer of acme; nora no member.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const FORBIDDEN = { message: '403 Forbidden' }

contract('POST /projects/:id/repository/tags with release_description', {}, ({ api }) => {
  it('makes the release of the new tag, named after it, and the tag shows it', async () => {
    const res = await api.post('/projects/20/repository/tags', { as: 'devon', body: { tag_name: 'v2.0.0', ref: 'main', release_description: 'Notes for 2.0' } })
    expect([res.status, res.body.name, res.body.release]).toEqual([201, 'v2.0.0', { tag_name: 'v2.0.0', description: 'Notes for 2.0' }])
    const release = await api.get('/projects/20/releases/v2.0.0', { as: 'devon' })
    expect([release.status, release.body.name, release.body.description, release.body.author.username]).toEqual([200, 'v2.0.0', 'Notes for 2.0', 'devon'])
  })

  it.each([[''], ['   ']])('makes no release for a blank description %j', async (description) => {
    const res = await api.post('/projects/20/repository/tags', { as: 'devon', body: { tag_name: 'v2.0.1', ref: 'main', release_description: description } })
    expect([res.status, res.body.release]).toEqual([201, null])
    expect((await api.get('/projects/20/releases/v2.0.1', { as: 'devon' })).status).toBe(403)
  })
})

contract('POST /projects/:id/repository/tags/:tag_name/release', {}, ({ api }) => {
  it('adds release notes to a tag: 201 {tag_name, description}, the release named after the tag', async () => {
    const res = await api.post('/projects/20/repository/tags/v0.9.0/release', { as: 'devon', body: { description: 'Beta notes' } })
    expect([res.status, res.body]).toEqual([201, { tag_name: 'v0.9.0', description: 'Beta notes' }])
    const release = await api.get('/projects/20/releases/v0.9.0', { as: 'devon' })
    expect([release.body.name, release.body.description]).toEqual(['v0.9.0', 'Beta notes'])
    expect((await api.get('/projects/20/repository/tags/v0.9.0')).body.release).toEqual({ tag_name: 'v0.9.0', description: 'Beta notes' })
  })

  it.each([
    ['a tag with a release', 'v1.0.0', { as: 'devon' }, 409, { message: 'Release already exists' }],
    ['a missing tag', 'v9', { as: 'devon' }, 404, { message: '404 Tag Not Found' }],
    ['a reporter', 'v0.9.0', { as: 'riley' }, 403, FORBIDDEN],
    ['anonymous', 'v0.9.0', {}, 401, { message: '401 Unauthorized' }],
  ])('%s: %s → %s', async (_what, tag, options, status, body) => {
    const res = await api.post(`/projects/20/repository/tags/${tag}/release`, { ...options, body: { description: 'x' } })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('needs a description: 400 "description is missing"', async () => {
    const res = await api.post('/projects/20/repository/tags/v0.9.0/release', { as: 'devon', body: {} })
    expect([res.status, res.body]).toEqual([400, { error: 'description is missing' }])
  })

  it('answers a non-member of a private project 404 Project Not Found', async () => {
    const res = await api.post('/projects/21/repository/tags/v1/release', { as: 'nora', body: { description: 'x' } })
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

contract('PUT /projects/:id/repository/tags/:tag_name/release', {}, ({ api }) => {
  it('changes the release notes of a tag\'s release: 200 {tag_name, description}', async () => {
    const res = await api.put('/projects/20/repository/tags/v1.0.0/release', { as: 'devon', body: { description: 'Rewritten' } })
    expect([res.status, res.body]).toEqual([200, { tag_name: 'v1.0.0', description: 'Rewritten' }])
    const release = await api.get('/projects/20/releases/v1.0.0', { as: 'devon' })
    expect([release.body.name, release.body.description]).toEqual(['Website 1.0', 'Rewritten'])
  })

  it.each([
    ['a tag without a release', 'v0.9.0', { as: 'devon' }],
    ['a missing tag', 'v9', { as: 'max' }],
    ['a reporter', 'v1.0.0', { as: 'riley' }],
  ])('refuses %s with 403', async (_what, tag, options) => {
    const res = await api.put(`/projects/20/repository/tags/${tag}/release`, { ...options, body: { description: 'x' } })
    expect([res.status, res.body]).toEqual([403, FORBIDDEN])
  })

  it('answers 404 Tag does not exist when the release\'s tag is gone', async () => {
    expect((await api.delete('/projects/20/repository/tags/v1.0.0', { as: 'max' })).status).toBe(204)
    const res = await api.put('/projects/20/repository/tags/v1.0.0/release', { as: 'max', body: { description: 'x' } })
    expect([res.status, res.body]).toEqual([404, { message: 'Tag does not exist' }])
  })
})
