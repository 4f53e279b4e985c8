/**
 * The repository read routes over both doors (issue 26 items 1-2). Source: gitlabhq lib/api/branches.rb,
 * tags.rb, commits.rb, repositories.rb, files.rb (13.x) and their request specs.
 *
 * Default scenario: acme/website (20, public) has main (initial → footer → "Add the CI configuration"
 * (.gitlab-ci.yml) → merge of fix/footer-links → "Release 1.0"), feature/login (two commits off the
 * merge, open MR !1), fix/footer-links (merged),
 * tags v0.9.0 (lightweight, at "Add the footer") and v1.0.0 (annotated, at main). ivy/tracker (30)
 * has main, rework-report (merged), fix/crash-on-save and the annotated tag v0.1.0. acme/platform/api
 * (21, private) has an empty repository. gina/riley/devon are guest/reporter/developer through acme,
 * max maintains it, nora is no member, root is an administrator. SHAs are pinned: they follow from
 * the scenario alone (the git unit test proves the encoding).
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type RequestOptions } from '../../support/contract.js'

const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const MERGE = 'bc43e0151d3ea81bc189cfd43b782e44718fcb6a'
const FOOTER = '58fd052a7a61291a0c2be09ed75bb6b44fc4acfb'
const FIX = '8b730db763773508ce3d5738b7bf066231fda835'
const CI = '5d1e37155c9c77cf3ebb77de7feebcca4babcb88'
const LOGIN_FORM = '917b011f01ff408882f6b43c93919fcdedc1f8bb'
const LOGIN = '69feb7e89cc3965598b7884388b8f943deee5e03'
const V1_TAG = '655eb121db0eb02f443ec5c08165f98c380c04b9'
const FOOTER_BLOB = '9592db4008c5a60c6f75326db5cb4c27ec035610'

const COMMIT_FIELDS = ['id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date', 'committer_name', 'committer_email', 'committed_date', 'trailers', 'web_url']
const BRANCH_FIELDS = ['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url']

/** The `Commit` entity of the website's "Release 1.0" commit. */
function releaseCommit(baseUrl: string) {
  return {
    id: MAIN,
    short_id: MAIN.slice(0, 8),
    created_at: '2021-03-20T10:00:00.000+00:00',
    parent_ids: [MERGE],
    title: 'Release 1.0',
    message: 'Release 1.0\n',
    author_name: 'Max Maintainer',
    author_email: 'max@example.com',
    authored_date: '2021-03-20T10:00:00.000+00:00',
    committer_name: 'Max Maintainer',
    committer_email: 'max@example.com',
    committed_date: '2021-03-20T10:00:00.000+00:00',
    trailers: {},
    web_url: `${baseUrl}/acme/website/-/commit/${MAIN}`,
  }
}

const FORBIDDEN = { message: '403 Forbidden' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }

/** Who may read code: [who, project, status, options, error body or null]. */
const READERS: [string, number, number, RequestOptions, unknown][] = [
  ['anonymous, public project', 20, 200, {}, null],
  ['anonymous, private project', 21, 404, {}, PROJECT_NOT_FOUND],
  ['a guest of a private project', 21, 403, { as: 'gina' }, FORBIDDEN],
  ['a reporter of a private project', 21, 200, { as: 'riley' }, null],
  ['a non-member of a private project', 21, 404, { as: 'nora' }, PROJECT_NOT_FOUND],
  ['a non-member of an internal project', 23, 200, { as: 'nora' }, null],
  ['an administrator who is no member', 24, 200, { as: 'root' }, null],
  ['a guest via sudo', 21, 403, { as: 'root', headers: { sudo: 'gina' } }, FORBIDDEN],
]

