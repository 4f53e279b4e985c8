/**
 * The repository write routes over both doors (issue 26 items 2 and 5): branches, protected
 * branches (enforced on every write), tags, commits with actions, cherry-pick, revert, the files
 * API, blame, contributors and merge base. Source: gitlabhq lib/api/branches.rb, tags.rb,
 * commits.rb, files.rb, protected_branches.rb, repositories.rb (13.x) and the services they call;
 * lib/gitlab/checks/branch_check.rb for the pre-receive refusals.
 *
 * Default scenario: acme/website (20, public): main (protected at load, Maintainers push and
 * merge), feature/login (open MR !1), fix/footer-links (merged into main); tags v0.9.0, v1.0.0;
 * every branch has the .gitlab-ci.yml, so a write to one makes a push pipeline (the next id 1008).
 * acme/platform/api (21, private) has an empty repository. gina/riley/devon/max: guest, reporter,
 * developer, maintainer of acme; nora no member; root administrator. The clock is frozen at
 * 2021-04-01T12:00:00Z. A refused write must leave the repository exactly as it was.
 */
import { expect, it } from 'vitest'
import { contract, type Api } from '../../support/contract.js'

const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const MERGE = 'bc43e0151d3ea81bc189cfd43b782e44718fcb6a'
const FOOTER = '58fd052a7a61291a0c2be09ed75bb6b44fc4acfb'
const FIX = '8b730db763773508ce3d5738b7bf066231fda835'
const LOGIN_FORM = '917b011f01ff408882f6b43c93919fcdedc1f8bb'
const LOGIN = '69feb7e89cc3965598b7884388b8f943deee5e03'
const NOW = '2021-04-01T12:00:00.000+00:00'

const PUSH_REFUSED = { message: '403 Forbidden - You are not allowed to push into this branch' }
const FORBIDDEN = { message: '403 Forbidden' }

/** Everything a write could change: every ref and the commits they reach (read as root). */
async function repositoryState(api: Api, project = 20) {
  const as = 'root'
  const [branches, tags, commits] = await Promise.all([
    api.get(`/projects/${project}/repository/branches`, { as, query: { per_page: 100 } }),
    api.get(`/projects/${project}/repository/tags`, { as, query: { per_page: 100 } }),
    api.get(`/projects/${project}/repository/commits`, { as, query: { all: true, per_page: 100 } }),
  ])
  return { branches: branches.body, tags: tags.body, commits: commits.body.map((c: { id: string }) => c.id) }
}

