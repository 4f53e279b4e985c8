/**
 * Group labels through both doors: lists with the ancestor/descendant/project switches, lookups by
 * id and URL-encoded title, create, update and delete with GitLab's validations and permissions,
 * global subscriptions, and the deprecated name-in-parameters forms.
 * Source: api-spec.md "### Labels", "Label (project and group)", "Label subscription";
 * gitlab-behaviour.md §12; gitlab: spec/requests/api/group_labels_spec.rb.
 */
import { expect, it } from 'vitest'
import type { Simulator } from '../../../src/index.js'
import { contract, paginationHeaders, type ApiResponse } from '../../support/contract.js'
import { BASIC, NOW, type LabelId } from '../../support/default-labels.js'
import { schemaErrors } from '../../support/schemas.js'

const LABEL = 'public_api/v4/labels/label.json'
const LABEL_WITH_COUNTS = 'public_api/v4/labels/label_with_counts.json'


interface Counts { open: number; closed: number; mrs: number }

/** The GroupLabel body of a scenario label. */
function groupLabel(id: LabelId, extra: { subscribed?: boolean; counts?: Counts } = {}) {
  const counts = extra.counts
    ? { open_issues_count: extra.counts.open, closed_issues_count: extra.counts.closed, open_merge_requests_count: extra.counts.mrs }
    : {}
  return { ...BASIC[id], ...counts, subscribed: extra.subscribed ?? false }
}

function expectLabelSchema(body: unknown, schema = LABEL): void {
  const items = Array.isArray(body) ? body : [body]
  for (const item of items) expect(schemaErrors(schema, item)).toEqual([])
}

function ids(res: ApiResponse): number[] {
  return res.body.map((l: { id: number }) => l.id)
}

function addLabel(sim: () => Simulator, fields: { id?: number; title: string; project_id?: number | null; group_id?: number | null }) {
  return sim().db.tables.labels.insert({
    color: '#123456',
    description: null,
    project_id: null,
    group_id: null,
    created_at: '2021-01-01T00:00:00.000Z',
    updated_at: '2021-01-01T00:00:00.000Z',
    ...fields,
  })
}

