/**
 * Issue links over both doors (issue 25 item 6): an issue's related issues, linking two issues
 * (`relates_to`, `blocks`, `is_blocked_by`), deleting a link, and 13.x's refusals.
 * Sources: gitlab: lib/api/issue_links.rb (13.11–13.12), lib/api/entities/related_issue.rb,
 * issue_link.rb, app/services/issuable_links/create_service.rb, app/services/issue_links/*,
 * ee/app/services/ee/issue_links/create_service.rb, spec/requests/api/issue_links_spec.rb.
 *
 * Default scenario, ivy/tracker (30, public; gina guest, riley reporter, devon developer, max
 * maintainer): link 1 #1 blocks #2, link 2 #1 relates to #3, link 3 #2 relates to the confidential
 * #5, link 4 #4 relates to acme/website#1 (project 20, public; issue 400). acme/platform/api (21)
 * is private (issue 404).
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'
const NOT_FOUND = { message: '404 Not found' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const NO_MATCH = { message: 'No matching issue found. Make sure that you are adding a valid issue URL.' }
const LINKS = (iid: number) => `/projects/30/issues/${iid}/links`

/** The `Issue` entity of a project issue as the single-issue route shows it to `as`. */
async function issue(api: Api, projectId: number, iid: number, as: string) {
  return (await api.get(`/projects/${projectId}/issues/${iid}`, { as })).body
}

/** `IssueBasic`: the `Issue` entity's keys up to `task_completion_status`. */
async function issueBasic(api: Api, projectId: number, iid: number) {
  const full = await issue(api, projectId, iid, 'root')
  const keys = Object.keys(full)
  return Object.fromEntries(keys.slice(0, keys.indexOf('task_completion_status') + 1).map((k) => [k, full[k]]))
}

contract('GET /projects/:id/issues/:issue_iid/links', {}, ({ api }) => {
  it('lists the related issues in link order, as Entities::RelatedIssue, with the link type from this issue\'s side', async () => {
    const res = await api.get(LINKS(1), { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      { ...(await issue(api, 30, 2, 'riley')), issue_link_id: 1, link_type: 'blocks', link_created_at: '2021-03-13T09:00:00.000Z', link_updated_at: '2021-03-13T09:00:00.000Z' },
      { ...(await issue(api, 30, 3, 'riley')), issue_link_id: 2, link_type: 'relates_to', link_created_at: '2021-03-14T10:00:00.000Z', link_updated_at: '2021-03-14T10:00:00.000Z' },
    ])
    expect([res.headers.get('x-total'), res.headers.get('x-page')]).toEqual(['2', '1'])
  })

  it('shows a blocks link from the blocked issue as is_blocked_by', async () => {
    const res = await api.get(LINKS(2), { as: 'riley' })
    expect(res.body.map((r: { iid: number; issue_link_id: number; link_type: string }) => [r.iid, r.issue_link_id, r.link_type])).toEqual([[1, 1, 'is_blocked_by'], [5, 3, 'relates_to']])
  })

  it('leaves out, after paginating, issues the caller cannot read (the confidential #5 to a non-member)', async () => {
    const res = await api.get(LINKS(2), { as: 'nora' })
    expect([res.body.map((r: { iid: number }) => r.iid), res.headers.get('x-total')]).toEqual([[1], '2'])
  })

  it('shows an issue of another project with references relative to this one', async () => {
    const res = await api.get(LINKS(4), { as: 'nora' })
    expect(res.body).toHaveLength(1)
    expect(res.body[0]).toMatchObject({ id: 400, project_id: 20, issue_link_id: 4, link_type: 'relates_to', references: { short: '#1', relative: 'acme/website#1', full: 'acme/website#1' } })
  })

  it('paginates the links', async () => {
    const res = await api.get(LINKS(1), { as: 'riley', query: { per_page: 1, page: 2 } })
    expect([res.body.map((r: { issue_link_id: number }) => r.issue_link_id), res.headers.get('x-total-pages')]).toEqual([[2], '2'])
  })

  it.each([
    ['anonymous', undefined, LINKS(1), 401, UNAUTHORIZED],
    ['a confidential issue to a non-member', 'nora', LINKS(5), 404, NOT_FOUND],
    ['a missing issue', 'riley', LINKS(99), 404, NOT_FOUND],
    ['a private project', 'nora', '/projects/21/issues/1/links', 404, PROJECT_NOT_FOUND],
  ])('refuses %s', async (_what, as, path, status, expected) => {
    expect(await api.get(path, { as })).toBeGitLabError(status, expected)
  })
})