/** The SHA-1 git gives a blob of this text, to show it was never stored. */
async function blobId(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text)
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`)
  const all = new Uint8Array(header.length + bytes.length)
  all.set(header)
  all.set(bytes, header.length)
  const digest = await crypto.subtle.digest('SHA-1', all)
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The release commit's `Commit` entity fields that matter here. */
const PROTECTED_MAIN = {
  id: 1,
  name: 'main',
  push_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }],
  merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }],
  allow_force_push: false,
  unprotect_access_levels: [],
  code_owner_approval_required: false,
}

contract('POST /projects/:id/repository/branches', {}, ({ api }) => {
  it('creates a branch at a ref and answers the Branch entity', async () => {
    const res = await api.post('/projects/20/repository/branches', { as: 'devon', body: { branch: 'feature/search', ref: 'v1.0.0' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'feature/search', merged: false, protected: false, developers_can_push: false, developers_can_merge: false, can_push: true, default: false, web_url: `${api.baseUrl}/acme/website/-/tree/feature/search` })
    expect(res.body.commit.id).toBe(MAIN)
    expect((await api.get('/projects/20/repository/branches/feature%2Fsearch')).body.commit.id).toBe(MAIN)
  })

  it.each([
    [{ branch: 'main', ref: 'main' }, 'Branch already exists'],
    [{ branch: 'bad..name', ref: 'main' }, 'Branch name is invalid'],
    [{ branch: 'refs/heads/x', ref: 'main' }, 'Branch name is invalid'],
    [{ branch: 'new', ref: 'nope' }, 'Invalid reference name: new'],
    [{ branch: MAIN, ref: 'main' }, 'You cannot create a branch with a 40-character hexadecimal branch name.'],
  ])('refuses %j with 400 %j, changing nothing', async (body, message) => {
    const before = await repositoryState(api)
    const res = await api.post('/projects/20/repository/branches', { as: 'devon', body })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(await repositoryState(api)).toEqual(before)
  })

  it('refuses a developer a branch a protected pattern covers', async () => {
    expect((await api.post('/projects/20/protected_branches', { as: 'max', body: { name: 'release/*' } })).status).toBe(201)
    const res = await api.post('/projects/20/repository/branches', { as: 'devon', body: { branch: 'release/1.1', ref: 'main' } })
    expect([res.status, res.body]).toEqual([400, { message: 'You are not allowed to create protected branches on this project.' }])
    const maintainer = await api.post('/projects/20/repository/branches', { as: 'max', body: { branch: 'release/1.1', ref: 'main' } })
    expect([maintainer.status, maintainer.body.protected, maintainer.body.can_push]).toEqual([201, true, true])
  })

  it('gives an empty repository its README first, as Branches::CreateService does', async () => {
    const res = await api.post('/projects/21/repository/branches', { as: 'max', body: { branch: 'topic', ref: 'main' } })
    expect(res.status).toBe(201)
    expect(res.body.commit).toMatchObject({ title: 'Add README.md', parent_ids: [], author_name: 'Max Maintainer', created_at: NOW })
    const main = await api.get('/projects/21/repository/branches/main', { as: 'max' })
    expect([main.body.protected, main.body.commit.id]).toEqual([true, res.body.commit.id])
  })

  it('makes the first branch pushed to an empty repository its default branch, protected', async () => {
    const project = await api.post('/projects', { as: 'root', body: { name: 'fresh' } })
    expect([project.status, project.body.default_branch]).toEqual([201, 'master'])
    const file = await api.post(`/projects/${project.body.id}/repository/files/README`, { as: 'root', body: { branch: 'main', content: 'x', commit_message: 'Initial commit' } })
    expect(file.status).toBe(201)
    expect((await api.get(`/projects/${project.body.id}`, { as: 'root' })).body.default_branch).toBe('main')
    const main = await api.get(`/projects/${project.body.id}/repository/branches/main`, { as: 'root' })
    expect([main.body.default, main.body.protected]).toEqual([true, true])
    const next = await api.post(`/projects/${project.body.id}/repository/branches`, { as: 'root', body: { branch: 'topic', ref: 'main' } })
    expect([next.status, (await api.get(`/projects/${project.body.id}`, { as: 'root' })).body.default_branch]).toEqual([201, 'main'])
  })

  it.each([
    ['anonymous', {}, 401, { message: '401 Unauthorized' }],
    ['a reporter', { as: 'riley' }, 403, FORBIDDEN],
    ['a non-member', { as: 'nora' }, 403, FORBIDDEN],
  ])('%s: %j → %s', async (_who, options, status, body) => {
    const res = await api.post('/projects/20/repository/branches', { ...options, body: { branch: 'x', ref: 'main' } })
    expect([res.status, res.body]).toEqual([status, body])
  })
})

contract('DELETE /projects/:id/repository/branches/:branch', {}, ({ api }) => {
  it('deletes a branch: 204, then 404', async () => {
    expect((await api.delete('/projects/20/repository/branches/feature%2Flogin', { as: 'devon' })).status).toBe(204)
    const res = await api.get('/projects/20/repository/branches/feature%2Flogin')
    expect([res.status, res.body]).toEqual([404, { message: '404 Branch Not Found' }])
  })

  it.each([
    ['the default branch, by a maintainer', 'main', 'max', 'The default branch of a project cannot be deleted.'],
    ['a protected branch, by a developer', 'fix%2Ffooter-links', 'devon', 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.'],
  ])('refuses %s with 400', async (_what, branch, as, message) => {
    await api.post('/projects/20/protected_branches', { as: 'max', body: { name: 'fix/*', push_access_level: 30 } })
    const before = await repositoryState(api)
    const res = await api.delete(`/projects/20/repository/branches/${branch}`, { as })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(await repositoryState(api)).toEqual(before)
  })

  it('lets a maintainer delete a protected branch that is not the default', async () => {
    await api.post('/projects/20/protected_branches', { as: 'max', body: { name: 'fix/*' } })
    expect((await api.delete('/projects/20/repository/branches/fix%2Ffooter-links', { as: 'max' })).status).toBe(204)
  })

  it.each([
    ['nope', 404, { message: '404 Branch Not Found' }],
    ['bad..name', 400, { message: 'The branch refname is invalid' }],
  ])('answers %j with %i', async (branch, status, body) => {
    const res = await api.delete(`/projects/20/repository/branches/${branch}`, { as: 'devon' })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('refuses a reporter with 403', async () => {
    const res = await api.delete('/projects/20/repository/branches/feature%2Flogin', { as: 'riley' })
    expect([res.status, res.body]).toEqual([403, FORBIDDEN])
  })
})

contract('DELETE /projects/:id/repository/merged_branches', {}, ({ api }) => {
  it('accepts, and deletes the merged branches no open merge request uses', async () => {
    const res = await api.delete('/projects/20/repository/merged_branches', { as: 'devon' })
    expect([res.status, res.body]).toEqual([202, { message: '202 Accepted' }])
    const names = (await api.get('/projects/20/repository/branches')).body.map((b: { name: string }) => b.name)
    expect(names).toEqual(['feature/login', 'main', 'release/prep'])
  })

  it('accepts a reporter and deletes nothing (the worker refuses them)', async () => {
    const before = await repositoryState(api)
    expect((await api.delete('/projects/20/repository/merged_branches', { as: 'riley' })).status).toBe(202)
    expect(await repositoryState(api)).toEqual(before)
  })
})

contract('GET /projects/:id/protected_branches', {}, ({ api }) => {
  it('lists the default branch, protected when the scenario loaded', async () => {
    const res = await api.get('/projects/20/protected_branches', { as: 'max' })
    expect([res.status, res.body]).toEqual([200, [PROTECTED_MAIN]])
  })

  it.each([
    ['anonymous', {}, 403],
    ['a developer', { as: 'devon' }, 403],
    ['a non-member of a private project', { as: 'nora', project: 21 }, 404],
  ])('%s → %s', async (_who, options, status) => {
    const { project = 20, ...rest } = options as { project?: number; as?: string }
    expect((await api.get(`/projects/${project}/protected_branches`, rest)).status).toBe(status)
  })
})

contract('POST /projects/:id/protected_branches', {}, ({ api }) => {
  it('protects a wildcard with the levels given, then finds it by name', async () => {
    const res = await api.post('/projects/20/protected_branches', {
      as: 'max',
      body: { name: 'release/*', push_access_level: 30, merge_access_level: 0, unprotect_access_level: 40, allow_force_push: true, code_owner_approval_required: true },
    })
    const expected = {
      id: 3,
      name: 'release/*',
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers', user_id: null, group_id: null }],
      merge_access_levels: [{ access_level: 0, access_level_description: 'No one', user_id: null, group_id: null }],
      allow_force_push: true,
      unprotect_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }],
      code_owner_approval_required: true,
    }
    expect([res.status, { ...res.body, id: 3 }]).toEqual([201, expected])
    const found = await api.get('/projects/20/protected_branches/release%2F*', { as: 'max' })
    expect([found.status, found.body]).toEqual([200, { ...expected, id: res.body.id }])
  })

  it('protects with Maintainers by default and an allowed user', async () => {
    const devon = (await api.get('/users', { as: 'root', query: { username: 'devon' } })).body[0]
    const res = await api.post('/projects/20/protected_branches', { as: 'max', body: { name: 'hotfix', allowed_to_push: [{ user_id: devon.id }] } })
    expect(res.status).toBe(201)
    expect(res.body.push_access_levels).toEqual([{ access_level: null, access_level_description: 'Devon Developer', user_id: devon.id, group_id: null }])
    expect(res.body.merge_access_levels).toEqual([{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }])
  })

  it.each([
    [{ name: 'main' }, 409, { message: "Protected branch 'main' already exists" }],
    [{ name: 'x', push_access_level: 20 }, 400, { error: 'push_access_level does not have a valid value' }],
    [{}, 400, { error: 'name is missing' }],
  ])('answers %j with %i', async (body, status, error) => {
    const res = await api.post('/projects/20/protected_branches', { as: 'max', body })
    expect([res.status, res.body]).toEqual([status, error])
  })

  it('refuses a developer with 403', async () => {
    const res = await api.post('/projects/20/protected_branches', { as: 'devon', body: { name: 'x' } })
    expect([res.status, res.body]).toEqual([403, FORBIDDEN])
  })

  it('enforces push levels on commits: Developers + Maintainers let a developer push', async () => {
    const body = { branch: 'main', commit_message: 'Docs\n', actions: [{ action: 'create', file_path: 'docs.md', content: 'docs\n' }] }
    expect((await api.post('/projects/20/repository/commits', { as: 'devon', body })).body).toEqual(PUSH_REFUSED)
    expect((await api.delete('/projects/20/protected_branches/main', { as: 'max' })).status).toBe(204)
    expect((await api.post('/projects/20/protected_branches', { as: 'max', body: { name: 'ma*', push_access_level: 30 } })).status).toBe(201)
    expect((await api.post('/projects/20/repository/commits', { as: 'devon', body })).status).toBe(201)
  })
})

contract('GET /projects/:id/protected_branches/:name', {}, ({ api }) => {
  it('answers 404 Not found for an unknown name', async () => {
    const res = await api.get('/projects/20/protected_branches/nope', { as: 'max' })
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
  })
})

contract('DELETE /projects/:id/protected_branches/:name', {}, ({ api }) => {
  it('unprotects: the branch is no longer protected', async () => {
    expect((await api.delete('/projects/20/protected_branches/main', { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/20/repository/branches/main', { as: 'devon' })).body).toMatchObject({ protected: false, can_push: true })
  })

  it('refuses a maintainer an unprotect level of No one', async () => {
    await api.post('/projects/20/protected_branches', { as: 'max', body: { name: 'locked', unprotect_access_level: 0 } })
    expect((await api.delete('/projects/20/protected_branches/locked', { as: 'max' })).status).toBe(403)
  })

  it('has no PATCH in 13.x', async () => {
    const res = await api.request('PATCH', '/projects/20/protected_branches/main', { as: 'max', body: { allow_force_push: true } })
    expect([res.status, res.body]).toEqual([404, { error: '404 Not Found' }])
  })
})

contract('PUT /projects/:id/repository/branches/:branch/protect', {}, ({ api }) => {
  it('protects with the legacy flags, and unprotect removes it', async () => {
    const res = await api.put('/projects/20/repository/branches/feature%2Flogin/protect', { as: 'max', body: { developers_can_push: true } })
    expect([res.status, res.body.protected, res.body.developers_can_push, res.body.developers_can_merge]).toEqual([200, true, true, false])
    const off = await api.put('/projects/20/repository/branches/feature%2Flogin/unprotect', { as: 'max' })
    expect([off.status, off.body.protected]).toEqual([200, false])
  })
})

contract('POST /projects/:id/repository/commits', {}, ({ api }) => {
  const actions = [
    { action: 'create', file_path: 'docs/guide.md', content: '# Guide\n' },
    { action: 'update', file_path: 'login.html', content: 'PGZvcm0+PC9mb3JtPgo=', encoding: 'base64' },
    { action: 'move', file_path: 'js/signin.js', previous_path: 'js/login.js' },
    { action: 'delete', file_path: 'index.html' },
    { action: 'chmod', file_path: 'docs/guide.md', execute_filemode: true },
  ]

  it('makes ONE commit of every action and answers CommitDetail', async () => {
    const res = await api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'feature/login', commit_message: 'Rework\n', actions } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      parent_ids: [LOGIN], title: 'Rework', message: 'Rework\n', author_name: 'Devon Developer', author_email: 'devon@example.com',
      authored_date: NOW, committer_name: 'Devon Developer', committed_date: NOW, created_at: NOW,
      stats: { additions: 2, deletions: 7, total: 9 }, project_id: 20,
    })
    // The commit's push pipeline (Git::BranchPushService; fakelab makes it in the request, GitLab in Sidekiq).
    expect([res.body.status, res.body.last_pipeline]).toEqual(['pending', {
      id: 1008, project_id: 20, sha: res.body.id, ref: 'feature/login', status: 'pending', created_at: '2021-04-01T12:00:00.000Z',
      updated_at: '2021-04-01T12:00:00.000Z', web_url: `${api.baseUrl}/acme/website/-/pipelines/1008`,
    }])
    const tree = await api.get('/projects/20/repository/tree', { query: { ref: 'feature/login', recursive: true } })
    expect(tree.body.map((e: { path: string; mode: string }) => `${e.mode} ${e.path}`)).toEqual([
      '040000 css', '040000 docs', '040000 js', '100644 .gitlab-ci.yml', '100644 README.md', '100644 css/site.css', '100755 docs/guide.md',
      '100644 footer.html', '100644 js/signin.js', '100644 login.html',
    ])
    const raw = await api.get('/projects/20/repository/files/login.html/raw', { query: { ref: 'feature/login' } })
    expect(raw.text).toBe('<form></form>\n')
    expect((await api.get('/projects/20/repository/branches/feature%2Flogin')).body.commit.id).toBe(res.body.id)
  })

  it('starts a new branch from start_branch, with the author given', async () => {
    const res = await api.post('/projects/20/repository/commits', {
      as: 'devon',
      body: { branch: 'docs', start_branch: 'main', commit_message: 'Docs\n', author_name: 'Ann Writer', author_email: 'ann@example.com', actions: [actions[0]] },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ parent_ids: [MAIN], author_name: 'Ann Writer', author_email: 'ann@example.com', committer_name: 'Devon Developer' })
  })

  it('commits to an empty repository, which protects its default branch', async () => {
    const res = await api.post('/projects/21/repository/commits', { as: 'max', body: { branch: 'main', commit_message: 'Init\n', actions: [actions[0]] } })
    expect([res.status, res.body.parent_ids]).toEqual([201, []])
    expect((await api.get('/projects/21/protected_branches', { as: 'max' })).body.map((b: { name: string }) => b.name)).toEqual(['main'])
  })

  it.each([
    [{ actions: [{ action: 'create', file_path: 'README.md', content: 'x' }] }, 'A file with this name already exists'],
    [{ actions: [{ action: 'update', file_path: 'nope.md', content: 'x' }] }, "A file with this name doesn't exist"],
    [{ actions: [{ action: 'delete', file_path: 'nope.md' }] }, "A file with this name doesn't exist"],
    [{ actions: [{ action: 'create', file_path: 'x.md', content: 'x' }, { action: 'create', file_path: 'x.md', content: 'y' }] }, 'A file with this name already exists'],
    [{ actions: [{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: MAIN }] }, 'The file has changed since you started editing it: README.md'],
    [{ start_branch: 'nope', branch: 'new', actions: [{ action: 'create', file_path: 'x.md', content: 'x' }] }, 'You can only create or edit files when you are on a branch'],
    [{ branch: 'nope', actions: [{ action: 'create', file_path: 'x.md', content: 'x' }] }, 'You can only create or edit files when you are on a branch'],
    [{ start_branch: 'main', actions: [{ action: 'create', file_path: 'x.md', content: 'x' }] }, "A branch called 'feature/login' already exists. Switch to that branch in order to make changes"],
    [{ start_branch: 'main', branch: 'bad..name', actions: [{ action: 'create', file_path: 'x.md', content: 'x' }] }, "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"],
  ])('refuses %j with 400 %j, storing nothing', async (body, message) => {
    const before = await repositoryState(api)
    const res = await api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'feature/login', commit_message: 'No\n', ...body } })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(await repositoryState(api)).toEqual(before)
    const blob = await api.get(`/projects/20/repository/blobs/${await blobId('x')}`)
    expect(blob.status).toBe(404)
  })

  it.each([
    [{ actions: undefined }, 'actions is missing'],
    [{ actions: [{ action: 'copy', file_path: 'a' }] }, 'actions[0][action] does not have a valid value'],
    [{ actions: [{ action: 'create' }] }, 'actions[0][file_path] is missing'],
    [{ actions: [{ action: 'move', file_path: 'a' }] }, 'actions[0][previous_path] is missing'],
    [{ actions: [{ action: 'chmod', file_path: 'a' }] }, 'actions[0][execute_filemode] is missing'],
    [{ start_branch: 'main', start_sha: MAIN, actions: [] }, 'start_branch, start_sha are mutually exclusive'],
  ])('validates %j: 400 %j', async (body, error) => {
    const res = await api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'feature/login', commit_message: 'No\n', ...body } })
    expect([res.status, res.body]).toEqual([400, { error }])
  })

  it.each([
    ['a developer, to the protected main', 'devon', 'main', 403, PUSH_REFUSED],
    ['a reporter', 'riley', 'feature/login', 403, PUSH_REFUSED],
    ['a maintainer, to main', 'max', 'main', 201, null],
  ])('%s → %s', async (_who, as, branch, status, body) => {
    const res = await api.post('/projects/20/repository/commits', { as, body: { branch, commit_message: 'Hi\n', actions: [{ action: 'create', file_path: 'hi.md', content: 'hi\n' }] } })
    expect(res.status).toBe(status)
    if (body) expect(res.body).toEqual(body)
  })
})

contract('POST /projects/:id/repository/commits/:sha/cherry_pick', {}, ({ api }) => {
  it('picks a commit onto a branch, keeping its author', async () => {
    const res = await api.post(`/projects/20/repository/commits/${LOGIN}/cherry_pick`, { as: 'max', body: { branch: 'main' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      parent_ids: [MAIN],
      message: `Fix the login button\n\nThe handler was never bound.\n\n\n(cherry picked from commit ${LOGIN})`,
      author_name: 'Devon Developer', committer_name: 'Max Maintainer', committed_date: NOW,
    })
    expect((await api.get('/projects/20/repository/files/js%2Flogin.js', { query: { ref: 'main' } })).status).toBe(200)
  })

  it('answers a dry run without writing', async () => {
    const before = await repositoryState(api)
    const res = await api.post(`/projects/20/repository/commits/${LOGIN}/cherry_pick`, { as: 'max', body: { branch: 'main', dry_run: true } })
    expect([res.status, res.body]).toEqual([200, { dry_run: 'success' }])
    expect(await repositoryState(api)).toEqual(before)
  })

  it('refuses a commit already on the branch as empty', async () => {
    const res = await api.post(`/projects/20/repository/commits/${LOGIN_FORM}/cherry_pick`, { as: 'devon', body: { branch: 'feature/login' } })
    expect([res.status, res.body]).toEqual([400, {
      message: 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
      error_code: 'empty',
    }])
  })

  it('refuses a change the branch has since changed again as a conflict', async () => {
    const res = await api.post(`/projects/20/repository/commits/${FOOTER}/cherry_pick`, { as: 'max', body: { branch: 'main' } })
    expect([res.status, res.body.error_code]).toEqual([400, 'conflict'])
  })

  it.each([
    ['a developer onto protected main', 'devon', LOGIN, 'main', 403, PUSH_REFUSED],
    ['an unknown commit', 'max', 'nope', 'main', 404, { message: '404 Commit Not Found' }],
    ['an unknown branch', 'max', LOGIN, 'nope', 404, { message: '404 Branch Not Found' }],
  ])('%s → %s', async (_what, as, sha, branch, status, body) => {
    const res = await api.post(`/projects/20/repository/commits/${sha}/cherry_pick`, { as, body: { branch } })
    expect([res.status, res.body]).toEqual([status, body])
  })
})

contract('POST /projects/:id/repository/commits/:sha/revert', {}, ({ api }) => {
  it('reverts a commit, then refuses to revert it again', async () => {
    const res = await api.post(`/projects/20/repository/commits/${MAIN}/revert`, { as: 'max', body: { branch: 'main' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ parent_ids: [MAIN], message: `Revert "Release 1.0"\n\nThis reverts commit ${MAIN}`, author_name: 'Max Maintainer' })
    expect((await api.get('/projects/20/repository/files/CHANGELOG.md', { query: { ref: 'main' } })).status).toBe(404)
    const again = await api.post(`/projects/20/repository/commits/${MAIN}/revert`, { as: 'max', body: { branch: 'main', dry_run: true } })
    expect([again.status, again.body]).toEqual([400, {
      message: 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.',
      error_code: 'empty',
      dry_run: 'error',
    }])
  })
})

contract('POST /projects/:id/repository/tags', {}, ({ api }) => {
  it('makes a lightweight tag', async () => {
    const res = await api.post('/projects/20/repository/tags', { as: 'devon', body: { tag_name: 'v1.1.0', ref: 'main' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'v1.1.0', message: '', target: MAIN, release: null, protected: false })
    expect(res.body.commit.id).toBe(MAIN)
  })

  it('makes an annotated tag when given a message', async () => {
    const res = await api.post('/projects/20/repository/tags', { as: 'devon', body: { tag_name: 'v1.1.0', ref: LOGIN_FORM, message: '  Version 1.1.0  ' } })
    expect(res.status).toBe(201)
    expect(res.body.message).toBe('Version 1.1.0')
    expect(res.body.target).toMatch(/^[0-9a-f]{40}$/)
    expect(res.body.target).not.toBe(LOGIN_FORM)
    expect(res.body.commit.id).toBe(LOGIN_FORM)
    expect((await api.get('/projects/20/repository/tags/v1.1.0')).body.target).toBe(res.body.target)
  })

  it.each([
    [{ tag_name: 'v1.0.0', ref: 'main' }, 'Tag v1.0.0 already exists'],
    [{ tag_name: 'v2', ref: 'nope' }, 'Target nope is invalid'],
    [{ tag_name: 'bad..tag', ref: 'main' }, 'Tag name invalid'],
  ])('refuses %j with 400 %j', async (body, message) => {
    const before = await repositoryState(api)
    const res = await api.post('/projects/20/repository/tags', { as: 'devon', body })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(await repositoryState(api)).toEqual(before)
  })

  it('refuses a reporter with 403', async () => {
    const res = await api.post('/projects/20/repository/tags', { as: 'riley', body: { tag_name: 'v2', ref: 'main' } })
    expect([res.status, res.body]).toEqual([403, FORBIDDEN])
  })
})

contract('DELETE /projects/:id/repository/tags/:tag_name', {}, ({ api }) => {
  it('deletes a tag, then answers 404 for it', async () => {
    expect((await api.delete('/projects/20/repository/tags/v0.9.0', { as: 'devon' })).status).toBe(204)
    const res = await api.delete('/projects/20/repository/tags/v0.9.0', { as: 'devon' })
    expect([res.status, res.body]).toEqual([404, { message: '404 Tag Not Found' }])
  })
})

contract('POST /projects/:id/repository/files/:file_path', {}, ({ api }) => {
  it('creates a file in one commit and answers its path and branch', async () => {
    const res = await api.post('/projects/20/repository/files/docs%2Fnew.md', { as: 'devon', body: { branch: 'feature/login', commit_message: 'Add docs', content: 'IyBOZXcK', encoding: 'base64' } })
    expect([res.status, res.body]).toEqual([201, { file_path: 'docs/new.md', branch: 'feature/login' }])
    const file = await api.get('/projects/20/repository/files/docs%2Fnew.md', { query: { ref: 'feature/login' } })
    expect(file.body).toMatchObject({ file_name: 'new.md', content: 'IyBOZXcK', size: 6 })
    expect(file.headers.get('x-gitlab-last-commit-id')).toBe(file.body.commit_id)
  })

  it.each([
    ['an existing file', 'README.md', 'feature/login', 'devon', 400, { message: 'A file with this name already exists' }],
    ['the protected main, by a developer', 'new.md', 'main', 'devon', 400, { message: 'You are not allowed to push into this branch' }],
    ['a reporter', 'new.md', 'feature/login', 'riley', 403, FORBIDDEN],
  ])('refuses %s', async (_what, path, branch, as, status, body) => {
    const before = await repositoryState(api)
    const res = await api.post(`/projects/20/repository/files/${path}`, { as, body: { branch, commit_message: 'x', content: 'x' } })
    expect([res.status, res.body]).toEqual([status, body])
    expect(await repositoryState(api)).toEqual(before)
  })

  it('accepts only base64 as an encoding', async () => {
    const res = await api.post('/projects/20/repository/files/a.md', { as: 'devon', body: { branch: 'feature/login', commit_message: 'x', content: 'x', encoding: 'text' } })
    expect([res.status, res.body]).toEqual([400, { error: 'encoding does not have a valid value' }])
  })
})

contract('PUT /projects/:id/repository/files/:file_path', {}, ({ api }) => {
  it('updates a file when last_commit_id is its last commit, and refuses a stale one', async () => {
    const ok = await api.put('/projects/20/repository/files/footer.html', { as: 'devon', body: { branch: 'feature/login', commit_message: 'Footer', content: '<footer/>\n', last_commit_id: FIX } })
    expect([ok.status, ok.body]).toEqual([200, { file_path: 'footer.html', branch: 'feature/login' }])
    const stale = await api.put('/projects/20/repository/files/footer.html', { as: 'devon', body: { branch: 'feature/login', commit_message: 'Footer', content: 'x', last_commit_id: FIX } })
    expect([stale.status, stale.body]).toEqual([400, { message: 'You are attempting to update a file that has changed since you started editing it.' }])
  })

  it('refuses a missing file', async () => {
    const res = await api.put('/projects/20/repository/files/nope.md', { as: 'devon', body: { branch: 'feature/login', commit_message: 'x', content: 'x' } })
    expect([res.status, res.body]).toEqual([400, { message: "A file with this name doesn't exist" }])
  })
})

contract('DELETE /projects/:id/repository/files/:file_path', {}, ({ api }) => {
  it('deletes a file: 204, then 404 at the branch', async () => {
    expect((await api.delete('/projects/20/repository/files/login.html', { as: 'devon', body: { branch: 'feature/login', commit_message: 'Drop' } })).status).toBe(204)
    const res = await api.get('/projects/20/repository/files/login.html', { query: { ref: 'feature/login' } })
    expect([res.status, res.body]).toEqual([404, { message: '404 File Not Found' }])
  })
})

contract('GET /projects/:id/repository/files/:file_path/blame', {}, ({ api }) => {
  it('groups lines by the commit that last changed them, through the merge', async () => {
    const res = await api.get('/projects/20/repository/files/footer.html/blame', { query: { ref: 'main' } })
    expect(res.status).toBe(200)
    expect(res.body.map((g: { commit: { id: string }; lines: string[] }) => [g.commit.id, g.lines])).toEqual([
      [FOOTER, ['<footer>', '  <a href="/about">About</a>']],
      [FIX, ['  <a href="/support">Contact</a>']],
      [FOOTER, ['</footer>']],
    ])
    expect(res.headers.get('x-gitlab-file-path')).toBe('footer.html')
  })
})

contract('GET /projects/:id/repository/contributors', {}, ({ api }) => {
  it('counts the default branch\'s commits but merges, by author e-mail', async () => {
    const res = await api.get('/projects/20/repository/contributors')
    expect([res.status, res.body]).toEqual([200, [{ name: 'Max Maintainer', email: 'max@example.com', commits: 5, additions: 0, deletions: 0 }]])
  })
})

contract('GET /projects/:id/repository/merge_base', {}, ({ api }) => {
  it('answers the best common ancestor as a Commit', async () => {
    const res = await api.get('/projects/20/repository/merge_base', { query: { 'refs[]': ['main', 'feature/login'] } })
    expect([res.status, res.body.id]).toEqual([200, MERGE])
  })

  it.each([
    [['main'], 'Provide at least 2 refs'],
    [['main', 'nope'], 'Could not find ref: nope'],
    [['x', 'nope'], 'Could not find refs: x, nope'],
  ])('refuses %j with 400 %j', async (refs, message) => {
    const res = await api.get('/projects/20/repository/merge_base', { query: { 'refs[]': refs } })
    expect([res.status, res.body]).toEqual([400, { message }])
  })
})

/** The entry names of a tar stream, with their type flags. */
function tarEntries(bytes: Uint8Array): string[] {
  const names: string[] = []
  const text = (from: number, length: number) => new TextDecoder().decode(bytes.subarray(from, from + length)).replace(/\0.*$/s, '')
  for (let at = 0; at + 512 <= bytes.length;) {
    const name = text(at, 100)
    if (name === '') break
    const size = parseInt(text(at + 124, 12), 8)
    names.push(`${text(at + 156, 1)} ${name}`)
    at += 512 + Math.ceil(size / 512) * 512
  }
  return names
}

contract('GET /projects/:id/repository/archive', {}, ({ api }) => {
  const prefix = `website-main-${MAIN}`

  it('answers git archive\'s tar.gz of the default branch, named after project, ref and commit', async () => {
    const res = await api.get('/projects/20/repository/archive')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.tar.gz"`)
    const { gunzipSync } = await import('fflate')
    expect(tarEntries(gunzipSync(res.bytes))).toEqual([
      'g pax_global_header', `5 ${prefix}/`, `0 ${prefix}/.gitlab-ci.yml`, `0 ${prefix}/CHANGELOG.md`, `0 ${prefix}/README.md`, `5 ${prefix}/css/`,
      `0 ${prefix}/css/site.css`, `0 ${prefix}/footer.html`, `0 ${prefix}/index.html`,
    ])
  })

  it('is the same bytes every time', async () => {
    const a = await api.get('/projects/20/repository/archive.tar.gz', { query: { sha: 'v1.0.0' } })
    const b = await api.get('/projects/20/repository/archive.tar.gz', { query: { sha: 'v1.0.0' } })
    expect(a.headers.get('content-disposition')).toBe(`attachment; filename="website-v1.0.0-${MAIN}.tar.gz"`)
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true)
  })

  it('answers a zip, and a path below the root', async () => {
    const res = await api.get('/projects/20/repository/archive.zip', { query: { sha: 'feature/login', path: 'css' } })
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-feature-login-${LOGIN}-css.zip"`)
    const { unzipSync } = await import('fflate')
    expect(Object.keys(unzipSync(res.bytes))).toEqual([`website-feature-login-${LOGIN}-css/`, `website-feature-login-${LOGIN}-css/css/`, `website-feature-login-${LOGIN}-css/css/site.css`])
  })

  it.each(['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'])('answers a bzip2 stream of the tar for .%s, named .tar.bz2', async (format) => {
    const res = await api.get(`/projects/20/repository/archive.${format}`)
    expect([res.status, res.headers.get('content-disposition')]).toEqual([200, `attachment; filename="${prefix}.tar.bz2"`])
    expect(new TextDecoder().decode(res.bytes.subarray(0, 4))).toBe('BZh9')
    const query = await api.get('/projects/20/repository/archive', { query: { format } })
    expect(Buffer.from(query.bytes).equals(Buffer.from(res.bytes))).toBe(true)
  })

  it.each(['tgz', 'gz'])('answers the tar.gz for .%s', async (format) => {
    const res = await api.get(`/projects/20/repository/archive.${format}`)
    const gz = await api.get('/projects/20/repository/archive.tar.gz')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.tar.gz"`)
    expect(Buffer.from(res.bytes).equals(Buffer.from(gz.bytes))).toBe(true)
  })

  it('answers 404 File Not Found for an unknown ref', async () => {
    const res = await api.get('/projects/20/repository/archive.tar', { query: { sha: 'nope' } })
    expect([res.status, res.body]).toEqual([404, { message: '404 File Not Found' }])
  })
})

