/**
 * Project labels through both doors: lists and lookups (id, title, URL-encoded titles), create,
 * update and delete with GitLab's validations and permissions, promotion to a group label, and
 * project-level subscriptions, plus the deprecated name-in-parameters forms.
 * Source: api-spec.md "### Labels", "Label (project and group)", "Label subscription";
 * gitlab-behaviour.md §12; gitlab: spec/requests/api/labels_spec.rb.
 */
import { expect, it } from 'vitest'
import type { Simulator } from '../../../src/index.js'
import { contract, paginationHeaders } from '../../support/contract.js'
import { BASIC, NOW, type LabelId } from '../../support/default-labels.js'
import { schemaErrors } from '../../support/schemas.js'

const PROJECT_LABEL = 'public_api/v4/labels/project_label.json'
const PROJECT_LABEL_WITH_COUNTS = 'public_api/v4/labels/project_label_with_counts.json'
const GROUP_LABEL = 'public_api/v4/labels/label.json'


const PRIORITY: Partial<Record<LabelId, number>> = { 110: 1, 112: 0 }

interface Counts { open: number; closed: number; mrs: number }

/** The ProjectLabel body of a scenario label as seen through project 20 (or another project). */
function projectLabel(id: LabelId, extra: { subscribed?: boolean; priority?: number | null; counts?: Counts; project?: number } = {}) {
  const counts = extra.counts
    ? { open_issues_count: extra.counts.open, closed_issues_count: extra.counts.closed, open_merge_requests_count: extra.counts.mrs }
    : {}
  const ownProject = id >= 110
  const priority = extra.priority !== undefined ? extra.priority : (extra.project ?? 20) === 20 ? PRIORITY[id] ?? null : null
  return {
    ...BASIC[id],
    ...counts,
    subscribed: extra.subscribed ?? false,
    priority,
    is_project_label: ownProject,
  }
}

function expectLabelSchema(body: unknown, schema = PROJECT_LABEL): void {
  const items = Array.isArray(body) ? body : [body]
  for (const item of items) expect(schemaErrors(schema, item)).toEqual([])
}

