/**
 * @gitbeaker/rest, unmodified, against the node server on the default scenario: repository storage
 * moves through its RepositoryStorageMoves resources (which repeat `project_id` / `snippet_id` as
 * parameters) and its requester, `Users.showCurrentUser` with each credential type, and its `sudo`
 * option. Issue 10 "Done when".
 */
import { Gitlab } from '@gitbeaker/rest'
import { describe, expect, it } from 'vitest'
import { statusOf, serveDefaultScenario } from '../support/clients.js'

const fakelab = serveDefaultScenario()


describe('@gitbeaker/rest: repository storage moves and credentials', () => {
  it('schedules and reads storage moves as an administrator', async () => {
    const admin = new Gitlab({ host: fakelab.url, token: 'glpat-root-fakelab' })
    const move = await admin.ProjectRepositoryStorageMoves.schedule('default', { projectId: 20, destinationStorageName: 'storage-2' })
    expect(move).toMatchObject({ state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage-2' })
    expect((await admin.ProjectRepositoryStorageMoves.show(move.id as number, { projectId: 20 })).id).toBe(move.id)
    expect((await admin.ProjectRepositoryStorageMoves.all()).map((m) => m.id)).toEqual([move.id])

    const bulk = await admin.requester.post('snippet_repository_storage_moves', { body: { source_storage_name: 'default' } })
    expect([bulk.status, bulk.body]).toEqual([202, { message: '202 Accepted' }])
    const snippetMoves = await admin.SnippetRepositoryStorageMoves.all({ snippetId: 601 })
    expect(snippetMoves.map((m) => (m.snippet as { id: number }).id)).toEqual([601])

    const groupMove = await admin.GroupRepositoryStorageMoves.schedule('storage-2', { groupId: 12 })
    expect(groupMove).toMatchObject({ state: 'scheduled', source_storage_name: 'storage-2', group: { id: 12 } })

    const developer = new Gitlab({ host: fakelab.url, token: 'glpat-devon-fakelab' })
    expect(await statusOf(developer.ProjectRepositoryStorageMoves.all())).toBe(403)
  })

  it.each([
    ['an OAuth token', { oauthToken: 'oauth-devon-fakelab' }, 'devon'],
    ['an impersonation token', { token: 'glpat-nora-impersonation' }, 'nora'],
  ])('authenticates with %s', async (_, credentials, username) => {
    const api = new Gitlab({ host: fakelab.url, ...credentials })
    expect((await api.Users.showCurrentUser()).username).toBe(username)
  })

  it('gets 401 for GET /user with a job token, as GitLab answers (job tokens open only a few routes)', async () => {
    const api = new Gitlab({ host: fakelab.url, jobToken: 'job-token-running' })
    expect(await statusOf(api.Users.showCurrentUser())).toBe(401)
    expect((await api.Projects.show(20)).path_with_namespace).toBe('acme/website')
  })

  it('acts as another user with the sudo option (Sudo header), by token or OAuth', async () => {
    const admin = new Gitlab({ host: fakelab.url, token: 'glpat-root-fakelab', sudo: 'max' })
    expect((await admin.Users.showCurrentUser()).username).toBe('max')
    const oauth = new Gitlab({ host: fakelab.url, oauthToken: 'oauth-root-fakelab' })
    expect((await oauth.Users.showCurrentUser({ sudo: 'NORA' })).username).toBe('nora')
    expect(await statusOf(oauth.Projects.show(21, { sudo: 'nora' }))).toBe(404)
    const notAdmin = new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab', sudo: 'devon' })
    expect(await statusOf(notAdmin.Users.showCurrentUser())).toBe(403)
  })
})