contract('GET /projects/:id/repository/branches', {}, ({ api }) => {
  it('lists branches by name with GitLab\'s Branch entity', async () => {
    const res = await api.get('/projects/20/repository/branches', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body.map((b: { name: string }) => b.name)).toEqual(['feature/login', 'fix/footer-links', 'main', 'release/prep'])
    expect(Object.keys(res.body[2])).toEqual(BRANCH_FIELDS)
    expect(res.body[2]).toEqual({
      name: 'main',
      commit: releaseCommit(api.baseUrl),
      merged: false,
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
      default: true,
      web_url: `${api.baseUrl}/acme/website/-/tree/main`,
    })
    expect(Object.keys(res.body[0].commit)).toEqual(COMMIT_FIELDS)
  })

  it('marks a branch merged into the default branch, and lets a developer push to unprotected ones', async () => {
    const res = await api.get('/projects/20/repository/branches', { as: 'devon' })
    const facts = res.body.map((b: { name: string; merged: boolean; can_push: boolean }) => [b.name, b.merged, b.can_push])
    expect(facts).toEqual([['feature/login', false, true], ['fix/footer-links', true, true], ['main', false, false], ['release/prep', false, true]])
    const maintainer = await api.get('/projects/20/repository/branches', { as: 'max', query: { search: 'main' } })
    expect(maintainer.body.map((b: { can_push: boolean }) => b.can_push)).toEqual([true])
  })

  it.each([
    ['fix', ['fix/footer-links']],
    ['^feat', ['feature/login']],
    ['links$', ['fix/footer-links']],
    ['LOGIN', ['feature/login']],
    ['nothing', []],
  ])('searches with %j', async (search, names) => {
    const res = await api.get('/projects/20/repository/branches', { query: { search } })
    expect(res.body.map((b: { name: string }) => b.name)).toEqual(names)
  })

  it('paginates with GitLab\'s headers', async () => {
    const res = await api.get('/projects/20/repository/branches', { query: { per_page: 2, page: 2 } })
    expect(res.body.map((b: { name: string }) => b.name)).toEqual(['main', 'release/prep'])
    expect(paginationHeaders(res)).toMatchObject({ 'x-page': '2', 'x-per-page': '2', 'x-total': '4', 'x-total-pages': '2', 'x-prev-page': '1', 'x-next-page': '' })
  })

  it('lists nothing for an empty repository', async () => {
    const res = await api.get('/projects/21/repository/branches', { as: 'max' })
    expect([res.status, res.body]).toEqual([200, []])
  })

  it.each(READERS)('%s: %i → %i', async (_who, project, status, options, error) => {
    const res = await api.get(`/projects/${project}/repository/branches`, options)
    expect(res.status).toBe(status)
    if (error) expect(res.body).toEqual(error)
  })
})

contract('GET /projects/:id/repository/branches/:branch', {}, ({ api }) => {
  it('shows one branch, its name URL-encoded', async () => {
    const res = await api.get('/projects/acme%2Fwebsite/repository/branches/feature%2Flogin')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'feature/login', merged: false, protected: false, default: false, can_push: false })
    expect(res.body.commit.id).toBe(LOGIN)
  })

  it.each([
    ['an unknown branch', 'nope', 404, { message: '404 Branch Not Found' }],
    ['an invalid ref name', 'a..b', 400, { message: 'The branch refname is invalid' }],
  ])('answers %s', async (_what, branch, status, body) => {
    const res = await api.get(`/projects/20/repository/branches/${branch}`)
    expect([res.status, res.body]).toEqual([status, body])
  })
})

contract('GET /projects/:id/repository/tags', {}, ({ api }) => {
  it('lists tags, newest commit first, annotated and lightweight', async () => {
    const res = await api.get('/projects/20/repository/tags')
    expect(res.status).toBe(200)
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(['v1.0.0', 'v0.9.0'])
    expect(res.body[0]).toEqual({ name: 'v1.0.0', message: 'Version 1.0.0', target: V1_TAG, commit: releaseCommit(api.baseUrl), release: { tag_name: 'v1.0.0', description: 'The first stable website.\n\n- Repair footer links' }, protected: false })
    expect(res.body[1]).toMatchObject({ name: 'v0.9.0', message: '', target: FOOTER, release: null, protected: false })
    expect(res.body[1].commit.id).toBe(FOOTER)
  })

  it.each([
    [{ order_by: 'name', sort: 'asc' }, ['v0.9.0', 'v1.0.0']],
    [{ order_by: 'updated', sort: 'asc' }, ['v0.9.0', 'v1.0.0']],
    [{ search: '^v1' }, ['v1.0.0']],
  ])('orders and searches with %j', async (query, names) => {
    const res = await api.get('/projects/20/repository/tags', { query })
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(names)
  })

  it('refuses an unknown order', async () => {
    const res = await api.get('/projects/20/repository/tags', { query: { order_by: 'size' } })
    expect([res.status, res.body]).toEqual([400, { error: 'order_by does not have a valid value' }])
  })
})