function addLabel(sim: () => Simulator, fields: { id?: number; title: string; project_id?: number | null; group_id?: number | null; color?: string }) {
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

/** Makes nora (no memberships) a direct member of a project. */
function addProjectMember(sim: () => Simulator, projectId: number, userId: number, level: number): void {
  sim().db.tables.members.insert({
    source_type: 'project', source_id: projectId, user_id: userId, access_level: level,
    expires_at: null, created_at: NOW, updated_at: NOW, created_by_id: 1, override: false,
  })
}

const WEBSITE_LIST: LabelId[] = [100, 111, 101, 110, 112, 102]

contract('GET /projects/:id/labels', {}, ({ api, sim }) => {
  it('lists the labels available to the project, group labels included, ordered by title', async () => {
    const res = await api.get('/projects/20/labels', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(WEBSITE_LIST.map((id) => projectLabel(id, { subscribed: id === 100 })))
    expectLabelSchema(res.body)
  })

  it('sends offset pagination headers built from every parameter', async () => {
    const res = await api.get('/projects/20/labels', { as: 'max', query: { per_page: 2, page: 2 } })
    expect(res.body.map((l: { id: number }) => l.id)).toEqual([101, 110])
    const url = (page: number) =>
      `${api.baseUrl}/api/v4/projects/20/labels?id=20&include_ancestor_groups=true&page=${page}&per_page=2&with_counts=false`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '2',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '6',
      'x-total-pages': '3',
      link: `<${url(1)}>; rel="prev", <${url(3)}>; rel="next", <${url(1)}>; rel="first", <${url(3)}>; rel="last"`,
    })
  })

  it('adds issue and merge request counts with with_counts=true', async () => {
    const res = await api.get('/projects/20/labels', { as: 'devon', query: { with_counts: true } })
    const counts: Record<number, Counts> = {
      100: { open: 1, closed: 1, mrs: 0 },
      111: { open: 1, closed: 0, mrs: 0 },
      101: { open: 1, closed: 0, mrs: 0 },
      110: { open: 1, closed: 0, mrs: 1 },
      112: { open: 0, closed: 0, mrs: 0 },
      102: { open: 0, closed: 0, mrs: 0 },
    }
    expect(res.body).toEqual(WEBSITE_LIST.map((id) => projectLabel(id, { subscribed: id === 100, counts: counts[id] })))
    expectLabelSchema(res.body, PROJECT_LABEL_WITH_COUNTS)
  })

  it("counts a group label in the group's own projects, also when listed through a subgroup project", async () => {
    const res = await api.get('/projects/21/labels', { as: 'max', query: { with_counts: true } })
    const byId = Object.fromEntries(res.body.map((l: { id: number }) => [l.id, l]))
    // bug belongs to acme: website's issues count (1 open, 1 closed), api's issue in acme/platform does not.
    expect(byId[100]).toEqual(projectLabel(100, { project: 21, counts: { open: 1, closed: 1, mrs: 0 } }))
    expect(byId[103]).toEqual(projectLabel(103, { project: 21, counts: { open: 1, closed: 0, mrs: 0 } }))
  })

  it('counts confidential issues only for reporters and up', async () => {
    sim().db.tables.issues.update(403, { label_ids: [111] })
    const counts = async (as: string) =>
      (await api.get('/projects/20/labels', { as, query: { with_counts: true, search: 'docs' } })).body[0].open_issues_count
    expect([await counts('gina'), await counts('riley'), await counts('max')]).toEqual([1, 2, 2])
  })

  it.each([
    ['default', {}, [103, 100, 101, 102, 113]],
    ['include_ancestor_groups=true', { include_ancestor_groups: true }, [103, 100, 101, 102, 113]],
    ['include_ancestor_groups=false (the direct group stays)', { include_ancestor_groups: false }, [103, 113]],
  ])('in a subgroup project: %s', async (_, query, ids) => {
    const res = await api.get('/projects/21/labels', { as: 'max', query })
    expect(res.body.map((l: { id: number }) => l.id)).toEqual(ids)
  })

  it.each([
    ['review', [102]],
    ['FRONT', [110]],
    ['broken', [100]],
    ['good issue', [112]],
    ['"first issue"', [112]],
    ['e', [100, 101, 110, 112, 102]],
    ['nothing-like-this', []],
  ])('filters by search=%s on title or description', async (search, ids) => {
    const res = await api.get('/projects/20/labels', { as: 'max', query: { search } })
    expect(res.body.map((l: { id: number }) => l.id)).toEqual(ids)
    expect(res.headers.get('x-total')).toBe(String(ids.length))
  })

  it('lists the labels of a personal project (no group)', async () => {
    const res = await api.get('/projects/22/labels', { as: 'olive' })
    expect(res.body).toEqual([projectLabel(114, { project: 22 })])
  })

  it('accepts the URL-encoded full path', async () => {
    const res = await api.get('/projects/acme%2Fwebsite/labels', { as: 'max' })
    expect(res.body.map((l: { id: number }) => l.id)).toEqual(WEBSITE_LIST)
  })


  it.each([
    [{ per_page: 'abc' }, 'per_page is invalid'],
    [{ with_counts: 'maybe' }, 'with_counts is invalid'],
    [{ include_ancestor_groups: 'sometimes' }, 'include_ancestor_groups is invalid'],
  ])('validates parameters before looking up the project: %j', async (query, error) => {
    const res = await api.get('/projects/21/labels', { as: 'nora', query })
    expect(res).toBeGitLabError(400, { error })
  })
})

