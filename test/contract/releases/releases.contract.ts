/**
 * Project releases and their asset links over both doors. Source: issue 26 item 4;
 * gitlab: lib/api/releases.rb, lib/api/release/links.rb, lib/api/entities/release.rb,
 * releases/link.rb, app/services/releases/{create,update,destroy}_service.rb,
 * app/models/releases/link.rb (13.x).
 *
 * Default scenario: acme/website (20, public) has release 1 on tag v1.0.0 (by max, milestone
 * website-launch, one package link with a file path, one evidence) and a bare tag v0.9.0; ivy/tracker
 * (30, public) has release 2 on v0.1.0. acme/platform/api (21, private) has no repository; gina is
 * its guest, riley its reporter. The clock stands at 2021-04-01T12:00:00Z.
 */
import { describe, expect, it } from 'vitest'
import { contract, paginationHeaders, type Api } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const V1_SHA = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const FORBIDDEN = { message: '403 Forbidden' }
const RECORD_NOT_FOUND = { message: '404 Not found' }
const FIELDS = ['name', 'tag_name', 'description', 'created_at', 'released_at', 'author', 'commit', 'upcoming_release', 'milestones', 'commit_path', 'tag_path', 'assets', 'evidences', '_links']

/** Release 1 (acme/website v1.0.0) as a caller with download_code and update_release sees it. */
function release1(api: Api) {
  const web = `${api.baseUrl}/acme/website`
  return {
    name: 'Website 1.0',
    tag_name: 'v1.0.0',
    description: 'The first stable website.\n\n- Repair footer links',
    created_at: '2021-03-20T11:00:00.000Z',
    released_at: '2021-03-20T11:00:00.000Z',
    author: { id: 5, name: 'Max Maintainer', username: 'max', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/max` },
    commit: expect.objectContaining({ id: V1_SHA, short_id: 'fd7d40d2', title: 'Release 1.0', message: 'Release 1.0\n', web_url: `${web}/-/commit/${V1_SHA}` }),
    upcoming_release: false,
    milestones: [expect.objectContaining({ id: 220, iid: 1, project_id: 20, title: 'website-launch', issue_stats: { total: 0, closed: 0 } })],
    commit_path: `/acme/website/-/commit/${V1_SHA}`,
    tag_path: '/acme/website/-/tags/v1.0.0',
    assets: {
      count: 5,
      sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((format) => ({ format, url: `${web}/-/archive/v1.0.0/website-v1.0.0.${format}` })),
      links: [
        {
          id: 1,
          name: 'Site bundle',
          url: 'https://downloads.example.com/website-1.0.0.tar.gz',
          direct_asset_url: `${web}/-/releases/v1.0.0/downloads/bundle.tar.gz`,
          external: true,
          link_type: 'package',
        },
      ],
    },
    evidences: [{ sha: expect.stringMatching(/^[0-9a-f]{64}$/), filepath: `${web}/-/releases/v1.0.0/evidences/1.json`, collected_at: '2021-03-20T11:00:00.000Z' }],
    _links: { self: `${web}/-/releases/v1.0.0`, edit_url: `${web}/-/releases/v1.0.0/edit` },
  }
}

contract('GET /projects/:id/releases', {}, ({ api, sim }) => {
  it('lists the project\'s releases as the 13.x Release entity, in its field order', async () => {
    const res = await api.get('/projects/20/releases', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([release1(api)])
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '1', 'x-page': '1' })
  })

  it('shows no edit_url below Developer, and everything else to anyone who reads the public project\'s code', async () => {
    for (const as of [undefined, 'nora', 'gina']) {
      const res = await api.get('/projects/20/releases', as ? { as } : {})
      expect(res.status).toBe(200)
      expect(res.body[0]._links).toEqual({ self: `${api.baseUrl}/acme/website/-/releases/v1.0.0` })
      expect(res.body[0].commit.id).toBe(V1_SHA)
    }
  })

  it('hides the code fields from a guest of a private project (no download_code): Release-<id>, no tag, commit, sources, evidences', async () => {
    sim().db.tables.releases.insert({
      id: 50, project_id: 21, tag: 'v9', name: 'Secret', description: 'notes', author_id: null, sha: null,
      released_at: '2021-03-01T00:00:00.000Z', created_at: '2021-03-01T00:00:00.000Z', updated_at: '2021-03-01T00:00:00.000Z', milestone_ids: [], evidences: [],
    })
    const guest = await api.get('/projects/21/releases', { as: 'gina' })
    expect([guest.status, guest.body]).toEqual([200, [{
      name: 'Release-50',
      description: 'notes',
      created_at: '2021-03-01T00:00:00.000Z',
      released_at: '2021-03-01T00:00:00.000Z',
      upcoming_release: false,
      assets: { count: 0, links: [] },
      _links: {},
    }]])
    const reporter = await api.get('/projects/21/releases', { as: 'riley' })
    expect(reporter.body[0]).toMatchObject({ name: 'Secret', tag_name: 'v9', commit: null, evidences: [], assets: { count: 4 } })
    expect(reporter.body[0]._links).toEqual({ self: `${api.baseUrl}/acme/platform/api/-/releases/v9` })
  })

  it.each([
    ['released_at', 'desc', ['v0.2', 'v1.0.0', 'v0.1']],
    ['released_at', 'asc', ['v0.1', 'v1.0.0', 'v0.2']],
    ['created_at', 'desc', ['v1.0.0', 'v0.2', 'v0.1']],
    ['created_at', 'asc', ['v0.1', 'v0.2', 'v1.0.0']],
  ])('orders by %s %s', async (order_by, sort, tags) => {
    const base = { project_id: 20, name: 'x', description: null, author_id: null, sha: null, milestone_ids: [], evidences: [] }
    sim().db.tables.releases.insert({ ...base, id: 60, tag: 'v0.1', released_at: '2021-01-01T00:00:00.000Z', created_at: '2021-01-01T00:00:00.000Z', updated_at: '2021-01-01T00:00:00.000Z' })
    sim().db.tables.releases.insert({ ...base, id: 61, tag: 'v0.2', released_at: '2021-05-01T00:00:00.000Z', created_at: '2021-02-01T00:00:00.000Z', updated_at: '2021-02-01T00:00:00.000Z' })
    const res = await api.get('/projects/20/releases', { as: 'max', query: { order_by, sort } })
    expect(res.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(tags)
    expect(res.body.map((r: { upcoming_release: boolean }) => r.upcoming_release)).toEqual(tags.map((t) => t === 'v0.2'))
  })

  it('renders description_html only when include_html_description=true', async () => {
    const plain = await api.get('/projects/30/releases', { as: 'ivy' })
    expect(plain.body[0]).not.toHaveProperty('description_html')
    const html = await api.get('/projects/30/releases', { as: 'ivy', query: { include_html_description: true } })
    expect(Object.keys(html.body[0]).slice(0, 4)).toEqual(['name', 'tag_name', 'description', 'description_html'])
    expect(html.body[0].description_html).toBe('First release')
  })

  it.each([
    ['order_by', 'name', 'order_by does not have a valid value'],
    ['sort', 'up', 'sort does not have a valid value'],
  ])('refuses %s=%s with 400', async (key, value, error) => {
    const res = await api.get('/projects/20/releases', { as: 'max', query: { [key]: value } })
    expect([res.status, res.body]).toEqual([400, { error }])
  })

  it('answers 404 Project Not Found for a private project to a non-member', async () => {
    const res = await api.get('/projects/21/releases', { as: 'nora' })
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

contract('GET /projects/:id/releases/:tag_name', {}, ({ api }) => {
  it('answers the release of the tag', async () => {
    const res = await api.get('/projects/20/releases/v1.0.0', { as: 'devon' })
    expect([res.status, res.body]).toEqual([200, release1(api)])
  })

  // 13.x `authorize! :download_code, release` on a nil release: 403 for a tag without a release,
  // as the PUT and DELETE answer (spec/requests/api/releases_spec.rb: "returns forbidden").
  it.each([
    ['a tag without a release', '/projects/20/releases/v0.9.0', 'max', 403, FORBIDDEN],
    ['an unknown tag', '/projects/20/releases/nope', 'max', 403, FORBIDDEN],
    ['a tag without a release, anonymously on a public project', '/projects/20/releases/v0.9.0', undefined, 403, FORBIDDEN],
    ['a guest of a private project (no download_code)', '/projects/21/releases/v1', 'gina', 403, FORBIDDEN],
    ['a reporter of a private project, no release', '/projects/21/releases/v1', 'riley', 403, FORBIDDEN],
    ['a non-member of a private project', '/projects/21/releases/v1', 'nora', 404, { message: '404 Project Not Found' }],
  ])('%s: %i', async (_, path, as, status, body) => {
    const res = await api.get(path, { as })
    expect([res.status, res.body]).toEqual([status, body])
  })
})

contract('POST /projects/:id/releases', {}, ({ api, sim }) => {
  it('makes a release on an existing tag, its name the tag\'s by default, with an evidence collected now', async () => {
    const res = await api.post('/projects/20/releases', { as: 'devon', body: { tag_name: 'v0.9.0', description: 'Beta' } })
    expect(res.status).toBe(201)
    const web = `${api.baseUrl}/acme/website`
    expect(res.body).toMatchObject({
      name: 'v0.9.0',
      tag_name: 'v0.9.0',
      description: 'Beta',
      created_at: NOW,
      released_at: NOW,
      author: { username: 'devon' },
      upcoming_release: false,
      tag_path: '/acme/website/-/tags/v0.9.0',
      assets: { count: 4, links: [] },
      evidences: [{ filepath: `${web}/-/releases/v0.9.0/evidences/3.json`, collected_at: NOW }],
      _links: { self: `${web}/-/releases/v0.9.0`, edit_url: `${web}/-/releases/v0.9.0/edit` },
    })
    expect(res.body).not.toHaveProperty('milestones')
    const tag = await api.get('/projects/20/repository/tags/v0.9.0', { as: 'devon' })
    expect(res.body.commit).toEqual(tag.body.commit)
  })

  it('creates the tag from ref when it does not exist (lightweight, at the ref\'s commit)', async () => {
    const res = await api.post('/projects/20/releases', { as: 'devon', body: { tag_name: 'v2.0.0', ref: 'feature/login', name: 'Two' } })
    expect(res.status).toBe(201)
    const tag = await api.get('/projects/20/repository/tags/v2.0.0', { as: 'devon' })
    const branch = await api.get('/projects/20/repository/branches/feature%2Flogin', { as: 'devon' })
    expect([tag.status, tag.body.message, tag.body.target]).toEqual([200, '', branch.body.commit.id])
    expect(res.body.commit.id).toBe(branch.body.commit.id)
  })

  it('takes milestones by title, asset links, and a released_at (a past one: historical, no evidence)', async () => {
    const body = {
      tag_name: 'v0.9.0',
      milestones: ['website-launch', 'v1.0'],
      released_at: '2021-03-01T00:00:00Z',
      assets: { links: [{ name: 'Manual', url: `${api.baseUrl}/acme/website/-/wikis/manual`, filepath: '/docs/manual', link_type: 'runbook' }, { name: 'Bin', url: 'ftp://example.com/bin' }] },
    }
    const res = await api.post('/projects/20/releases', { as: 'max', body })
    expect(res.status).toBe(201)
    expect(res.body.released_at).toBe('2021-03-01T00:00:00.000Z')
    expect(res.body.evidences).toEqual([])
    expect(res.body.milestones.map((m: { title: string }) => m.title)).toEqual(['website-launch', 'v1.0'])
    expect(res.body.assets.count).toBe(6)
    expect(res.body.assets.links.map((l: { name: string; external: boolean; link_type: string; direct_asset_url: string }) => [l.name, l.external, l.link_type, l.direct_asset_url])).toEqual([
      ['Bin', true, 'other', 'ftp://example.com/bin'],
      ['Manual', false, 'runbook', `${api.baseUrl}/acme/website/-/releases/v0.9.0/downloads/docs/manual`],
    ])
  })

  it('makes an upcoming release for a released_at after now (no evidence)', async () => {
    const res = await api.post('/projects/20/releases', { as: 'max', body: { tag_name: 'v0.9.0', released_at: '2022-01-01T00:00:00Z' } })
    expect([res.status, res.body.upcoming_release, res.body.evidences]).toEqual([201, true, []])
  })

  it.each([
    ['an existing release', { tag_name: 'v1.0.0' }, 409, { message: 'Release already exists' }],
    ['a missing tag without ref', { tag_name: 'v3' }, 422, { message: 'Ref is not specified' }],
    ['a ref that resolves to nothing', { tag_name: 'v3', ref: 'nope' }, 400, { message: 'Target nope is invalid' }],
    ['an invalid tag name', { tag_name: 'v3..x', ref: 'main' }, 400, { message: 'Tag name invalid' }],
    ['unknown milestones', { tag_name: 'v0.9.0', milestones: ['nope', 'website-launch', 'gone'] }, 400, { message: 'Milestone(s) not found: nope, gone' }],
    ['no tag_name', { name: 'x' }, 400, { error: 'tag_name is missing' }],
    ['a link without url', { tag_name: 'v0.9.0', assets: { links: [{ name: 'a' }] } }, 400, { error: 'assets[links][0][url] is missing' }],
    ['a link with a bad type', { tag_name: 'v0.9.0', assets: { links: [{ name: 'a', url: 'https://a.test', link_type: 'zip' }] } }, 400, { error: 'assets[links][0][link_type] does not have a valid value' }],
    ['two links with one url', { tag_name: 'v0.9.0', assets: { links: [{ name: 'a', url: 'https://a.test' }, { name: 'b', url: 'https://a.test' }] } }, 400, { message: 'Validation failed: Links url has already been taken' }],
    ['a link with a bad scheme', { tag_name: 'v0.9.0', assets: { links: [{ name: 'a', url: 'javascript:alert(1)' }] } }, 400, { message: 'Validation failed: Links url is blocked: Only allowed schemes are http, https, ftp' }],
  ])('refuses %s', async (_, body, status, error) => {
    const before = await api.get('/projects/20/repository/tags', { as: 'max' })
    const res = await api.post('/projects/20/releases', { as: 'max', body })
    expect([res.status, res.body]).toEqual([status, error])
    const after = await api.get('/projects/20/repository/tags', { as: 'max' })
    expect(after.body).toEqual(before.body)
    expect(sim().db.tables.releases.all()).toHaveLength(2)
  })

  it.each([
    ['a reporter', 'riley', 403],
    ['a guest', 'gina', 403],
    ['a non-member of the public project', 'nora', 403],
  ])('refuses %s with 403', async (_, as, status) => {
    const res = await api.post('/projects/20/releases', { as, body: { tag_name: 'v0.9.0' } })
    expect([res.status, res.body]).toEqual([status, FORBIDDEN])
  })
})

contract('PUT /projects/:id/releases/:tag_name', {}, ({ api }) => {
  it('changes name, description, released_at and replaces the milestones', async () => {
    const res = await api.put('/projects/20/releases/v1.0.0', { as: 'devon', body: { name: 'Web 1', description: 'New notes', released_at: '2021-03-21T00:00:00Z', milestones: [] } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Web 1', description: 'New notes', released_at: '2021-03-21T00:00:00.000Z', created_at: '2021-03-20T11:00:00.000Z' })
    expect(res.body).not.toHaveProperty('milestones')
    const again = await api.get('/projects/20/releases/v1.0.0', { as: 'devon' })
    expect(again.body).toEqual(res.body)
  })

  it.each([
    ['nothing to change', '/projects/20/releases/v1.0.0', 'devon', {}, 400, { message: 'params is empty' }],
    ['an unknown milestone', '/projects/20/releases/v1.0.0', 'devon', { milestones: ['nope'] }, 400, { message: 'Milestone(s) not found: nope' }],
    ['a release that does not exist (authorized against nothing)', '/projects/20/releases/v0.9.0', 'max', { name: 'x' }, 403, FORBIDDEN],
    ['a reporter', '/projects/20/releases/v1.0.0', 'riley', { name: 'x' }, 403, FORBIDDEN],
  ])('refuses %s', async (_, path, as, body, status, error) => {
    const res = await api.put(path, { as, body })
    expect([res.status, res.body]).toEqual([status, error])
  })

  it('answers 404 Tag does not exist once the release\'s tag is gone', async () => {
    expect((await api.delete('/projects/20/repository/tags/v1.0.0', { as: 'max' })).status).toBe(204)
    const res = await api.put('/projects/20/releases/v1.0.0', { as: 'max', body: { name: 'x' } })
    expect([res.status, res.body]).toEqual([404, { message: 'Tag does not exist' }])
  })
})

contract('DELETE /projects/:id/releases/:tag_name', {}, ({ api }) => {
  it('deletes the release with its links and answers it as it was, without links, milestones or evidences; the tag stays', async () => {
    const res = await api.delete('/projects/20/releases/v1.0.0', { as: 'devon' })
    expect(res.status).toBe(200)
    const expected: Record<string, unknown> = { ...release1(api), assets: { ...release1(api).assets, count: 4, links: [] }, evidences: [] }
    delete expected.milestones
    expect(res.body).toEqual(expected)
    expect((await api.get('/projects/20/releases/v1.0.0', { as: 'devon' })).status).toBe(403)
    expect((await api.get('/projects/20/repository/tags/v1.0.0', { as: 'devon' })).status).toBe(200)
    expect((await api.get('/projects/20/releases/v1.0.0/assets/links/1', { as: 'devon' })).status).toBe(404)
  })

  it.each([
    ['a release that does not exist', '/projects/20/releases/v0.9.0', 'max', 403, FORBIDDEN],
    ['a reporter', '/projects/20/releases/v1.0.0', 'riley', 403, FORBIDDEN],
  ])('refuses %s', async (_, path, as, status, error) => {
    const res = await api.delete(path, { as })
    expect([res.status, res.body]).toEqual([status, error])
  })
})

describe('release links', () => {
  contract('GET /projects/:id/releases/:tag_name/assets/links', {}, ({ api }) => {
    it('lists and gets the links, to anyone who reads the project', async () => {
      const list = await api.get('/projects/20/releases/v1.0.0/assets/links', { as: 'gina' })
      expect([list.status, list.body]).toEqual([200, release1(api).assets.links])
      const one = await api.get('/projects/20/releases/v1.0.0/assets/links/1')
      expect([one.status, one.body]).toEqual([200, release1(api).assets.links[0]])
    })

    it.each([
      ['a tag without a release', '/projects/20/releases/v0.9.0/assets/links'],
      ['an unknown link', '/projects/20/releases/v1.0.0/assets/links/99'],
      ['a link of another release', '/projects/30/releases/v0.1.0/assets/links/1'],
    ])('answers 404 Not found for %s', async (_, path) => {
      const res = await api.get(path, { as: 'max' })
      expect([res.status, res.body]).toEqual([404, RECORD_NOT_FOUND])
    })
  })

  contract('POST /projects/:id/releases/:tag_name/assets/links', {}, ({ api }) => {
    it('adds a link (other by default); the newest is listed first', async () => {
      const res = await api.post('/projects/20/releases/v1.0.0/assets/links', { as: 'devon', body: { name: 'Docs', url: `${api.baseUrl}/acme/website/docs` } })
      expect([res.status, res.body]).toEqual([201, { id: 2, name: 'Docs', url: `${api.baseUrl}/acme/website/docs`, direct_asset_url: `${api.baseUrl}/acme/website/docs`, external: false, link_type: 'other' }])
      const release = await api.get('/projects/20/releases/v1.0.0', { as: 'devon' })
      expect(release.body.assets.count).toBe(6)
      expect(release.body.assets.links.map((l: { id: number }) => l.id)).toEqual([2, 1])
    })

    it.each([
      ['a taken name', { name: 'Site bundle', url: 'https://a.test' }, { message: { name: ['has already been taken'] } }],
      ['a taken url and file path', { name: 'x', url: 'https://downloads.example.com/website-1.0.0.tar.gz', filepath: '/bundle.tar.gz' }, { message: { url: ['has already been taken'], filepath: ['has already been taken'] } }],
      ['a malformed file path', { name: 'x', url: 'https://a.test', filepath: 'bin/' }, { message: { filepath: ['is in an invalid format'] } }],
      ['a url that is no URL', { name: 'x', url: 'not a url' }, { message: { url: ['is blocked: URI is invalid'] } }],
      ['no url', { name: 'x' }, { error: 'url is missing' }],
      ['a bad link type', { name: 'x', url: 'https://a.test', link_type: 'zip' }, { error: 'link_type does not have a valid value' }],
    ])('refuses %s with 400', async (_, body, error) => {
      const res = await api.post('/projects/20/releases/v1.0.0/assets/links', { as: 'devon', body })
      expect([res.status, res.body]).toEqual([400, error])
    })

    it('refuses a reporter with 403', async () => {
      const res = await api.post('/projects/20/releases/v1.0.0/assets/links', { as: 'riley', body: { name: 'x', url: 'https://a.test' } })
      expect([res.status, res.body]).toEqual([403, FORBIDDEN])
    })
  })

  contract('PUT /projects/:id/releases/:tag_name/assets/links/:link_id', {}, ({ api }) => {
    it('changes a link', async () => {
      const res = await api.put('/projects/20/releases/v1.0.0/assets/links/1', { as: 'devon', body: { name: 'Bundle', link_type: 'image' } })
      expect([res.status, res.body]).toEqual([200, { ...release1(api).assets.links[0], name: 'Bundle', link_type: 'image' }])
    })

    it.each([
      ['neither name nor url', 'devon', { link_type: 'image' }, 400, { error: 'name, url are missing, at least one parameter must be provided' }],
      ['a reporter', 'riley', { name: 'x' }, 403, FORBIDDEN],
    ])('refuses %s', async (_, as, body, status, error) => {
      const res = await api.put('/projects/20/releases/v1.0.0/assets/links/1', { as, body })
      expect([res.status, res.body]).toEqual([status, error])
    })
  })

  contract('DELETE /projects/:id/releases/:tag_name/assets/links/:link_id', {}, ({ api }) => {
    it('deletes a link and answers it', async () => {
      const res = await api.delete('/projects/20/releases/v1.0.0/assets/links/1', { as: 'devon' })
      expect([res.status, res.body]).toEqual([200, release1(api).assets.links[0]])
      const list = await api.get('/projects/20/releases/v1.0.0/assets/links', { as: 'devon' })
      expect(list.body).toEqual([])
    })

    it('refuses a reporter with 403, before looking for the link', async () => {
      const res = await api.delete('/projects/20/releases/v1.0.0/assets/links/99', { as: 'riley' })
      expect([res.status, res.body]).toEqual([403, FORBIDDEN])
    })
  })
})

contract('GET /projects/:id/repository/tags (release)', {}, ({ api }) => {
  it('shows a tag\'s release as {tag_name, description}, null without one, and follows creates', async () => {
    const tags = await api.get('/projects/20/repository/tags', { as: 'devon' })
    expect(tags.body.map((t: { name: string; release: unknown }) => [t.name, t.release])).toEqual([
      ['v1.0.0', { tag_name: 'v1.0.0', description: 'The first stable website.\n\n- Repair footer links' }],
      ['v0.9.0', null],
    ])
    expect((await api.post('/projects/20/releases', { as: 'devon', body: { tag_name: 'v0.9.0', description: 'Beta' } })).status).toBe(201)
    const one = await api.get('/projects/20/repository/tags/v0.9.0', { as: 'devon' })
    expect(one.body.release).toEqual({ tag_name: 'v0.9.0', description: 'Beta' })
  })
})

contract('DELETE /projects/:id (releases)', {}, ({ api, sim }) => {
  it('takes the project\'s releases and their links with it, and deleting a milestone takes it off its releases', async () => {
    expect((await api.delete('/projects/30/milestones/221', { as: 'ivy' })).status).toBe(204)
    const tracker = await api.get('/projects/30/releases/v0.1.0', { as: 'ivy' })
    expect(tracker.body).not.toHaveProperty('milestones')
    expect((await api.delete('/projects/20', { as: 'olive' })).status).toBe(202)
    const db = sim().db
    expect(db.tables.releases.where('project_id', 20)).toEqual([])
    expect(db.tables.release_links.all()).toEqual([])
  })
})