/** The files of a tar by name (regular files only), their bytes. */
function tarFiles(bytes: Uint8Array): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const text = (from: number, length: number) => new TextDecoder().decode(bytes.subarray(from, from + length)).replace(/\0.*$/s, '')
  for (let at = 0; at + 512 <= bytes.length;) {
    const name = text(at, 100)
    if (name === '') break
    const size = parseInt(text(at + 124, 12), 8)
    if (text(at + 156, 1) === '0') files.set(name, bytes.subarray(at + 512, at + 512 + size))
    at += 512 + Math.ceil(size / 512) * 512
  }
  return files
}

contract('GET /projects/:id/snapshot', {}, ({ api }) => {
  it('answers an administrator the git directory as snapshot.tar: HEAD, refs, every object loose', async () => {
    const res = await api.get('/projects/20/snapshot', { as: 'root' })
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-disposition')]).toEqual([200, 'application/x-tar', 'attachment; filename="snapshot.tar"'])
    const files = tarFiles(res.bytes)
    const text = (name: string) => new TextDecoder().decode(files.get(name))
    expect(text('HEAD')).toBe('ref: refs/heads/main\n')
    expect(text('refs/heads/main')).toBe(`${MAIN}\n`)
    expect(text('refs/heads/feature/login')).toBe(`${LOGIN}\n`)
    expect([...files.keys()].filter((name) => name.startsWith('refs/tags/'))).toEqual(['refs/tags/v0.9.0', 'refs/tags/v1.0.0'])
    // Each loose object inflates to git's encoding, whose SHA-1 is its name.
    const { unzlibSync } = await import('fflate')
    const { sha1 } = await import('@noble/hashes/legacy.js')
    const { bytesToHex } = await import('@noble/hashes/utils.js')
    const objects = [...files].filter(([name]) => name.startsWith('objects/'))
    expect(objects.length).toBeGreaterThan(10)
    for (const [name, data] of objects) expect(name).toBe(`objects/${bytesToHex(sha1(unzlibSync(data))).replace(/^(..)/, '$1/')}`)
    const commit = new TextDecoder().decode(unzlibSync(files.get(`objects/${MAIN.slice(0, 2)}/${MAIN.slice(2)}`)!))
    expect(commit).toMatch(/^commit \d+\0tree [0-9a-f]{40}\n/)
    expect(Buffer.from((await api.get('/projects/20/snapshot', { as: 'root' })).bytes).equals(Buffer.from(res.bytes))).toBe(true)
  })

  it.each([
    ['anonymous', {}, 401, { message: '401 Unauthorized' }],
    ['a maintainer', { as: 'max' }, 403, FORBIDDEN],
  ])('%s: → %s', async (_who, options, status, body) => {
    const res = await api.get('/projects/20/snapshot', options)
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('answers 404 Project Not Found for an unknown project, and an empty repository its HEAD alone', async () => {
    const missing = await api.get('/projects/999/snapshot', { as: 'root' })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Project Not Found' }])
    const empty = await api.get('/projects/21/snapshot', { as: 'root' })
    expect([...tarFiles(empty.bytes).keys()]).toEqual(['HEAD'])
  })
})

contract('GET /projects/:id/repository/commits/:sha/merge_requests', {}, ({ api }) => {
  it.each([
    ['a commit of an open merge request', LOGIN, [1]],
    ['a ref naming it', 'feature/login', [1]],
    ['the merge base (in none)', FOOTER, []],
  ])('%s: %s → iids %j', async (_what, sha, iids) => {
    const res = await api.get(`/projects/20/repository/commits/${encodeURIComponent(sha)}/merge_requests`)
    expect(res.status).toBe(200)
    expect(res.body.map((mr: { iid: number }) => mr.iid)).toEqual(iids)
  })

  it('presents MergeRequestBasic, newest first, and a new merge request of the commit', async () => {
    expect((await api.post('/projects/20/repository/branches', { as: 'devon', body: { branch: 'again', ref: 'feature/login' } })).status).toBe(201)
    expect((await api.post('/projects/20/repository/commits', { as: 'devon', body: { branch: 'again', commit_message: 'More', actions: [{ action: 'create', file_path: 'more.txt', content: 'x' }] } })).status).toBe(201)
    expect((await api.post('/projects/20/merge_requests', { as: 'devon', body: { source_branch: 'again', target_branch: 'main', title: 'Again' } })).status).toBe(201)
    const res = await api.get(`/projects/20/repository/commits/${LOGIN}/merge_requests`)
    expect(res.body.map((mr: { iid: number }) => mr.iid)).toEqual([5, 1])
    expect(res.body[1]).toMatchObject({ id: 500, iid: 1, project_id: 20, title: 'Fix the login button', source_branch: 'feature/login', sha: LOGIN })
  })

  it('answers 404 Commit Not Found for an unknown sha', async () => {
    const res = await api.get('/projects/20/repository/commits/nope/merge_requests')
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })
})
