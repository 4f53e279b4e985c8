/**
 * The HEAD routes GitLab 13.12 declares (Grape `head`), over both doors: `HEAD …/repository/files/:file_path`
 * and `…/blame` answer GET's status and X-Gitlab-* headers with no body; `HEAD …/repository/branches/:branch`
 * is 204 for a branch, 404 otherwise, never GET's 200. Source: gitlab: lib/api/files.rb, branches.rb (13.12),
 * spec/requests/api/files_spec.rb ("HEAD /projects/:id/repository/files/:file_path"), branches_spec.rb.
 *
 * Default scenario: acme/website (20, public) has footer.html on main, README.md on feature/login;
 * acme/platform/api (21) is private.
 */
import { expect, it } from 'vitest'
import { contract, type RequestOptions } from '../../support/contract.js'

/** [what, path, options, status]. */
type Case = [string, string, RequestOptions, number]

const FILES: Case[] = [
  ['a file', '/projects/20/repository/files/footer.html', { query: { ref: 'main' } }, 200],
  ['a file, blame', '/projects/20/repository/files/footer.html/blame', { query: { ref: 'main' } }, 200],
  ['a file on a branch, signed in', '/projects/20/repository/files/README.md', { as: 'devon', query: { ref: 'feature/login' } }, 200],
  ['a missing file', '/projects/20/repository/files/nope.txt', { query: { ref: 'main' } }, 404],
  ['a missing ref', '/projects/20/repository/files/footer.html', { query: { ref: 'no-such-ref' } }, 404],
  ['no ref', '/projects/20/repository/files/footer.html', {}, 400],
  ['a private project to a stranger', '/projects/21/repository/files/README.md', { as: 'nora', query: { ref: 'main' } }, 404],
  ['a blame with a missing file', '/projects/20/repository/files/nope.txt/blame', { query: { ref: 'main' } }, 404],
]

contract('HEAD of repository files and blame', {}, ({ api }) => {
  it.each(FILES)('%s: HEAD %s', async (_what, path, options, status) => {
    const head = await api.request('HEAD', path, options)
    const get = await api.get(path, options)
    expect(head.status).toBe(status)
    expect(get.status).toBe(status)
    expect(head.text).toBe('')
    // The same X-Gitlab-* headers as GET.
    const gitlab = (h: Headers) => [...h.entries()].filter(([k]) => k.startsWith('x-gitlab-')).sort()
    expect(gitlab(head.headers)).toEqual(gitlab(get.headers))
    if (status === 200) expect(head.headers.get('x-gitlab-file-path')).toBe(get.status === 200 ? path.split('/')[5] : null)
  })
})

const BRANCHES: Case[] = [
  ['a branch', '/projects/20/repository/branches/main', {}, 204],
  ['a branch with a slash', '/projects/20/repository/branches/feature%2Flogin', {}, 204],
  ['no such branch', '/projects/20/repository/branches/nope', {}, 404],
  ['a name GET refuses as invalid', '/projects/20/repository/branches/a..b', {}, 404],
  ['a private project to anonymous', '/projects/21/repository/branches/main', {}, 404],
  ['a private project to a stranger', '/projects/21/repository/branches/main', { as: 'nora' }, 404],
]

contract('HEAD of a branch', {}, ({ api }) => {
  it.each(BRANCHES)('%s: HEAD %s', async (_what, path, options, status) => {
    const res = await api.request('HEAD', path, options)
    expect([res.status, res.text]).toEqual([status, ''])
  })

  it('GET still answers the branch', async () => {
    expect((await api.get('/projects/20/repository/branches/main')).body).toMatchObject({ name: 'main', default: true })
  })
})