contract('GET /groups/:id/labels', {}, ({ api, sim }) => {
  it("lists the group's labels ordered by title", async () => {
    const res = await api.get('/groups/10/labels', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([groupLabel(100, { subscribed: true }), groupLabel(101), groupLabel(102)])
    expectLabelSchema(res.body)
  })

  it('sends offset pagination headers built from every parameter', async () => {
    const res = await api.get('/groups/10/labels', { as: 'max', query: { per_page: 1, page: 3 } })
    expect(ids(res)).toEqual([102])
    const url = (page: number) =>
      `${api.baseUrl}/api/v4/groups/10/labels?id=10&include_ancestor_groups=true&include_descendant_groups=false` +
      `&only_group_labels=true&page=${page}&per_page=1&with_counts=false`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '3',
      'x-per-page': '1',
      'x-next-page': '',
      'x-prev-page': '2',
      'x-total': '3',
      'x-total-pages': '3',
      link: `<${url(2)}>; rel="prev", <${url(1)}>; rel="first", <${url(3)}>; rel="last"`,
    })
  })

  it("adds counts over the group's own projects with with_counts=true", async () => {
    const res = await api.get('/groups/10/labels', { as: 'devon', query: { with_counts: true } })
    expect(res.body).toEqual([
      groupLabel(100, { subscribed: true, counts: { open: 1, closed: 1, mrs: 0 } }),
      groupLabel(101, { counts: { open: 1, closed: 0, mrs: 0 } }),
      groupLabel(102, { counts: { open: 0, closed: 0, mrs: 0 } }),
    ])
    expectLabelSchema(res.body, LABEL_WITH_COUNTS)
  })

  it('counts a subgroup label in the subgroup\'s projects', async () => {
    const res = await api.get('/groups/11/labels', { as: 'max', query: { with_counts: true, include_ancestor_groups: false } })
    expect(res.body).toEqual([groupLabel(103, { counts: { open: 1, closed: 0, mrs: 0 } })])
  })

  it.each([
    ['a subgroup, ancestors included by default', 'max', 11, {}, [103, 100, 101, 102]],
    ['a subgroup with include_ancestor_groups=false', 'max', 11, { include_ancestor_groups: false }, [103]],
    ['include_descendant_groups=true', 'max', 10, { include_descendant_groups: true }, [103, 100, 101, 102]],
    ['include_descendant_groups=true, for someone who cannot see the subgroup', 'nora', 10, { include_descendant_groups: true }, [100, 101, 102]],
    ['only_group_labels=false (projects directly in the group)', 'max', 10, { only_group_labels: false }, [100, 111, 101, 110, 112, 102]],
    // Issue 23 item 5: the projects of subgroups too (113 is acme/platform/api's, a private project).
    [
      'include_descendant_groups=true and only_group_labels=false (projects in subgroups too)',
      'max', 10, { include_descendant_groups: true, only_group_labels: false }, [103, 100, 111, 101, 110, 112, 102, 113],
    ],
    [
      'include_descendant_groups=true and only_group_labels=false, for someone who cannot read the subgroup\'s project',
      'nora', 10, { include_descendant_groups: true, only_group_labels: false }, [100, 111, 101, 110, 112, 102],
    ],
    ['only_group_labels=false without include_descendant_groups on the subgroup\'s parent leaves its projects out', 'olive', 10, { only_group_labels: false }, [100, 111, 101, 110, 112, 102]],
    ['search on the title', 'max', 10, { search: 'review' }, [102]],
    ['search on the description', 'max', 10, { search: 'FUNCTION' }, [101]],
    ['search with project labels', 'max', 10, { search: 'f', only_group_labels: false }, [101, 110, 112]],
    ['a search that matches nothing', 'max', 10, { search: 'zzz' }, []],
  ])('lists %s', async (_, as, group, query, expected) => {
    const res = await api.get(`/groups/${group}/labels`, { as, query })
    expect(ids(res)).toEqual(expected)
  })

  it('leaves out the labels of archived projects', async () => {
    sim().db.tables.projects.update(20, { archived: true })
    const res = await api.get('/groups/10/labels', { as: 'max', query: { only_group_labels: false } })
    expect(ids(res)).toEqual([100, 101, 102])
  })

  it('accepts the URL-encoded full path', async () => {
    const res = await api.get('/groups/acme%2Fplatform/labels', { as: 'max' })
    expect(ids(res)).toEqual([103, 100, 101, 102])
  })


  it.each([
    [{ include_descendant_groups: 'perhaps' }, 'include_descendant_groups is invalid'],
    [{ only_group_labels: 'x', page: 'y' }, 'only_group_labels is invalid, page is invalid'],
  ])('answers 400 for %j', async (query, error) => {
    expect(await api.get('/groups/10/labels', { as: 'max', query })).toBeGitLabError(400, { error })
  })
})

