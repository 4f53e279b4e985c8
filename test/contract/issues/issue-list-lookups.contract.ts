/**
 * What the rows of one issue list page share: the users, milestones and project paths the page
 * looks up once (`IssuablePageLookups` in resources/issues/issue.entities.ts), over both doors. Every row shows a
 * shared entity whole, and the next list sees a write to any of them, but not a failed write.
 *
 * Default scenario: ivy/tracker (30): devon (id 4) is the author of #1 and an assignee of #4 and
 * #5. Group 10 (acme) has milestone v1.0 (200), on acme/website (20) #1 and #2 and on project 21 #1.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

interface UserBasic {
  id: number
  name: string
  username: string
  web_url: string
}

interface ListedIssue {
  iid: number
  project_id: number
  author: UserBasic
  assignees: UserBasic[]
  assignee: UserBasic | null
  milestone: { id: number; title: string } | null
  web_url: string
  references: { short: string; relative: string; full: string }
}

async function list(api: Api, path: string): Promise<ListedIssue[]> {
  const res = await api.get(path, { as: 'root', query: { per_page: '100' } })
  expect(res.status, res.text).toBe(200)
  return res.body
}

/** Every appearance of user `id` on the page: authors, assignees and `assignee`. */
function appearances(issues: ListedIssue[], id: number): UserBasic[] {
  return issues.flatMap((issue) => [issue.author, ...issue.assignees, ...(issue.assignee ? [issue.assignee] : [])]).filter((user) => user.id === id)
}

contract('GET /projects/:id/issues: entities the rows of a page share', {}, ({ api }) => {
  it('shows a user who appears in several rows whole in each', async () => {
    const seen = appearances(await list(api, '/projects/30/issues'), 4)
    // Author of #1, assignee (and `assignee`) of #4 and #5.
    expect(seen).toHaveLength(5)
    for (const user of seen) expect(user).toEqual({ id: 4, name: expect.any(String), username: 'devon', state: 'active', avatar_url: null, web_url: `${api.baseUrl}/devon` })
  })

  it('shows a user renamed by the previous request in every row', async () => {
    await list(api, '/projects/30/issues')
    expect((await api.put('/users/4', { as: 'root', body: { name: 'Devon Renamed' } })).status).toBe(200)
    const seen = appearances(await list(api, '/projects/30/issues'), 4)
    expect(seen).toHaveLength(5)
    for (const user of seen) expect(user.name).toBe('Devon Renamed')
  })

  it('shows the project path changed by the previous request, and not the one a failed request would have set', async () => {
    const before = await list(api, '/projects/30/issues')
    expect(before.map((issue) => issue.web_url)).toContain(`${api.baseUrl}/ivy/tracker/-/issues/1`)
    // `name` is blank, so the whole update fails: the path stays.
    expect((await api.put('/projects/30', { as: 'root', body: { path: 'tracker-failed', name: '' } })).status).toBe(400)
    expect(await list(api, '/projects/30/issues')).toEqual(before)
    expect((await api.put('/projects/30', { as: 'root', body: { path: 'tracker-renamed' } })).status).toBe(200)
    const after = await list(api, '/projects/30/issues')
    expect(after).toHaveLength(before.length)
    for (const issue of after) {
      expect(issue.web_url).toBe(`${api.baseUrl}/ivy/tracker-renamed/-/issues/${issue.iid}`)
      expect(issue.references.full).toBe(`ivy/tracker-renamed#${issue.iid}`)
    }
  })
})

contract('GET /groups/:id/issues: entities the rows of a page share', {}, ({ api }) => {
  it('shows a group milestone renamed by the previous request in every row that has it', async () => {
    const before = (await list(api, '/groups/10/issues')).filter((issue) => issue.milestone?.id === 200)
    expect(before.length).toBeGreaterThan(1)
    expect((await api.put('/groups/10/milestones/200', { as: 'root', body: { title: 'v1.0-renamed' } })).status).toBe(200)
    const after = (await list(api, '/groups/10/issues')).filter((issue) => issue.milestone?.id === 200)
    expect(after.map((issue) => [issue.project_id, issue.iid])).toEqual(before.map((issue) => [issue.project_id, issue.iid]))
    for (const issue of after) expect(issue.milestone).toEqual({ ...before[0]!.milestone, title: 'v1.0-renamed', updated_at: expect.any(String) })
    // The milestone's own issue list (IssueBasic) too.
    const basic = await api.get('/groups/10/milestones/200/issues', { as: 'root' })
    expect(basic.status).toBe(200)
    for (const issue of basic.body as ListedIssue[]) expect(issue.milestone?.title).toBe('v1.0-renamed')
  })
})