contract('GET /projects/:id/repository/tags/:tag_name', {}, ({ api }) => {
  it('shows one tag', async () => {
    const res = await api.get('/projects/30/repository/tags/v0.1.0')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'v0.1.0', message: 'First release' })
  })

  it('answers 404 Tag Not Found', async () => {
    const res = await api.get('/projects/20/repository/tags/v9')
    expect([res.status, res.body]).toEqual([404, { message: '404 Tag Not Found' }])
  })
})

contract('GET /projects/:id/repository/commits', {}, ({ api }) => {
  it('lists the default branch\'s history, newest first', async () => {
    const res = await api.get('/projects/20/repository/commits')
    expect(res.status).toBe(200)
    expect(res.body.map((c: { id: string }) => c.id)).toEqual([MAIN, MERGE, FIX, CI, FOOTER, res.body[5].id])
    expect(res.body[0]).toEqual(releaseCommit(api.baseUrl))
    expect(res.body[3]).toMatchObject({ title: 'Add the CI configuration', parent_ids: [FOOTER] })
    expect(res.body[5]).toMatchObject({ title: 'Initial commit', parent_ids: [] })
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '6', 'x-page': '1' })
  })

  it.each([
    ['ref_name', { ref_name: 'feature/login' }, [LOGIN, LOGIN_FORM, MERGE, FIX, CI]],
    ['path (history simplified through the merge)', { path: 'footer.html' }, [FIX, FOOTER]],
    ['a directory path', { path: 'css' }, ['initial']],
    ['since', { since: '2021-03-05T08:00:00Z' }, [MAIN, MERGE]],
    ['until', { until: '2021-02-10T10:00:00Z' }, [FOOTER, 'initial']],
    ['an unknown ref', { ref_name: 'nope' }, []],
  ])('filters by %s', async (_what, query, ids) => {
    const res = await api.get('/projects/20/repository/commits', { query: { per_page: 5, ...query } })
    expect(res.status).toBe(200)
    expect(res.body.map((c: { id: string; title: string }) => (c.title === 'Initial commit' ? 'initial' : c.id))).toEqual(ids)
  })

  it('adds stats with with_stats', async () => {
    const res = await api.get('/projects/20/repository/commits', { query: { with_stats: true, per_page: 1 } })
    expect(res.body[0].stats).toEqual({ additions: 5, deletions: 0, total: 5 })
  })

  it('refuses a malformed date', async () => {
    const res = await api.get('/projects/20/repository/commits', { query: { since: 'yesterday-ish' } })
    expect([res.status, res.body]).toEqual([400, { error: 'since is invalid' }])
  })
})

