/**
 * Real clients on the default scenario's merge requests, pipelines and jobs (issue 25 "Done when"):
 * @gitbeaker/rest through both doors (the node:http server and the MSW handlers) and python-gitlab
 * through the server, each listing, reading, commenting on, labelling and closing a merge request,
 * and reading a pipeline and its jobs, as a review bot and a CI dashboard do. The python part is
 * skipped, saying so, where `python3 -c 'import gitlab'` fails.
 */
import { join } from 'node:path'
import { Gitlab } from '@gitbeaker/rest'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, defaultScenario } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { findPython, runPython, serveDefaultScenario } from '../support/clients.js'

/** The gitbeaker session: the same calls and expectations on each door. */
async function reviewAndRead(host: string): Promise<void> {
  const api = new Gitlab({ host, token: 'glpat-max-fakelab' })
  const open = await api.MergeRequests.all({ projectId: 'acme/website', state: 'opened' })
  expect(open.map((mr) => [mr.iid, mr.draft])).toEqual([[4, true], [1, false]])
  const mr = await api.MergeRequests.show('acme/website', 1)
  expect([mr.title, (mr.author as { username: string }).username, mr.source_branch]).toEqual(['Fix the login button', 'devon', 'feature/login'])
  const note = await api.MergeRequestNotes.create('acme/website', 1, 'Looks good')
  expect([note.body, (note.author as { username: string }).username]).toEqual(['Looks good', 'max'])
  // Approvals as GitLab CE 13.12 has them (issue 34 "Done when"): approve, read, unapprove.
  const approved = await api.MergeRequestApprovals.approve('acme/website', 1)
  const approvers = (a: { approved_by?: unknown }) => (a.approved_by as { user: { username: string } }[]).map((x) => x.user.username)
  expect([approved.approved, approvers(approved)]).toEqual([true, ['max']])
  const read = await api.MergeRequestApprovals.showConfiguration('acme/website', { mergerequestIId: 1 })
  expect([read.user_has_approved, approvers(read)]).toEqual([true, ['max']])
  await api.MergeRequestApprovals.unapprove('acme/website', 1)
  const after = await api.MergeRequestApprovals.showConfiguration('acme/website', { mergerequestIId: 1 })
  expect([after.user_has_approved, approvers(after)]).toEqual([false, []])
  const closed = await api.MergeRequests.edit('acme/website', 1, { addLabels: 'needs review', stateEvent: 'close' })
  expect([closed.state, closed.labels]).toEqual(['closed', ['frontend', 'needs review']])
  const [pipeline] = await api.Pipelines.all('acme/website', { ref: 'main', status: 'success' })
  expect([pipeline!.id, pipeline!.status]).toEqual([1003, 'success'])
  const jobs = await api.Jobs.all('acme/website', { pipelineId: pipeline!.id })
  expect(jobs.map((job) => [job.name, job.status])).toEqual([['rspec', 'success'], ['compile', 'success']])
}

describe('@gitbeaker/rest on merge requests and pipelines, node:http door', () => {
  const fakelab = serveDefaultScenario()
  it('lists, reads, comments on, labels and closes a merge request, and reads a pipeline and its jobs', async () => {
    await reviewAndRead(fakelab.url)
  })
})

describe('@gitbeaker/rest on merge requests and pipelines, MSW door', () => {
  const server = setupServer(...createHandlers(createSimulator({ scenario: defaultScenario() }), { baseUrl: 'https://gitlab.test' }))
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())
  it('lists, reads, comments on, labels and closes a merge request, and reads a pipeline and its jobs', async () => {
    await reviewAndRead('https://gitlab.test')
  })
})

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab on merge requests and pipelines (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()
  it('does what the gitbeaker session does', async () => {
    const output = await runPython(python!, join(import.meta.dirname, 'python_gitlab_merge_requests.py'), fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'open [(4, True), (1, False)]',
      'read Fix the login button devon feature/login',
      'note Looks good max',
      "approved True ['max']",
      "approvals True ['max']",
      'unapproved False []',
      "closed closed ['frontend', 'needs review']",
      "events ['add'] ['closed']",
      'pipeline 1003 success',
      "jobs [('rspec', 'success'), ('compile', 'success')]",
      'trace True',
    ])
  })
})
