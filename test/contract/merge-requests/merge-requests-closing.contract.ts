/**
 * The issues an API-created or updated merge request closes, over both doors (issue 26 item 3):
 * GitLab's default closing pattern in the title, the description and the source branch's commit
 * messages, same-project, sibling, full-path and URL references, only into the default branch;
 * `closes_issues` lists them and merging closes them, naming them in the merge commit.
 * Default scenario: ivy/tracker (30, public, namespace ivy): issues #1, #2, #4, #6 open (#6 a test
 * case), #3 closed, #5 confidential; max maintains it and acme/website (20), whose #1 is open.
 * Sources: gitlab: app/models/merge_request.rb (13.x `closes_issues`,
 * `cache_merge_request_closes_issues!`, `merge_commit_message`), lib/gitlab/closing_issue_extractor.rb,
 * config/initializers/1_settings.rb (`issue_closing_pattern`), spec/requests/api/merge_requests_spec.rb
 * (`GET /projects/:id/merge_requests/:merge_request_iid/closes_issues`).
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

/** A branch `name` off main in ivy/tracker with one commit whose message is `message`. */
async function branchWithCommit(api: Api, name: string, message = 'Change\n') {
  expect((await api.post('/projects/30/repository/branches', { as: 'max', body: { branch: name, ref: 'main' } })).status).toBe(201)
  const res = await api.post('/projects/30/repository/commits', { as: 'max', body: { branch: name, commit_message: message, actions: [{ action: 'create', file_path: `${name}.txt`, content: 'x\n' }] } })
  expect(res.status).toBe(201)
}

/** Creates a merge request of `feature` into `target` in ivy/tracker as max; its iid. */
async function create(api: Api, body: Record<string, unknown>, message?: string): Promise<number> {
  await branchWithCommit(api, 'feature', message)
  const res = await api.post('/projects/30/merge_requests', { as: 'max', body: { title: 'Work', source_branch: 'feature', target_branch: 'main', ...body } })
  expect(res.status).toBe(201)
  return res.body.iid
}

/** `closes_issues` as references (`project_id#iid`). */
async function closes(api: Api, iid: number): Promise<string[]> {
  const res = await api.get(`/projects/30/merge_requests/${iid}/closes_issues`, { as: 'max' })
  expect(res.status).toBe(200)
  return res.body.map((issue: { project_id: number; iid: number }) => `${issue.project_id}#${issue.iid}`)
}

contract('closing issues of an API-created merge request', {}, ({ api }) => {
  it.each([
    ['Closes #2', ['30#2']],
    ['closes #2', ['30#2']],
    ['fixes #2 and #4', ['30#2', '30#4']],
    ['Resolves: #2, #4', ['30#2', '30#4']],
    ['Implements issue #2', ['30#2']],
    ['Closing issues #2, #4 and #6', ['30#2', '30#4', '30#6']],
    ['Fixed #2, see also #4', ['30#2']],
    ['This closes #4.', ['30#4']],
    ['Closes ivy/tracker#2', ['30#2']],
    ['Closes tracker#2', ['30#2']],
    ['Closes acme/website#1', ['20#1']],
    ['Closes #2 and acme/website#1', ['20#1', '30#2']],
    ['Closes #5', ['30#5']],
    ['See #2', []],
    ['Closes #99', []],
    ['Closes#2', []],
    ['Disclosed #2', []],
    ['Closes PROJ-123', []],
  ])('reads %j from the description', async (description, expected) => {
    const iid = await create(api, { description })
    expect(await closes(api, iid)).toEqual(expected)
  })

  it('reads a link to an issue of this GitLab', async () => {
    const iid = await create(api, { description: `Fixes ${api.baseUrl}/ivy/tracker/-/issues/4 and ${api.baseUrl}/ivy/tracker/issues/2` })
    expect(await closes(api, iid)).toEqual(['30#2', '30#4'])
  })

  it.each([
    ['the title', { title: 'Close #2' }, undefined, ['30#2']],
    ['a commit message of the source branch', {}, 'Fix the editor\n\nCloses #4\n', ['30#4']],
    ['nothing for a target that is not the default branch', { target_branch: 'rework-report', description: 'Closes #2' }, 'Closes #4\n', []],
  ])('reads %s', async (_name, body, message, expected) => {
    const iid = await create(api, body, message)
    expect(await closes(api, iid)).toEqual(expected)
  })

  it('leaves out an issue the creator may not read', async () => {
    // secret-lab/experiments (24) is private, olive's alone.
    expect((await api.post('/projects/24/issues', { as: 'olive', body: { title: 'Secret' } })).body.iid).toBe(1)
    const iid = await create(api, { description: 'Closes secret-lab/experiments#1 and #2' })
    expect(await closes(api, iid)).toEqual(['30#2'])
  })
})

contract('closing issues of an API-updated merge request, and merging it', {}, ({ api }) => {
  it('reads them again from the updated description', async () => {
    const iid = await create(api, { description: 'Closes #2' })
    const res = await api.put(`/projects/30/merge_requests/${iid}`, { as: 'max', body: { description: 'Fixes #4 and #6' } })
    expect(res.status).toBe(200)
    expect(await closes(api, iid)).toEqual(['30#4', '30#6'])
    await api.put(`/projects/30/merge_requests/${iid}`, { as: 'max', body: { description: 'Nothing' } })
    expect(await closes(api, iid)).toEqual([])
  })

  it('closes them on merge, by the merger, naming them in the merge commit', async () => {
    const iid = await create(api, { description: 'Closes #2 and acme/website#1' })
    const res = await api.put(`/projects/30/merge_requests/${iid}/merge`, { as: 'max' })
    expect(res.status).toBe(200)
    for (const [project, issue] of [[30, 2], [20, 1]]) {
      const body = (await api.get(`/projects/${project}/issues/${issue}`, { as: 'max' })).body
      expect([body.state, body.closed_by?.username]).toEqual(['closed', 'max'])
    }
    const merge = await api.get(`/projects/30/repository/commits/${res.body.merge_commit_sha}`, { as: 'max' })
    expect(merge.body.message).toBe(`Merge branch 'feature' into 'main'\n\nWork\n\nCloses acme/website#1 and #2\n\nSee merge request ivy/tracker!${iid}`)
  })
})