contract('GET /projects/:id/labels/:label_id', {}, ({ api, sim }) => {
  it.each([
    ['an id', '110', 110],
    ['a title', 'frontend', 110],
    ['a URL-encoded title', 'good%20first%20issue', 112],
    ['a group label title', 'needs%20review', 102],
  ])('finds a label by %s', async (_, ref, id) => {
    const res = await api.get(`/projects/20/labels/${ref}`, { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(projectLabel(id as LabelId))
    expectLabelSchema(res.body)
  })

  it('shows a group label with is_project_label false and the global subscription', async () => {
    const res = await api.get('/projects/20/labels/bug', { as: 'devon' })
    expect(res.body).toEqual(projectLabel(100, { subscribed: true }))
  })


  it('answers a raw slash in the label with the route 404', async () => {
    addLabel(sim, { id: 900, title: 'area/ui', project_id: 20 })
    expect(await api.get('/projects/20/labels/area/ui', { as: 'max' })).toBeGitLabError(404, { error: '404 Not Found' })
  })

  it('tries the id before the title, reading leading digits as Rails does', async () => {
    addLabel(sim, { id: 900, title: '110', project_id: 20 })
    addLabel(sim, { id: 901, title: '9999', project_id: 20 })
    expect((await api.get('/projects/20/labels/110', { as: 'max' })).body.id).toBe(110)
    expect((await api.get('/projects/20/labels/110abc', { as: 'max' })).body.id).toBe(110)
    expect((await api.get('/projects/20/labels/9999', { as: 'max' })).body.id).toBe(901)
  })

  it('leaves out ancestor group labels with include_ancestor_groups=false, not the direct group', async () => {
    const ancestor = await api.get('/projects/21/labels/bug', { as: 'max', query: { include_ancestor_groups: false } })
    expect(ancestor).toBeGitLabError(404, { message: '404 Label Not Found' })
    const direct = await api.get('/projects/21/labels/backend', { as: 'max', query: { include_ancestor_groups: false } })
    expect(direct.body).toEqual(projectLabel(103, { project: 21 }))
  })

})

contract('POST /projects/:id/labels', {}, ({ api, sim }) => {
  it('creates a label and answers 201 with the ProjectLabel', async () => {
    const id = sim().db.tables.labels.peekNextId()
    const res = await api.post('/projects/20/labels', { as: 'riley', body: { name: 'ux', color: '#FFAABB', description: 'User experience' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id, name: 'ux', color: '#FFAABB', description: 'User experience', description_html: 'User experience',
      text_color: '#333333', subscribed: false, priority: null, is_project_label: true,
    })
    expectLabelSchema(res.body)
    expect(sim().db.tables.labels.get(id)).toEqual({
      id, title: 'ux', color: '#FFAABB', description: 'User experience', project_id: 20, group_id: null, created_at: NOW, updated_at: NOW,
    })
  })

  it.each([
    ['rebeccapurple', '#663399'],
    ['Red ', '#FF0000'],
    ['grey', '#808080'],
    ['#abc', '#abc'],
    ['  #ABCDEF ', '#ABCDEF'],
  ])('stores colour %j as %s', async (color, stored) => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'x', color } })
    expect([res.status, res.body.color]).toEqual([201, stored])
  })

  it.each([
    [3, 3],
    [0, 0],
    ['', null],
  ])('sets priority %j', async (priority, expected) => {
    const res = await api.post('/projects/20/labels', { as: 'max', form: { name: 'x', color: 'red', priority: String(priority) } })
    expect([res.status, res.body.priority]).toEqual([201, expected])
  })

  it('renders description_html and sanitises HTML out of title and description', async () => {
    const res = await api.post('/projects/20/labels', {
      as: 'max',
      body: { name: '  <b>Bold</b> & brave ', color: 'navy', description: '**Strong** `code` <script>alert(1)</script>' },
    })
    expect(res.body).toMatchObject({
      name: 'Bold & brave',
      description: '**Strong** `code` ',
      description_html: '**Strong** `code` ', // the single-line pipeline renders no Markdown
      color: '#000080',
      text_color: '#FFFFFF',
    })
  })

  it('does not take a title that differs only in case as a conflict', async () => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'Frontend', color: 'red' } })
    expect(res.status).toBe(201)
  })

  it.each([
    ['a project label', 20, 'frontend'],
    ['a label of the direct group', 20, 'bug'],
    ['a label of an ancestor group', 21, 'bug'],
    ['a label of the parent subgroup', 21, 'backend'],
  ])('answers 409 for %s', async (_, project, name) => {
    const res = await api.post(`/projects/${project}/labels`, { as: 'max', body: { name, color: '#FFAABB' } })
    expect(res).toBeGitLabError(409, { message: 'Label already exists' })
  })

  it.each([
    [{}, { error: 'name is missing, color is missing' }],
    [{ name: 'x' }, { error: 'color is missing' }],
    [{ color: 'red' }, { error: 'name is missing' }],
    [{ name: 'x', color: 'red', priority: 'high' }, { error: 'priority is invalid' }],
    [{ name: ',', color: '#FFAABB' }, { message: { title: ['is invalid'] } }],
    [{ name: 'a,b', color: '#FFAABB' }, { message: { title: ['is invalid'] } }],
    [{ name: 'x'.repeat(256), color: '#FFAABB' }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    [{ name: '   ', color: '#FFAABB' }, { message: { title: ["can't be blank", 'is invalid'] } }],
    [{ name: '<b></b>', color: '#FFAABB' }, { message: { title: ["can't be blank", 'is invalid'] } }],
    [{ name: 'x', color: '#FFAA' }, { message: { color: ['must be a valid color code'] } }],
    [{ name: 'x', color: '#FFAAFFFF' }, { message: { color: ['must be a valid color code'] } }],
    [{ name: 'x', color: 'notacolor' }, { message: { color: ['must be a valid color code'] } }],
    [{ name: 'x', color: '' }, { message: { color: ['must be a valid color code'] } }],
    [{ name: 'a,b', color: 'nope' }, { message: { color: ['must be a valid color code'], title: ['is invalid'] } }],
    [{ name: 'x', color: 'red', priority: -1 }, { message: { priority: ['must be greater than or equal to 0'] } }],
  ])('answers 400 for %j', async (body, error) => {
    const before = sim().db.tables.labels.size
    expect(await api.post('/projects/20/labels', { as: 'max', body })).toBeGitLabError(400, error)
    expect(sim().db.tables.labels.size).toBe(before)
  })

  it('accepts a 255-character title', async () => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'x'.repeat(255), color: 'red' } })
    expect(res.status).toBe(201)
  })


  it('refuses a read_api token', async () => {
    const res = await api.post('/projects/20/labels', { token: 'glpat-devon-readonly', body: { name: 'x', color: 'red' } })
    expect([res.status, res.body.error, res.body.scope]).toEqual([403, 'insufficient_scope', 'api read_api'])
  })

  it('refuses changes on an archived project', async () => {
    sim().db.tables.projects.update(20, { archived: true })
    expect(await api.post('/projects/20/labels', { as: 'max', body: { name: 'x', color: 'red' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })

  it('authenticates before it validates', async () => {
    expect(await api.post('/projects/20/labels', { body: {} })).toBeGitLabError(401, { message: '401 Unauthorized' })
  })
})

contract('PUT /projects/:id/labels/:label_id', {}, ({ api, sim }) => {
  it('changes name, colour and description, keeping the priority', async () => {
    const res = await api.put('/projects/20/labels/frontend', { as: 'riley', body: { new_name: 'ui', color: 'teal', description: 'User *interface*' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: 110, name: 'ui', color: '#008080', description: 'User *interface*', description_html: 'User *interface*',
      text_color: '#FFFFFF', subscribed: false, priority: 1, is_project_label: true,
    })
    expectLabelSchema(res.body)
    expect(sim().db.tables.labels.get(110)).toMatchObject({ title: 'ui', color: '#008080', updated_at: NOW })
  })

  it('addresses the label by id and by URL-encoded title', async () => {
    expect((await api.put('/projects/20/labels/112', { as: 'max', body: { color: '#000' } })).body.color).toBe('#000')
    const res = await api.put('/projects/20/labels/good%20first%20issue', { as: 'max', body: { new_name: 'starter' } })
    expect([res.body.id, res.body.name]).toEqual([112, 'starter'])
  })

  it.each([
    ['sets', 111, { priority: 5 }, 5],
    ['changes', 110, { priority: 7 }, 7],
    ['removes (null)', 110, { priority: null }, null],
  ])('%s a priority', async (_, id, body, expected) => {
    const res = await api.put(`/projects/20/labels/${id}`, { as: 'max', body })
    expect([res.status, res.body.priority]).toEqual([200, expected])
    const rows = sim().db.tables.label_priorities.filter((p) => p.label_id === id && p.project_id === 20)
    expect(rows.map((p) => p.priority)).toEqual(expected === null ? [] : [expected])
  })

  it('removes a priority sent blank in a form', async () => {
    const res = await api.put('/projects/20/labels/frontend', { as: 'max', form: { priority: '' } })
    expect([res.status, res.body.priority]).toEqual([200, null])
  })

  it('ignores a blank new_name and description, as the model does', async () => {
    const before = sim().db.tables.labels.get(100)!
    const res = await api.put('/projects/20/labels/bug', { as: 'max', body: { new_name: ' ', description: '' } })
    expect([res.status, res.body.name, res.body.description]).toEqual([200, 'bug', 'Something is broken'])
    expect(sim().db.tables.labels.get(100)).toEqual(before)
  })

  it('may rename a project label to the title of a group label', async () => {
    const res = await api.put('/projects/20/labels/docs', { as: 'max', body: { new_name: 'feature' } })
    expect([res.status, res.body.name]).toEqual([200, 'feature'])
  })

  it("updates a label of the project's own group for someone who may change the group's labels", async () => {
    const res = await api.put('/projects/20/labels/bug', { as: 'riley', body: { new_name: 'defect', priority: 2 } })
    expect(res.body).toEqual({ ...projectLabel(100), name: 'defect', priority: 2 })
  })

  it("lets a project-only reporter prioritise a group label but not change it", async () => {
    addProjectMember(sim, 20, 7, 20)
    const priority = await api.put('/projects/20/labels/bug', { as: 'nora', body: { priority: 4 } })
    expect([priority.status, priority.body.priority]).toEqual([200, 4])
    const rename = await api.put('/projects/20/labels/bug', { as: 'nora', body: { priority: 5, new_name: 'defect' } })
    expect(rename).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(sim().db.tables.label_priorities.find((p) => p.label_id === 100)?.priority).toBe(4)
  })

  it('does not reach the labels of ancestor groups', async () => {
    expect(await api.put('/projects/21/labels/bug', { as: 'max', body: { color: 'red' } })).toBeGitLabError(404, { message: '404 Label Not Found' })
  })

  it('keeps updated_at when nothing changes', async () => {
    const before = sim().db.tables.labels.get(111)!.updated_at
    await api.put('/projects/20/labels/docs', { as: 'max', body: { color: '#F0AD4E' } })
    expect(sim().db.tables.labels.get(111)!.updated_at).toBe(before)
  })

  it.each([
    [{}, { error: 'new_name, color, description, priority are missing, at least one parameter must be provided' }],
    [{ priority: 'high' }, { error: 'priority is invalid' }],
    [{ new_name: ',' }, { message: { title: ['is invalid'] } }],
    [{ new_name: 'docs' }, { message: { title: ['has already been taken'] } }],
    [{ new_name: 'y'.repeat(256) }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    [{ color: '#FF' }, { message: { color: ['must be a valid color code'] } }],
    [{ color: '' }, { message: { color: ['must be a valid color code'] } }],
    [{ priority: -3 }, { message: { priority: ['must be greater than or equal to 0'] } }],
  ])('answers 400 for %j', async (body, error) => {
    expect(await api.put('/projects/20/labels/frontend', { as: 'max', body })).toBeGitLabError(400, error)
  })

  it('changes nothing when the priority is refused', async () => {
    const before = sim().db.tables.labels.get(110)
    expect((await api.put('/projects/20/labels/frontend', { as: 'max', body: { new_name: 'ui', priority: -1 } })).status).toBe(400)
    expect(sim().db.tables.labels.get(110)).toEqual(before)
  })

})

contract('PUT /projects/:id/labels', {}, ({ api }) => {
  it.each([
    ['name', { name: 'frontend', new_name: 'ui' }, 110],
    ['label_id', { label_id: 111, color: 'red' }, 111],
    ['name of a group label', { name: 'feature', priority: 3 }, 101],
  ])('updates the label named by %s (deprecated form)', async (_, body, id) => {
    const res = await api.put('/projects/20/labels', { as: 'max', body })
    expect([res.status, res.body.id]).toEqual([200, id])
    expectLabelSchema(res.body)
  })

  it('removes a priority given as null', async () => {
    const res = await api.put('/projects/20/labels', { as: 'max', body: { name: 'frontend', priority: null } })
    expect([res.status, res.body.priority]).toEqual([200, null])
  })


  it('refuses a guest', async () => {
    expect(await api.put('/projects/20/labels', { as: 'gina', body: { name: 'docs', color: 'red' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('DELETE /projects/:id/labels/:label_id', {}, ({ api, sim }) => {
  it('deletes the label with its priorities, subscriptions and issue links, answering 204', async () => {
    sim().db.tables.subscriptions.insert({ user_id: 5, subscribable_type: 'Label', subscribable_id: 110, project_id: 20, subscribed: true })
    const res = await api.delete('/projects/20/labels/frontend', { as: 'riley' })
    expect([res.status, res.text]).toEqual([204, ''])
    const db = sim().db.tables
    expect(db.labels.get(110)).toBeUndefined()
    expect(db.label_priorities.filter((p) => p.label_id === 110)).toEqual([])
    expect(db.subscriptions.filter((s) => s.subscribable_id === 110)).toEqual([])
    expect(db.issues.get(400)!.label_ids).toEqual([100])
    expect(db.merge_requests.get(500)!.label_ids).toEqual([])
  })

  it.each([['an id', '112', 112], ['a URL-encoded title', 'good%20first%20issue', 112], ['an encoded slash', 'area%2Fui', 900]])(
    'addresses the label by %s',
    async (_, ref, id) => {
      addLabel(sim, { id: 900, title: 'area/ui', project_id: 20 })
      expect((await api.delete(`/projects/20/labels/${ref}`, { as: 'max' })).status).toBe(204)
      expect(sim().db.tables.labels.get(id)).toBeUndefined()
    },
  )

  it("deletes a label of the project's own group for a member who may change the group's labels", async () => {
    expect((await api.delete('/projects/20/labels/bug', { as: 'max' })).status).toBe(204)
    expect(sim().db.tables.labels.get(100)).toBeUndefined()
  })

  it("refuses a group label to someone who may only change the project's labels", async () => {
    addProjectMember(sim, 20, 7, 40)
    expect(await api.delete('/projects/20/labels/bug', { as: 'nora' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.delete('/projects/20/labels/docs', { as: 'nora' })).status).toBe(204)
  })


})

contract('DELETE /projects/:id/labels', {}, ({ api, sim }) => {
  it.each([
    ['name', { name: 'good first issue' }, 112],
    ['label_id', { label_id: 111 }, 111],
  ])('deletes the label named by %s (deprecated form)', async (_, query, id) => {
    const res = await api.delete('/projects/20/labels', { as: 'max', query })
    expect(res.status).toBe(204)
    expect(sim().db.tables.labels.get(id)).toBeUndefined()
  })

})

contract('PUT /projects/:id/labels/:label_id/promote', {}, ({ api, sim }) => {
  it('turns the project label into a group label keeping its id, and answers with a GroupLabel', async () => {
    const res = await api.put('/projects/20/labels/docs/promote', { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...BASIC[111], subscribed: false })
    expectLabelSchema(res.body, GROUP_LABEL)
    expect(sim().db.tables.labels.get(111)).toMatchObject({ project_id: null, group_id: 10, updated_at: NOW })
    const group = await api.get('/groups/10/labels', { as: 'riley' })
    expect(group.body.map((l: { id: number }) => l.id)).toEqual([100, 111, 101, 102])
  })

  it('keeps the priority in the project', async () => {
    await api.put('/projects/20/labels/frontend/promote', { as: 'max' })
    const res = await api.get('/projects/20/labels/frontend', { as: 'max' })
    expect(res.body).toEqual({ ...projectLabel(110), is_project_label: false })
  })

  it('merges labels with the same title in sibling projects', async () => {
    addLabel(sim, { id: 900, title: 'frontend', project_id: 23 })
    const db = sim().db.tables
    db.label_priorities.insert({ project_id: 23, label_id: 900, priority: 2 })
    db.subscriptions.insert({ user_id: 7, subscribable_type: 'Label', subscribable_id: 900, project_id: null, subscribed: true })
    db.issues.update(402, { label_ids: [101, 111, 900] })
    const res = await api.put('/projects/20/labels/110/promote', { as: 'max' })
    expect([res.status, res.body.id]).toEqual([200, 110])
    expect(db.labels.get(900)).toBeUndefined()
    expect(db.issues.get(402)!.label_ids).toEqual([101, 111, 110])
    expect(db.label_priorities.filter((p) => p.label_id === 110).map((p) => [p.project_id, p.priority])).toEqual([[20, 1], [23, 2]])
    expect(db.subscriptions.filter((s) => s.subscribable_id === 110).map((s) => s.user_id)).toEqual([7])
  })

  it('merges into an existing group label of the same title', async () => {
    addLabel(sim, { id: 900, title: 'bug', project_id: 20, color: '#000000' })
    sim().db.tables.issues.update(402, { label_ids: [900] })
    const res = await api.put('/projects/20/labels/900/promote', { as: 'max' })
    expect(res.body).toEqual({ ...BASIC[100], subscribed: false })
    expect(sim().db.tables.labels.get(900)).toBeUndefined()
    expect(sim().db.tables.issues.get(402)!.label_ids).toEqual([100])
  })

  it('promotes into the direct group of a subgroup project', async () => {
    const res = await api.put('/projects/21/labels/performance/promote', { as: 'max' })
    expect(res.body).toEqual({ ...BASIC[113], subscribed: false })
    expect(sim().db.tables.labels.get(113)).toMatchObject({ group_id: 11, project_id: null })
  })

  it.each([
    ['a personal project', 'olive', 22, 'chore', 400, { message: 'Failed to promote project label to group label' }],
    ['a group label', 'max', 20, 'bug', 400, { message: 'Failed to promote project label to group label' }],
    ['an ancestor group label', 'max', 21, 'bug', 404, { message: '404 Label Not Found' }],
    ['an unknown label', 'max', 20, 'nope', 404, { message: '404 Label Not Found' }],
    ['a guest', 'gina', 20, 'docs', 403, { message: '403 Forbidden' }],
    ['anonymous', undefined, 20, 'docs', 401, { message: '401 Unauthorized' }],
    ['a non-member of a private project', 'nora', 21, 'performance', 404, { message: '404 Project Not Found' }],
  ])('answers %s', async (_, as, project, ref, status, body) => {
    expect(await api.put(`/projects/${project}/labels/${ref}/promote`, { as })).toBeGitLabError(status, body)
  })

  it("refuses a project maintainer who may not change the group's labels", async () => {
    addProjectMember(sim, 20, 7, 40)
    expect(await api.put('/projects/20/labels/docs/promote', { as: 'nora' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('PUT /projects/:id/labels/promote', {}, ({ api, sim }) => {
  it('promotes the label named by name (deprecated form)', async () => {
    const res = await api.put('/projects/20/labels/promote', { as: 'max', body: { name: 'good first issue' } })
    expect(res.body).toEqual({ ...BASIC[112], subscribed: false })
    expect(sim().db.tables.labels.get(112)!.group_id).toBe(10)
  })

  it.each([
    [{}, 400, { error: 'name is missing' }],
    [{ name: 'nope' }, 404, { message: '404 Label Not Found' }],
  ])('answers %j with %i', async (body, status, error) => {
    expect(await api.put('/projects/20/labels/promote', { as: 'max', body })).toBeGitLabError(status, error)
  })

  it('still finds a label titled "promote" through GET', async () => {
    addLabel(sim, { id: 900, title: 'promote', project_id: 20 })
    expect((await api.get('/projects/20/labels/promote', { as: 'max' })).body.id).toBe(900)
  })
})

contract('POST /projects/:id/labels/:label_id/subscribe', {}, ({ api, sim }) => {
  it('subscribes the current user within the project, answering 201 with the label', async () => {
    const res = await api.post('/projects/20/labels/frontend/subscribe', { as: 'max' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(projectLabel(110, { subscribed: true }))
    expectLabelSchema(res.body)
    expect(sim().db.tables.subscriptions.filter((s) => s.subscribable_id === 110)).toMatchObject([
      { user_id: 5, subscribable_type: 'Label', project_id: 20, subscribed: true },
    ])
  })

  it('answers 304 with no body when already subscribed in the project', async () => {
    await api.post('/projects/20/labels/110/subscribe', { as: 'max' })
    const res = await api.post('/projects/20/labels/110/subscribe', { as: 'max' })
    expect([res.status, res.text]).toEqual([304, ''])
  })

  it('subscribes by URL-encoded title, any reader of the project may', async () => {
    const res = await api.post('/projects/20/labels/good%20first%20issue/subscribe', { as: 'nora' })
    expect([res.status, res.body.id, res.body.subscribed]).toEqual([201, 112, true])
  })

  it('switches off a global subscription when subscribing within a project', async () => {
    const res = await api.post('/projects/20/labels/bug/subscribe', { as: 'devon' })
    expect([res.status, res.body.subscribed]).toEqual([201, true])
    const rows = sim().db.tables.subscriptions.filter((s) => s.subscribable_id === 100).map((s) => [s.project_id, s.subscribed])
    expect(rows).toEqual([[null, false], [20, true]])
    expect((await api.get('/groups/10/labels/bug', { as: 'devon' })).body.subscribed).toBe(false)
  })


  it('refuses a read_api token', async () => {
    const res = await api.post('/projects/20/labels/docs/subscribe', { token: 'glpat-devon-readonly' })
    expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope'])
  })
})

contract('POST /projects/:id/labels/:label_id/unsubscribe', {}, ({ api, sim }) => {
  it('unsubscribes within the project, answering 201 with the label', async () => {
    await api.post('/projects/20/labels/docs/subscribe', { as: 'max' })
    const res = await api.post('/projects/20/labels/docs/unsubscribe', { as: 'max' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(projectLabel(111))
    expectLabelSchema(res.body)
    expect(sim().db.tables.subscriptions.filter((s) => s.subscribable_id === 111).map((s) => s.subscribed)).toEqual([false])
  })

  it('answers 304 when not subscribed', async () => {
    const res = await api.post('/projects/20/labels/docs/unsubscribe', { as: 'max' })
    expect([res.status, res.text]).toEqual([304, ''])
  })

  it('answers 304 for a global subscription: only the project level is looked at', async () => {
    const res = await api.post('/projects/20/labels/bug/unsubscribe', { as: 'devon' })
    expect(res.status).toBe(304)
  })

})
