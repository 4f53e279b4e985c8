/**
 * The label routes that projects and groups share, as twins: one case list per route run for
 * `/projects/:id/labels` and `/groups/:id/labels` (test/support/twins.ts). The cases only one
 * source type has (priorities, promotion, counts, ancestors and descendants) stay in
 * project-labels.contract.ts and group-labels.contract.ts.
 * Source: api-spec.md "### Labels"; gitlab-behaviour.md §12; gitlab: spec/requests/api/labels_spec.rb,
 * spec/requests/api/group_labels_spec.rb.
 *
 * Default scenario labels: project website (20, public, in acme) has frontend 110, docs 111 and
 * good first issue 112; api (21, private, in acme/platform) has performance 113; group acme (10,
 * public) has bug 100, feature 101, needs review 102; its subgroup platform (11, private) has backend 103.
 */
import { expect } from 'vitest'
import { contract } from '../../support/contract.js'
import { twin, twins } from '../../support/twins.js'

const UNAUTHORIZED = { message: '401 Unauthorized' }
const FORBIDDEN = { message: '403 Forbidden' }
const LABEL_NOT_FOUND = { message: '404 Label Not Found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const GROUP_NOT_FOUND = { message: '404 Group Not Found' }

/** `[token or username, source id, status, error body or undefined for a success]`. */
type ListCase = [who: string | undefined, id: number, status: number, body: object | undefined]
/** `[username, source id, label (id or URL-encoded title), status, error body or undefined for a success]`. */
type LabelCase = [as: string | undefined, id: number, ref: string, status: number, body: object | undefined]

contract('GET /{groups|projects}/:id/labels', {}, ({ api }) => {
  twins<ListCase>('answers %s', [
    ['anonymous', { project: [undefined, 20, 401, UNAUTHORIZED], group: [undefined, 10, 401, UNAUTHORIZED] }],
    ['a non-member on a public source', { project: ['nora', 20, 200, undefined], group: ['nora', 10, 200, undefined] }],
    ['a read_api token', { project: ['glpat-devon-readonly', 20, 200, undefined], group: ['glpat-devon-readonly', 10, 200, undefined] }],
    ['a non-member on a private source', { project: ['nora', 21, 404, PROJECT_NOT_FOUND], group: ['nora', 11, 404, GROUP_NOT_FOUND] }],
    ['an unknown source', { project: ['root', 999, 404, PROJECT_NOT_FOUND], group: ['root', 999, 404, GROUP_NOT_FOUND] }],
    ['a guest of the group on a private subgroup project', { project: ['gina', 21, 200, undefined] }],
    ["someone else's personal project", { project: ['devon', 22, 404, PROJECT_NOT_FOUND] }],
    ['an administrator', { project: ['root', 24, 200, undefined] }],
    ['a member of another private group', { group: ['devon', 12, 404, GROUP_NOT_FOUND] }],
    ['the owner of a private group', { group: ['olive', 12, 200, undefined] }],
  ], async ([who, id, status, body], source) => {
    const options = who?.startsWith('glpat-') ? { token: who } : { as: who }
    const res = await api.get(`${source.path(id)}/labels`, options)
    if (body) expect(res).toBeGitLabError(status, body)
    else expect(res.status).toBe(status)
  })
})

contract('GET /{groups|projects}/:id/labels/:label_id', {}, ({ api, sim }) => {
  twin<[owner: 'project_id' | 'group_id', id: number, title: string, encoded: string]>('finds a title containing a slash when it is encoded as %2F', {
    project: ['project_id', 20, 'area/ui', 'area%2Fui'],
    group: ['group_id', 10, 'team/core', 'team%2Fcore'],
  }, async ([owner, id, title, encoded], source) => {
    sim().db.tables.labels.insert({
      id: 900, title, color: '#123456', description: null, project_id: null, group_id: null,
      created_at: '2021-01-01T00:00:00.000Z', updated_at: '2021-01-01T00:00:00.000Z', [owner]: id,
    })
    const res = await api.get(`${source.path(id)}/labels/${encoded}`, { as: 'max' })
    expect([res.status, res.body.id, res.body.name]).toEqual([200, 900, title])
  })

  twins<LabelCase>('answers %s', [
    ['an unknown label', { project: ['max', 20, 'nope', 404, LABEL_NOT_FOUND], group: ['max', 10, 'nope', 404, LABEL_NOT_FOUND] }],
    ['a private source to a non-member', { project: ['nora', 21, '113', 404, PROJECT_NOT_FOUND], group: ['nora', 11, 'backend', 404, GROUP_NOT_FOUND] }],
    ['anonymous', { project: [undefined, 20, '110', 401, UNAUTHORIZED], group: [undefined, 10, 'bug', 401, UNAUTHORIZED] }],
    ['another case', { project: ['max', 20, 'BUG', 404, LABEL_NOT_FOUND] }],
    ["another project's label", { project: ['max', 20, '113', 404, LABEL_NOT_FOUND] }],
    ['an unknown project', { project: ['max', 999, '110', 404, PROJECT_NOT_FOUND] }],
    // The project twin of this case adds the label first: project-labels.contract.ts.
    ['a raw slash', { group: ['max', 10, 'team/core', 404, { error: '404 Not Found' }] }],
  ], async ([as, id, ref, status, body], source) => {
    expect(await api.get(`${source.path(id)}/labels/${ref}`, { as })).toBeGitLabError(status, body)
  })
})

contract('POST /{groups|projects}/:id/labels', {}, ({ api }) => {
  // Each twin sends the colour its original case sent: a named colour and a short hex.
  const color = { project: 'red', group: '#123' }
  twins<[as: string | undefined, id: number, status: number, body: object | undefined]>('answers %s', [
    ['anonymous', { project: [undefined, 20, 401, UNAUTHORIZED], group: [undefined, 10, 401, UNAUTHORIZED] }],
    ['a guest', { project: ['gina', 20, 403, FORBIDDEN], group: ['gina', 10, 403, FORBIDDEN] }],
    ['a non-member of a public source', { project: ['nora', 20, 403, FORBIDDEN], group: ['nora', 10, 403, FORBIDDEN] }],
    ['a non-member of a private source', { project: ['nora', 21, 404, PROJECT_NOT_FOUND], group: ['nora', 11, 404, GROUP_NOT_FOUND] }],
    ['a reporter', { project: ['riley', 20, 201, undefined], group: ['riley', 10, 201, undefined] }],
    ['a reporter of the parent group on a subgroup or its project', { project: ['riley', 21, 201, undefined], group: ['riley', 11, 201, undefined] }],
    ['an administrator', { project: ['root', 24, 201, undefined], group: ['root', 12, 201, undefined] }],
    ['the owner of a personal project', { project: ['olive', 22, 201, undefined] }],
  ], async ([as, id, status, body], source) => {
    const res = await api.post(`${source.path(id)}/labels`, { as, body: { name: 'new label', color: color[source.type] } })
    if (body) expect(res).toBeGitLabError(status, body)
    else expect(res.status).toBe(status)
  })
})

contract('PUT /{groups|projects}/:id/labels/:label_id', {}, ({ api }) => {
  twins<LabelCase>('answers %s', [
    ['anonymous', { project: [undefined, 20, 'frontend', 401, UNAUTHORIZED], group: [undefined, 10, 'bug', 401, UNAUTHORIZED] }],
    ['a guest, even for an unknown label', { project: ['gina', 20, 'nope', 403, FORBIDDEN], group: ['gina', 10, 'nope', 403, FORBIDDEN] }],
    ['a non-member of a private source', { project: ['nora', 21, 'performance', 404, PROJECT_NOT_FOUND], group: ['nora', 11, 'backend', 404, GROUP_NOT_FOUND] }],
    ['an unknown label', { project: ['max', 20, 'nope', 404, LABEL_NOT_FOUND], group: ['max', 10, 'nope', 404, LABEL_NOT_FOUND] }],
    ['a developer', { project: ['devon', 20, 'frontend', 200, undefined], group: ['devon', 10, 'bug', 200, undefined] }],
    ['a non-member of a public project', { project: ['nora', 20, 'frontend', 403, FORBIDDEN] }],
    ['an administrator', { project: ['root', 21, 'performance', 200, undefined] }],
  ], async ([as, id, ref, status, body], source) => {
    const res = await api.put(`${source.path(id)}/labels/${ref}`, { as, body: { description: 'changed' } })
    if (body) expect(res).toBeGitLabError(status, body)
    else expect(res.status).toBe(status)
  })
})

contract('PUT /{groups|projects}/:id/labels', {}, ({ api }) => {
  // A project label also takes a priority, so the project names it among the missing parameters.
  const atLeastOne = {
    project: 'new_name, color, description, priority are missing, at least one parameter must be provided',
    group: 'new_name, color, description are missing, at least one parameter must be provided',
  }
  twins<[body: object, status: number, error: object]>('answers %s', [
    ['neither label_id nor name', { project: [{ new_name: 'x' }, 400, { error: 'label_id, name are missing, exactly one parameter must be provided' }], group: [{ new_name: 'x' }, 400, { error: 'label_id, name are missing, exactly one parameter must be provided' }] }],
    ['both label_id and name', { project: [{ label_id: 110, name: 'docs', new_name: 'x' }, 400, { error: 'label_id, name are mutually exclusive' }], group: [{ label_id: 100, name: 'bug', new_name: 'x' }, 400, { error: 'label_id, name are mutually exclusive' }] }],
    ['nothing to change', { project: [{ name: 'frontend' }, 400, { error: atLeastOne.project }], group: [{ name: 'bug' }, 400, { error: atLeastOne.group }] }],
    ['an unknown name', { project: [{ name: 'nope', new_name: 'x' }, 404, LABEL_NOT_FOUND], group: [{ name: 'nope', new_name: 'x' }, 404, LABEL_NOT_FOUND] }],
    ['a label_id that is no integer', { project: [{ label_id: 'abc', new_name: 'x' }, 400, { error: 'label_id is invalid' }] }],
    ['an unknown label_id', { project: [{ label_id: 0, new_name: 'x' }, 404, LABEL_NOT_FOUND] }],
  ], async ([body, status, error], source) => {
    expect(await api.put(`${source.path(source.type === 'project' ? 20 : 10)}/labels`, { as: 'max', body })).toBeGitLabError(status, error)
  })
})

contract('DELETE /{groups|projects}/:id/labels/:label_id', {}, ({ api, sim }) => {
  twin<[id: number, labelId: number, ref: string]>('answers 412 when If-Unmodified-Since is older than the label', { project: [20, 111, 'docs'], group: [10, 101, 'feature'] }, async ([id, labelId, ref], source) => {
    const stamp = sim().db.tables.labels.get(labelId)!.updated_at
    const older = new Date(Date.parse(stamp) - 60_000).toUTCString()
    const newer = new Date(Date.parse(stamp) + 60_000).toUTCString()
    const refused = await api.delete(`${source.path(id)}/labels/${ref}`, { as: 'max', headers: { 'If-Unmodified-Since': older } })
    expect(refused).toBeGitLabError(412, { message: '412 Precondition Failed' })
    expect(sim().db.tables.labels.get(labelId)).toBeDefined()
    const accepted = await api.delete(`${source.path(id)}/labels/${ref}`, { as: 'max', headers: { 'If-Unmodified-Since': newer } })
    expect(accepted.status).toBe(204)
  })

  twins<LabelCase>('answers %s', [
    ['anonymous', { project: [undefined, 20, 'docs', 401, UNAUTHORIZED], group: [undefined, 10, 'bug', 401, UNAUTHORIZED] }],
    ['a guest', { project: ['gina', 20, 'docs', 403, FORBIDDEN], group: ['gina', 10, 'bug', 403, FORBIDDEN] }],
    ['an unknown label', { project: ['max', 20, 'nope', 404, LABEL_NOT_FOUND], group: ['max', 10, 'nope', 404, LABEL_NOT_FOUND] }],
    ['an ancestor group label', { project: ['max', 21, 'bug', 404, LABEL_NOT_FOUND], group: ['max', 11, 'bug', 404, LABEL_NOT_FOUND] }],
    ['a non-member of a private source', { project: ['nora', 21, 'performance', 404, PROJECT_NOT_FOUND], group: ['nora', 11, 'backend', 404, GROUP_NOT_FOUND] }],
    ['a guest asking for an unknown label', { project: ['gina', 20, 'nope', 404, LABEL_NOT_FOUND] }],
    ['an unknown project', { project: ['max', 999, 'docs', 404, PROJECT_NOT_FOUND] }],
    ['a non-member of a public group', { group: ['nora', 10, 'bug', 403, FORBIDDEN] }],
  ], async ([as, id, ref, status, body], source) => {
    expect(await api.delete(`${source.path(id)}/labels/${ref}`, { as })).toBeGitLabError(status, body)
  })
})

contract('DELETE /{groups|projects}/:id/labels', {}, ({ api }) => {
  twins<[query: Record<string, string | number>, status: number, body: object]>('answers %s', [
    // The group route declares `name` only; the project route takes `label_id` or `name`.
    ['neither label_id nor name', { project: [{}, 400, { error: 'label_id, name are missing, exactly one parameter must be provided' }], group: [{}, 400, { error: 'name is missing' }] }],
    ['an unknown name', { project: [{ name: 'nope' }, 404, LABEL_NOT_FOUND], group: [{ name: 'nope' }, 404, LABEL_NOT_FOUND] }],
    ['both label_id and name', { project: [{ label_id: 111, name: 'docs' }, 400, { error: 'label_id, name are mutually exclusive' }] }],
    ['label_id alone (the group route takes a name only)', { group: [{ label_id: 100 }, 400, { error: 'name is missing' }] }],
  ], async ([query, status, body], source) => {
    expect(await api.delete(`${source.path(source.type === 'project' ? 20 : 10)}/labels`, { as: 'max', query })).toBeGitLabError(status, body)
  })
})

contract('POST /{groups|projects}/:id/labels/:label_id/subscribe', {}, ({ api }) => {
  twins<LabelCase>('answers %s', [
    ['an unknown label', { project: ['max', 20, 'nope', 404, LABEL_NOT_FOUND], group: ['max', 10, 'nope', 404, LABEL_NOT_FOUND] }],
    ['a non-member of a private source', { project: ['nora', 21, 'performance', 404, PROJECT_NOT_FOUND], group: ['nora', 11, 'backend', 404, GROUP_NOT_FOUND] }],
    ['anonymous', { project: [undefined, 20, 'docs', 401, UNAUTHORIZED], group: [undefined, 10, 'bug', 401, UNAUTHORIZED] }],
    ['a project label', { group: ['max', 10, 'frontend', 404, LABEL_NOT_FOUND] }],
  ], async ([as, id, ref, status, body], source) => {
    expect(await api.post(`${source.path(id)}/labels/${ref}/subscribe`, { as })).toBeGitLabError(status, body)
  })
})

contract('POST /{groups|projects}/:id/labels/:label_id/unsubscribe', {}, ({ api }) => {
  twins<LabelCase>('answers %s', [
    ['an unknown label', { project: ['max', 20, '9999', 404, LABEL_NOT_FOUND], group: ['max', 10, '9999', 404, LABEL_NOT_FOUND] }],
    ['anonymous', { project: [undefined, 20, 'docs', 401, UNAUTHORIZED], group: [undefined, 10, 'bug', 401, UNAUTHORIZED] }],
  ], async ([as, id, ref, status, body], source) => {
    expect(await api.post(`${source.path(id)}/labels/${ref}/unsubscribe`, { as })).toBeGitLabError(status, body)
  })
})