contract('GET /groups/:id/labels/:label_id', {}, ({ api, sim }) => {
  it.each([
    ['an id', '100', 100],
    ['a title', 'feature', 101],
    ['a URL-encoded title', 'needs%20review', 102],
  ])('finds a label by %s', async (_, ref, id) => {
    const res = await api.get(`/groups/10/labels/${ref}`, { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(groupLabel(id as LabelId, { subscribed: id === 100 }))
    expectLabelSchema(res.body)
  })


  it.each([
    ['an ancestor label by default', 11, 'bug', {}, 200],
    ['no ancestor label with include_ancestor_groups=false', 11, 'bug', { include_ancestor_groups: false }, 404],
    ['no descendant label by default', 10, 'backend', {}, 404],
    ['a descendant label with include_descendant_groups=true', 10, 'backend', { include_descendant_groups: true }, 200],
    ['no project label by default', 10, 'frontend', {}, 404],
    ['a project label with only_group_labels=false', 10, 'frontend', { only_group_labels: false }, 200],
    ['no subgroup project label with only_group_labels=false alone', 10, 'performance', { only_group_labels: false }, 404],
    ['a subgroup project label with both switches', 10, 'performance', { include_descendant_groups: true, only_group_labels: false }, 200],
  ])('finds %s', async (_, group, ref, query, status) => {
    const res = await api.get(`/groups/${group}/labels/${ref}`, { as: 'max', query })
    if (status === 404) expect(res).toBeGitLabError(404, { message: '404 Label Not Found' })
    else expect(res.status).toBe(status)
  })

})

contract('POST /groups/:id/labels', {}, ({ api, sim }) => {
  it('creates a group label and answers 201 with the GroupLabel', async () => {
    const id = sim().db.tables.labels.peekNextId()
    const res = await api.post('/groups/10/labels', { as: 'riley', body: { name: 'triage', color: 'teal', description: 'Needs [triage](https://example.com/t)' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id, name: 'triage', color: '#008080', description: 'Needs [triage](https://example.com/t)',
      // The single-line pipeline renders no Markdown; AutolinkFilter links the bare URL.
      description_html: 'Needs [triage](<a href="https://example.com/t" rel="nofollow noreferrer noopener" target="_blank">https://example.com/t</a>)',
      text_color: '#FFFFFF', subscribed: false,
    })
    expectLabelSchema(res.body)
    expect(sim().db.tables.labels.get(id)).toMatchObject({ title: 'triage', group_id: 10, project_id: null, created_at: NOW, updated_at: NOW })
  })

  it.each([
    ['a project label of one of its projects', 10, 'frontend'],
    ['a label of a subgroup', 10, 'backend'],
  ])('does not count %s as a conflict', async (_, group, name) => {
    expect((await api.post(`/groups/${group}/labels`, { as: 'max', body: { name, color: 'red' } })).status).toBe(201)
  })

  it.each([
    ['its own label', 10, 'bug'],
    ["an ancestor group's label", 11, 'feature'],
  ])('answers 409 for %s', async (_, group, name) => {
    expect(await api.post(`/groups/${group}/labels`, { as: 'max', body: { name, color: 'red' } })).toBeGitLabError(409, { message: 'Label already exists' })
  })

  it.each([
    [{}, { error: 'name is missing, color is missing' }],
    [{ name: 'x,y', color: '#FFF' }, { message: { title: ['is invalid'] } }],
    [{ name: 'z'.repeat(300), color: '#FFF' }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    [{ name: 'x', color: 'not-a-colour' }, { message: { color: ['must be a valid color code'] } }],
  ])('answers 400 for %j', async (body, error) => {
    expect(await api.post('/groups/10/labels', { as: 'max', body })).toBeGitLabError(400, error)
  })

})

contract('PUT /groups/:id/labels/:label_id', {}, ({ api, sim }) => {
  it('changes name, colour and description', async () => {
    const res = await api.put('/groups/10/labels/bug', { as: 'riley', body: { new_name: 'defect', color: 'white', description: 'Broken ~things' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: 100, name: 'defect', color: '#FFFFFF', description: 'Broken ~things', description_html: 'Broken ~things',
      text_color: '#333333', subscribed: false,
    })
    expectLabelSchema(res.body)
    expect(sim().db.tables.labels.get(100)).toMatchObject({ title: 'defect', updated_at: NOW })
  })

  it('addresses the label by id and by URL-encoded title', async () => {
    expect((await api.put('/groups/10/labels/101', { as: 'max', body: { color: '#111' } })).body.color).toBe('#111')
    expect((await api.put('/groups/10/labels/needs%20review', { as: 'max', body: { new_name: 'review' } })).body).toMatchObject({ id: 102, name: 'review' })
  })

  it("does not reach the parent group's labels", async () => {
    expect(await api.put('/groups/11/labels/bug', { as: 'max', body: { color: 'red' } })).toBeGitLabError(404, { message: '404 Label Not Found' })
  })

  it("reaches a label of the group's own projects, as GitLab's finder does for writes", async () => {
    const res = await api.put('/groups/10/labels/frontend', { as: 'max', body: { description: 'UI' } })
    expect(res.body).toEqual({ ...groupLabel(110), description: 'UI', description_html: 'UI' })
  })

  it.each([
    [{}, { error: 'new_name, color, description are missing, at least one parameter must be provided' }],
    [{ priority: 3 }, { error: 'new_name, color, description are missing, at least one parameter must be provided' }],
    [{ new_name: 'feature' }, { message: { title: ['has already been taken'] } }],
    [{ new_name: 'a,b', color: '#12' }, { message: { color: ['must be a valid color code'], title: ['is invalid'] } }],
  ])('answers 400 for %j', async (body, error) => {
    expect(await api.put('/groups/10/labels/bug', { as: 'max', body })).toBeGitLabError(400, error)
  })

})

contract('PUT /groups/:id/labels', {}, ({ api }) => {
  it.each([
    ['name', { name: 'bug', new_name: 'defect' }, 100],
    ['label_id', { label_id: 101, color: '#fff' }, 101],
  ])('updates the label named by %s (deprecated form)', async (_, body, id) => {
    const res = await api.put('/groups/10/labels', { as: 'max', body })
    expect([res.status, res.body.id]).toEqual([200, id])
    expectLabelSchema(res.body)
  })

})

contract('DELETE /groups/:id/labels/:label_id', {}, ({ api, sim }) => {
  it('deletes the label with its subscriptions and issue links, answering 204', async () => {
    const res = await api.delete('/groups/10/labels/bug', { as: 'riley' })
    expect([res.status, res.text]).toEqual([204, ''])
    const db = sim().db.tables
    expect(db.labels.get(100)).toBeUndefined()
    expect(db.subscriptions.filter((s) => s.subscribable_id === 100)).toEqual([])
    expect(db.issues.get(400)!.label_ids).toEqual([110])
    expect(db.issues.get(404)!.label_ids).toEqual([103])
    expect(db.merge_requests.get(501)!.label_ids).toEqual([])
  })

  it('addresses the label by id and by URL-encoded title', async () => {
    expect((await api.delete('/groups/10/labels/101', { as: 'max' })).status).toBe(204)
    expect((await api.delete('/groups/10/labels/needs%20review', { as: 'max' })).status).toBe(204)
    expect(sim().db.tables.labels.where('group_id', 10)).toMatchObject([{ id: 100 }])
  })

  it("deletes a subgroup's label, never the parent's", async () => {
    addLabel(sim, { id: 900, title: 'bug', group_id: 11 })
    expect((await api.delete('/groups/11/labels/bug', { as: 'max' })).status).toBe(204)
    expect(sim().db.tables.labels.get(900)).toBeUndefined()
    expect(sim().db.tables.labels.get(100)).toBeDefined()
  })


})

contract('DELETE /groups/:id/labels', {}, ({ api, sim }) => {
  it('deletes the label named by name (deprecated form)', async () => {
    expect((await api.delete('/groups/10/labels', { as: 'max', query: { name: 'needs review' } })).status).toBe(204)
    expect(sim().db.tables.labels.get(102)).toBeUndefined()
  })

})

contract('POST /groups/:id/labels/:label_id/subscribe', {}, ({ api, sim }) => {
  it('subscribes the current user globally, answering 201 with the label', async () => {
    const res = await api.post('/groups/10/labels/feature/subscribe', { as: 'max' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(groupLabel(101, { subscribed: true }))
    expectLabelSchema(res.body)
    expect(sim().db.tables.subscriptions.filter((s) => s.subscribable_id === 101)).toMatchObject([
      { user_id: 5, subscribable_type: 'Label', project_id: null, subscribed: true },
    ])
    const seen = await api.get('/projects/20/labels/feature', { as: 'max' })
    expect(seen.body.subscribed).toBe(true)
  })

  it('answers 304 with no body when already subscribed', async () => {
    const res = await api.post('/groups/10/labels/bug/subscribe', { as: 'devon' })
    expect([res.status, res.text]).toEqual([304, ''])
  })

  it('switches off project-level subscriptions when subscribing globally', async () => {
    sim().db.tables.subscriptions.insert({ user_id: 5, subscribable_type: 'Label', subscribable_id: 101, project_id: 20, subscribed: true })
    expect((await api.post('/groups/10/labels/101/subscribe', { as: 'max' })).status).toBe(201)
    const rows = sim().db.tables.subscriptions.filter((s) => s.subscribable_id === 101).map((s) => [s.project_id, s.subscribed])
    expect(rows).toEqual([[20, false], [null, true]])
  })

  it("subscribes to an ancestor group's label through a subgroup", async () => {
    const res = await api.post('/groups/11/labels/needs%20review/subscribe', { as: 'max' })
    expect([res.status, res.body.id, res.body.subscribed]).toEqual([201, 102, true])
  })

})

contract('POST /groups/:id/labels/:label_id/unsubscribe', {}, ({ api, sim }) => {
  it('unsubscribes globally, answering 201 with the label', async () => {
    const res = await api.post('/groups/10/labels/bug/unsubscribe', { as: 'devon' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(groupLabel(100))
    expectLabelSchema(res.body)
    expect(sim().db.tables.subscriptions.filter((s) => s.subscribable_id === 100).map((s) => s.subscribed)).toEqual([false])
  })

  it('answers 304 when not subscribed, and after unsubscribing', async () => {
    expect((await api.post('/groups/10/labels/feature/unsubscribe', { as: 'devon' })).status).toBe(304)
    await api.post('/groups/10/labels/bug/unsubscribe', { as: 'devon' })
    const again = await api.post('/groups/10/labels/bug/unsubscribe', { as: 'devon' })
    expect([again.status, again.text]).toEqual([304, ''])
  })

})