contract('POST /projects/:id/issues/:issue_iid/links', {}, ({ api, sim }) => {
  it('links two issues (201, Entities::IssueLink) as relates_to by default; both see the link', async () => {
    const res = await api.post(LINKS(3), { as: 'riley', body: { target_project_id: 30, target_issue_iid: 6 } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ source_issue: await issueBasic(api, 30, 3), target_issue: await issueBasic(api, 30, 6), link_type: 'relates_to' })
    const back = await api.get(LINKS(6), { as: 'riley' })
    expect(back.body.map((r: { iid: number; issue_link_id: number; link_type: string; link_created_at: string }) => [r.iid, r.issue_link_id, r.link_type, r.link_created_at])).toEqual([[3, 5, 'relates_to', NOW]])
  })

  it('stores is_blocked_by as a blocks link the other way round', async () => {
    const res = await api.post(LINKS(6), { as: 'riley', body: { target_project_id: 'ivy/tracker', target_issue_iid: 4, link_type: 'is_blocked_by' } })
    expect(res.status).toBe(201)
    expect([res.body.source_issue.iid, res.body.target_issue.iid, res.body.link_type]).toEqual([4, 6, 'blocks'])
    expect((await api.get(LINKS(6), { as: 'riley' })).body.map((r: { iid: number; link_type: string }) => [r.iid, r.link_type])).toEqual([[4, 'is_blocked_by']])
    expect((await api.get(LINKS(4), { as: 'riley' })).body.map((r: { iid: number; link_type: string }) => [r.iid, r.link_type])).toEqual([[1, 'relates_to'], [6, 'blocks']])
  })

  it('links to an issue of another project the caller administers', async () => {
    const res = await api.post(LINKS(6), { as: 'max', body: { target_project_id: 20, target_issue_iid: 2, link_type: 'blocks' } })
    expect([res.status, res.body.target_issue.id, res.body.link_type]).toEqual([201, 401, 'blocks'])
  })

  it.each([
    ['a target already related', 'riley', LINKS(1), { target_project_id: 30, target_issue_iid: 2 }, 409, { message: 'Issue(s) already assigned' }],
    ['a target related the other way round', 'riley', LINKS(2), { target_project_id: 30, target_issue_iid: 1, link_type: 'blocks' }, 409, { message: 'Issue(s) already assigned' }],
    ['the issue itself', 'riley', LINKS(1), { target_project_id: 30, target_issue_iid: 1 }, 422, { message: '#1 cannot be added: cannot be related to itself' }],
    ['a guest (no admin_issue_link on the target)', 'gina', LINKS(1), { target_project_id: 30, target_issue_iid: 6 }, 404, NO_MATCH],
    ['a non-member of a public project', 'nora', LINKS(1), { target_project_id: 30, target_issue_iid: 6 }, 404, NO_MATCH],
    ['a target in a private project', 'nora', LINKS(1), { target_project_id: 21, target_issue_iid: 1 }, 404, PROJECT_NOT_FOUND],
    ['a missing target project', 'riley', LINKS(1), { target_project_id: 999, target_issue_iid: 1 }, 404, PROJECT_NOT_FOUND],
    ['a missing target issue', 'riley', LINKS(1), { target_project_id: 30, target_issue_iid: 99 }, 404, NOT_FOUND],
    ['a confidential target the caller cannot see', 'gina', LINKS(1), { target_project_id: 30, target_issue_iid: 5 }, 404, NOT_FOUND],
    ['a missing source issue', 'riley', LINKS(99), { target_project_id: 30, target_issue_iid: 6 }, 404, NOT_FOUND],
    ['an unknown link type', 'riley', LINKS(1), { target_project_id: 30, target_issue_iid: 6, link_type: 'duplicates' }, 400, { error: 'link_type does not have a valid value' }],
    ['no target issue iid', 'riley', LINKS(1), { target_project_id: 30 }, 400, { error: 'target_issue_iid is missing' }],
    ['anonymous', undefined, LINKS(1), { target_project_id: 30, target_issue_iid: 6 }, 401, UNAUTHORIZED],
  ])('refuses %s and stores nothing', async (_what, as, path, body, status, expected) => {
    const before = sim().db.tables.issue_links.size
    expect(await api.post(path, { as, body })).toBeGitLabError(status, expected)
    expect(sim().db.tables.issue_links.size).toBe(before)
  })
})