contract('GET /projects/:id/repository/commits/:sha', {}, ({ api }) => {
  it.each([
    ['a full SHA', MAIN],
    ['a short SHA', MAIN.slice(0, 8)],
    ['a branch', 'main'],
    ['an annotated tag', 'v1.0.0'],
    ['HEAD', 'HEAD'],
  ])('finds the commit by %s', async (_what, sha) => {
    const res = await api.get(`/projects/20/repository/commits/${sha}`)
    expect(res.status).toBe(200)
    // Its newest pipeline, 1003, succeeded (the runners area's `status` and `last_pipeline`).
    const last_pipeline = { id: 1003, project_id: 20, sha: MAIN, ref: 'main', status: 'success', created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:04:20.000Z', web_url: `${api.baseUrl}/acme/website/-/pipelines/1003` }
    expect(res.body).toEqual({ ...releaseCommit(api.baseUrl), stats: { additions: 5, deletions: 0, total: 5 }, status: 'success', project_id: 20, last_pipeline })
  })

  it('leaves stats out with stats=false', async () => {
    const res = await api.get(`/projects/20/repository/commits/${MAIN}`, { query: { stats: false } })
    expect(Object.keys(res.body)).not.toContain('stats')
  })

  it.each(['nope', '0000000000000000000000000000000000000000', FOOTER_BLOB])('answers 404 Commit Not Found for %s', async (sha) => {
    const res = await api.get(`/projects/20/repository/commits/${sha}`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })
})

contract('GET /projects/:id/repository/commits/:sha/diff', {}, ({ api }) => {
  it('diffs a commit against its first parent', async () => {
    const res = await api.get(`/projects/20/repository/commits/${FIX}/diff`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{
      old_path: 'footer.html',
      new_path: 'footer.html',
      a_mode: '100644',
      b_mode: '100644',
      new_file: false,
      renamed_file: false,
      deleted_file: false,
      diff: '@@ -1,4 +1,4 @@\n <footer>\n   <a href="/about">About</a>\n-  <a href="/contact">Contact</a>\n+  <a href="/support">Contact</a>\n </footer>\n',
    }])
  })
})

contract('GET /projects/:id/repository/commits/:sha/refs', {}, ({ api }) => {
  it('lists the branches and tags that contain the commit', async () => {
    const res = await api.get(`/projects/20/repository/commits/${FOOTER}/refs`)
    expect(res.body).toEqual([
      { type: 'branch', name: 'feature/login' }, { type: 'branch', name: 'fix/footer-links' }, { type: 'branch', name: 'main' },
      { type: 'branch', name: 'release/prep' }, { type: 'tag', name: 'v0.9.0' }, { type: 'tag', name: 'v1.0.0' },
    ])
    const tags = await api.get(`/projects/20/repository/commits/${LOGIN}/refs`, { query: { type: 'tag' } })
    expect(tags.body).toEqual([])
  })
})

contract('GET /projects/:id/repository/tree', {}, ({ api }) => {
  it('lists the root of the default branch: trees, then blobs', async () => {
    const res = await api.get('/projects/20/repository/tree')
    expect(res.status).toBe(200)
    expect(res.body.map((e: { path: string; type: string; mode: string }) => [e.path, e.type, e.mode])).toEqual([
      ['css', 'tree', '040000'], ['.gitlab-ci.yml', 'blob', '100644'], ['CHANGELOG.md', 'blob', '100644'], ['README.md', 'blob', '100644'], ['footer.html', 'blob', '100644'], ['index.html', 'blob', '100644'],
    ])
    expect(res.body[4]).toEqual({ id: FOOTER_BLOB, name: 'footer.html', type: 'blob', path: 'footer.html', mode: '100644' })
  })

  it.each([
    [{ path: 'css' }, ['css/site.css']],
    [{ ref: 'feature/login', recursive: true }, ['css', 'js', '.gitlab-ci.yml', 'README.md', 'css/site.css', 'footer.html', 'index.html', 'js/login.js', 'login.html']],
    [{ path: 'nope' }, []],
    [{ path: 'README.md' }, []],
  ])('lists %j', async (query, paths) => {
    const res = await api.get('/projects/20/repository/tree', { query })
    expect([res.status, res.body.map((e: { path: string }) => e.path)]).toEqual([200, paths])
  })

  it.each([
    ['an unknown ref', 20, { ref: 'nope' }],
    ['an empty repository', 21, {}],
  ])('answers 404 Tree Not Found for %s', async (_what, project, query) => {
    const res = await api.get(`/projects/${project}/repository/tree`, { as: 'max', query })
    expect([res.status, res.body]).toEqual([404, { message: '404 Tree Not Found' }])
  })
})

contract('GET /projects/:id/repository/files/:file_path', {}, ({ api }) => {
  it('shows a file, base64-encoded, with its ids and X-Gitlab-* headers', async () => {
    const res = await api.get('/projects/20/repository/files/footer.html', { query: { ref: 'main' } })
    const text = '<footer>\n  <a href="/about">About</a>\n  <a href="/support">Contact</a>\n</footer>\n'
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      file_name: 'footer.html',
      file_path: 'footer.html',
      size: text.length,
      encoding: 'base64',
      content_sha256: '1232ba8eb4af16d59427c77f557aef908073a23cfa7fa872bb3e3dd0709f87d7',
      ref: 'main',
      blob_id: FOOTER_BLOB,
      commit_id: MAIN,
      last_commit_id: FIX,
      content: btoa(text),
    })
    expect(res.headers.get('x-gitlab-blob-id')).toBe(FOOTER_BLOB)
    expect(res.headers.get('x-gitlab-last-commit-id')).toBe(FIX)
  })

  it('finds a nested file by its URL-encoded path at an older ref', async () => {
    const res = await api.get('/projects/20/repository/files/css%2Fsite.css', { query: { ref: 'v0.9.0' } })
    expect(res.body).toMatchObject({ file_name: 'site.css', file_path: 'css/site.css', ref: 'v0.9.0', commit_id: FOOTER })
  })

  it.each([
    ['an unknown ref', 'README.md', { ref: 'nope' }, 404, { message: '404 Commit Not Found' }],
    ['an unknown file', 'nope.txt', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['a directory', 'css', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['no ref', 'README.md', {}, 400, { error: 'ref is missing' }],
    ['an empty ref', 'README.md', { ref: '' }, 400, { error: 'ref is empty' }],
    ['a path out of the tree', '..%2Fsecret', { ref: 'main' }, 400, { error: 'file_path should be a valid file path' }],
  ])('answers %s', async (_what, path, query, status, body) => {
    const res = await api.get(`/projects/20/repository/files/${path}`, { query })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('is 403 for a guest of a private project', async () => {
    const res = await api.get('/projects/21/repository/files/README.md', { as: 'gina', query: { ref: 'main' } })
    expect([res.status, res.body]).toEqual([403, FORBIDDEN])
  })
})

contract('GET /projects/:id/repository/files/:file_path/raw', {}, ({ api }) => {
  it('sends the file as it is, at the default branch when no ref is given', async () => {
    const res = await api.get('/projects/20/repository/files/README.md/raw')
    expect(res.status).toBe(200)
    expect(res.text).toBe('# Website\n\nThe Acme website.\n')
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('x-gitlab-commit-id')).toBe(MAIN)
  })
})

contract('GET /projects/:id/repository/blobs/:sha', {}, ({ api }) => {
  it('shows a blob, base64-encoded; its raw form as it is', async () => {
    const res = await api.get(`/projects/20/repository/blobs/${FOOTER_BLOB}`)
    const text = '<footer>\n  <a href="/about">About</a>\n  <a href="/support">Contact</a>\n</footer>\n'
    expect([res.status, res.body]).toEqual([200, { size: text.length, encoding: 'base64', content: btoa(text), sha: FOOTER_BLOB }])
    const raw = await api.get(`/projects/20/repository/blobs/${FOOTER_BLOB}/raw`)
    expect([raw.status, raw.text]).toEqual([200, text])
  })

  it.each(['nope', MAIN])('answers 404 Blob Not Found for %s', async (sha) => {
    const res = await api.get(`/projects/20/repository/blobs/${sha}`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Blob Not Found' }])
  })
})

contract('GET /projects/:id/repository/compare', {}, ({ api }) => {
  it('compares a branch with the default branch: commits oldest first, diffs from the merge base', async () => {
    const res = await api.get('/projects/20/repository/compare', { query: { from: 'main', to: 'feature/login' } })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref', 'web_url'])
    expect(res.body.commit.id).toBe(LOGIN)
    expect(res.body.commits.map((c: { id: string }) => c.id)).toEqual([LOGIN_FORM, LOGIN])
    expect(res.body.diffs.map((d: { new_path: string; new_file: boolean }) => [d.new_path, d.new_file])).toEqual([['js/login.js', true], ['login.html', true]])
    expect(res.body.diffs[0].diff).toBe("@@ -0,0 +1 @@\n+document.querySelector('#login button').addEventListener('click', signIn)\n")
    expect([res.body.compare_timeout, res.body.compare_same_ref]).toEqual([false, false])
  })

  it('with straight, diffs the two trees directly', async () => {
    const res = await api.get('/projects/20/repository/compare', { query: { from: 'main', to: 'feature/login', straight: true } })
    expect(res.body.diffs.map((d: { new_path: string; deleted_file: boolean }) => [d.new_path, d.deleted_file])).toEqual([['CHANGELOG.md', true], ['js/login.js', false], ['login.html', false]])
  })

  it('compares a ref with itself', async () => {
    const res = await api.get('/projects/20/repository/compare', { query: { from: 'main', to: MAIN } })
    expect(res.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true })
  })

  it.each([
    [{ from: 'nope', to: 'main' }, 404, { message: '404 Ref Not Found' }],
    [{ to: 'main' }, 400, { error: 'from is missing' }],
  ])('refuses %j', async (query, status, body) => {
    const res = await api.get('/projects/20/repository/compare', { query })
    expect([res.status, res.body]).toEqual([status, body])
  })
})

