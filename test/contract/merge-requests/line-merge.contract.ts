/**
 * The three-way merge line by line, over both doors (issue 26 item 3): a file both sides changed
 * merges when their changes do not overlap, in a merge request's merge, its `merge_status`, its
 * rebase and `merge_ref`, and in a cherry-pick and a revert, which share the merge; overlapping
 * changes, a delete against a change and binary content stay conflicts.
 * Default scenario: acme/website (20): index.html is "<!doctype html>\n<title>Acme</title>\n<h1>
 * Welcome to Acme</h1>\n" on both main and feature/login (!1); max maintains it.
 * Sources: gitaly UserMergeBranch, UserRebaseConfirmable, UserCherryPick, UserRevert (libgit2
 * `git_merge_trees`), git merge-file.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const INDEX = '<!doctype html>\n<title>Acme</title>\n<h1>Welcome to Acme</h1>\n'

/** One commit on `branch` of `actions`, as max; its id. */
async function commit(api: Api, branch: string, actions: Record<string, unknown>[], message = 'Change\n'): Promise<string> {
  const res = await api.post('/projects/20/repository/commits', { as: 'max', body: { branch, commit_message: message, actions } })
  expect(res.status).toBe(201)
  return res.body.id
}

/** index.html with `edit` applied to its lines. */
function index(edit: (lines: string[]) => void): string {
  const lines = INDEX.split('\n')
  edit(lines)
  return lines.join('\n')
}

/** A file's text on `ref`. */
async function raw(api: Api, path: string, ref: string): Promise<string> {
  const res = await api.get(`/projects/20/repository/files/${encodeURIComponent(path)}/raw`, { as: 'max', query: { ref } })
  expect(res.status).toBe(200)
  return res.text
}

const update = (content: string) => ({ action: 'update', file_path: 'index.html', content })
const ON_MAIN = index((l) => { l[0] = '<!DOCTYPE html>' })
const ON_FEATURE = index((l) => { l[2] = '<h1>Welcome to Acme Corp</h1>' })
const BOTH = '<!DOCTYPE html>\n<title>Acme</title>\n<h1>Welcome to Acme Corp</h1>\n'

contract('merge requests: a file both sides changed merges line by line', {}, ({ api }) => {
  it('merges changes to different lines: can_be_merged, merge_ref, the merge commit has both', async () => {
    await commit(api, 'main', [update(ON_MAIN)])
    await commit(api, 'feature/login', [update(ON_FEATURE)])
    const mr = (await api.get('/projects/20/merge_requests/1')).body
    expect([mr.merge_status, mr.has_conflicts]).toEqual(['can_be_merged', false])
    expect((await api.get('/projects/20/merge_requests/1/merge_ref')).status).toBe(200)
    const res = await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })
    expect(res.status).toBe(200)
    expect(await raw(api, 'index.html', 'main')).toBe(BOTH)
  })

  it('rebases a source whose change the target touched elsewhere in the file', async () => {
    await commit(api, 'main', [update(ON_MAIN)])
    await commit(api, 'feature/login', [update(ON_FEATURE)])
    expect((await api.put('/projects/20/merge_requests/1/rebase', { as: 'devon' })).status).toBe(202)
    const mr = (await api.get('/projects/20/merge_requests/1')).body
    expect(mr.merge_error).toBeNull()
    expect(await raw(api, 'index.html', 'feature/login')).toBe(BOTH)
  })

  it.each([
    ['the same line changed differently', [update(index((l) => { l[2] = '<h1>Hello</h1>' }))], [update(ON_FEATURE)]],
    ['adjacent lines changed', [update(index((l) => { l[1] = '<title>Acme Inc</title>' }))], [update(ON_FEATURE)]],
    ['a delete against a change', [{ action: 'delete', file_path: 'index.html' }], [update(ON_FEATURE)]],
    ['binary content', [{ action: 'update', file_path: 'index.html', content: Buffer.from(`\0${INDEX}`).toString('base64'), encoding: 'base64' }], [update(ON_FEATURE)]],
  ])('refuses %s: cannot_be_merged, 406', async (_name, onMain, onFeature) => {
    await commit(api, 'main', onMain)
    await commit(api, 'feature/login', onFeature)
    const mr = (await api.get('/projects/20/merge_requests/1')).body
    expect([mr.merge_status, mr.has_conflicts]).toEqual(['cannot_be_merged', true])
    await expect(await api.put('/projects/20/merge_requests/1/merge', { as: 'max' })).toBeGitLabError(406, { message: 'Branch cannot be merged' })
  })
})

contract('cherry-pick and revert: the same line-by-line merge', {}, ({ api }) => {
  it('cherry-picks a change into a branch that changed another line of the file', async () => {
    const picked = await commit(api, 'feature/login', [update(ON_FEATURE)], 'Say Corp\n')
    await commit(api, 'main', [update(ON_MAIN)])
    const res = await api.post(`/projects/20/repository/commits/${picked}/cherry_pick`, { as: 'max', body: { branch: 'main' } })
    expect(res.status).toBe(201)
    expect(await raw(api, 'index.html', 'main')).toBe(BOTH)
  })

  it('reverts a change that a later commit changed around', async () => {
    const first = await commit(api, 'main', [update(ON_MAIN)], 'Upper case doctype\n')
    await commit(api, 'main', [update(BOTH)])
    const res = await api.post(`/projects/20/repository/commits/${first}/revert`, { as: 'max', body: { branch: 'main' } })
    expect(res.status).toBe(201)
    expect(await raw(api, 'index.html', 'main')).toBe(ON_FEATURE)
  })

  it('still refuses a cherry-pick whose change overlaps one on the branch', async () => {
    const picked = await commit(api, 'feature/login', [update(ON_FEATURE)])
    await commit(api, 'main', [update(index((l) => { l[2] = '<h1>Hello</h1>' }))])
    const res = await api.post(`/projects/20/repository/commits/${picked}/cherry_pick`, { as: 'max', body: { branch: 'main' } })
    expect([res.status, res.body.error_code]).toEqual([400, 'conflict'])
  })
})