contract('DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id', {}, ({ api, sim }) => {
  it('deletes the link (200, Entities::IssueLink); neither issue lists it any more', async () => {
    const res = await api.delete(`${LINKS(1)}/1`, { as: 'riley' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ source_issue: await issueBasic(api, 30, 1), target_issue: await issueBasic(api, 30, 2), link_type: 'blocks' })
    expect((await api.get(LINKS(1), { as: 'riley' })).body.map((r: { iid: number }) => r.iid)).toEqual([3])
    expect((await api.get(LINKS(2), { as: 'riley' })).body.map((r: { iid: number }) => r.iid)).toEqual([5])
  })

  it('deletes a link named under any issue\'s path, as 13.x does (IssueLink.find)', async () => {
    expect((await api.delete(`${LINKS(6)}/2`, { as: 'riley' })).status).toBe(200)
    expect(sim().db.tables.issue_links.get(2)).toBeUndefined()
  })

  it('finds the link before the project: a missing link in a private project is 404 Not found', async () => {
    expect(await api.delete('/projects/21/issues/1/links/999', { as: 'nora' })).toBeGitLabError(404, NOT_FOUND)
  })

  it.each([
    ['a guest', 'gina', `${LINKS(1)}/1`, 404, { message: 'No Issue Link found' }],
    ['a non-member of a public project', 'nora', `${LINKS(4)}/4`, 404, { message: 'No Issue Link found' }],
    ['a missing link', 'riley', `${LINKS(1)}/999`, 404, NOT_FOUND],
    ['a confidential path issue the caller cannot see', 'gina', `${LINKS(5)}/3`, 404, NOT_FOUND],
    ['a link id that is not an integer', 'riley', `${LINKS(1)}/abc`, 400, { error: 'issue_link_id is invalid' }],
    ['anonymous', undefined, `${LINKS(1)}/1`, 401, UNAUTHORIZED],
  ])('refuses %s and keeps the link', async (_what, as, path, status, expected) => {
    const before = sim().db.tables.issue_links.size
    expect(await api.delete(path, { as })).toBeGitLabError(status, expected)
    expect(sim().db.tables.issue_links.size).toBe(before)
  })

  it('refuses a link whose target is in a project the caller cannot read (404 Project Not Found)', async () => {
    const link = sim().db.tables.issue_links.insert({ source_id: 405, target_id: 404, link_type: 'relates_to', created_at: NOW, updated_at: NOW })
    expect(await api.delete(`${LINKS(1)}/${link.id}`, { as: 'nora' })).toBeGitLabError(404, PROJECT_NOT_FOUND)
  })

  it('goes with a deleted issue', async () => {
    expect((await api.delete('/projects/30/issues/2', { as: 'root' })).status).toBe(204)
    expect((await api.get(LINKS(1), { as: 'riley' })).body.map((r: { iid: number }) => r.iid)).toEqual([3])
  })
})
