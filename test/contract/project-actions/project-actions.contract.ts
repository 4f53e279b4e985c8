/**
 * Project actions over both doors (lib/api/projects.rb, groups.rb, 13.12): forks (the fork's
 * `forked_from_project`, a copy of the repository, `forks_count`, the forks list, 409 for a taken
 * path, 404 `Target Namespace Not Found`, fork links made and removed), stars (201, 304 twice,
 * `star_count`, starrers), archive and unarchive (pushes refused while archived), housekeeping,
 * languages, the repository storage, and a group's shared projects. Who may call:
 * test/authz/authorization.test.ts.
 * Default scenario: project 20 acme/website (public; max maintains it, olive owns group acme),
 * 21 acme/platform/api (private), 23 shared with group 12 secret-lab; nora belongs nowhere.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('project forks', {}, ({ api, sim }) => {
  it('forks into the caller\'s namespace with the source\'s repository, and lists the fork', async () => {
    const res = await api.post('/projects/20/fork', { as: 'nora' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'Website', path: 'website', path_with_namespace: 'nora/website', visibility: 'public', forks_count: 0 })
    expect(res.body.forked_from_project).toMatchObject({ id: 20, path_with_namespace: 'acme/website' })
    expect(Object.keys(res.body).indexOf('forked_from_project')).toBe(Object.keys(res.body).indexOf('creator_id') + 1)
    const source = await api.get('/projects/20/repository/branches', { as: 'nora' })
    const copied = await api.get(`/projects/${res.body.id}/repository/branches`, { as: 'nora' })
    expect(copied.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id])).toEqual(source.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]))
    expect((await api.get('/projects/20', { as: 'nora' })).body.forks_count).toBe(1)
    const forks = await api.get('/projects/20/forks')
    expect(forks.status).toBe(200)
    expect(forks.body.map((f: { id: number }) => f.id)).toEqual([res.body.id])
    expect(forks.headers.get('x-total')).toBe('1')
  })

  it('forks into a namespace named by path, with a new name and path, and refuses a taken path with 409', async () => {
    const res = await api.post('/projects/20/fork', { as: 'root', body: { namespace: 'nora', name: 'Site', path: 'site' } })
    expect(res.status).toBe(201)
    expect(res.body.path_with_namespace).toBe('nora/site')
    expect(sim().db.tables.members.where('source_id', res.body.id).map((m) => m.user_id)).toEqual([sim().db.findUserByUsername('nora')!.id])
    const again = await api.post('/projects/20/fork', { as: 'root', body: { namespace: 'nora', name: 'Site', path: 'site' } })
    expect(again.status).toBe(409)
    expect(again.body.message.path).toEqual(['has already been taken'])
  })

  it('answers 404 Target Namespace Not Found for a namespace the caller may not create in', async () => {
    expect(await api.post('/projects/20/fork', { as: 'nora', body: { namespace_path: 'acme' } })).toMatchObject({ status: 404, body: { message: '404 Target Namespace Not Found' } })
    expect(await api.post('/projects/20/fork', { as: 'nora', body: { namespace_id: 999999 } })).toMatchObject({ status: 404, body: { message: '404 Target Namespace Not Found' } })
  })

  it('links and unlinks an existing project as a fork', async () => {
    const linked = await api.post('/projects/21/fork/20', { as: 'root' })
    expect(linked.status).toBe(201)
    expect(linked.body.forked_from_project.id).toBe(20)
    expect(await api.post('/projects/21/fork/20', { as: 'root' })).toMatchObject({ status: 409, body: { message: 'Project already forked' } })
    expect((await api.delete('/projects/21/fork', { as: 'root' })).status).toBe(204)
    expect((await api.delete('/projects/21/fork', { as: 'root' })).status).toBe(304)
    expect((await api.get('/projects/21', { as: 'root' })).body.forked_from_project).toBeUndefined()
  })
})

contract('project stars, archive, housekeeping, storage, languages', {}, ({ api }) => {
  it('stars and unstars, 304 on repeats, with star_count and starrers', async () => {
    const star = await api.post('/projects/20/star', { as: 'nora' })
    expect(star.status).toBe(201)
    expect(star.body.star_count).toBe(1)
    expect((await api.post('/projects/20/star', { as: 'nora' })).status).toBe(304)
    const starrers = await api.get('/projects/20/starrers')
    expect(starrers.status).toBe(200)
    expect(starrers.body).toEqual([{ starred_since: expect.any(String), user: expect.objectContaining({ username: 'nora' }) }])
    expect(Object.keys(starrers.body[0])).toEqual(['starred_since', 'user'])
    expect((await api.get('/projects/20/starrers', { query: { search: 'zzz' } })).body).toEqual([])
    const unstar = await api.post('/projects/20/unstar', { as: 'nora' })
    expect(unstar.status).toBe(201)
    expect(unstar.body.star_count).toBe(0)
    expect((await api.post('/projects/20/unstar', { as: 'nora' })).status).toBe(304)
  })

  it('archives and unarchives; an archived project refuses pushes', async () => {
    const archived = await api.post('/projects/20/archive', { as: 'olive' })
    expect(archived.status).toBe(201)
    expect(archived.body.archived).toBe(true)
    const push = await api.post('/projects/20/repository/branches', { as: 'olive', body: { branch: 'x', ref: 'main' } })
    expect(push.status).toBe(403)
    expect((await api.post('/projects/20/unarchive', { as: 'olive' })).body.archived).toBe(false)
    expect((await api.post('/projects/20/repository/branches', { as: 'olive', body: { branch: 'x', ref: 'main' } })).status).toBe(201)
  })

  it('starts housekeeping with a job id', async () => {
    const res = await api.post('/projects/20/housekeeping', { as: 'max' })
    expect(res.status).toBe(201)
    expect(res.body).toMatch(/^[0-9a-f]{24}$/)
  })

  it('shows the storage to administrators', async () => {
    const res = await api.get('/projects/20/storage', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      disk_path: '@hashed/f5/ca/f5ca38f748a1d6eaf726b8a42fb575c3c71f1864a8143301782de13da2d9202b',
      project_id: 20,
      repository_storage: 'default',
      created_at: expect.any(String),
    })
  })

  it('gives the languages of the default branch, largest share first', async () => {
    const res = await api.get('/projects/20/languages')
    expect(res.status).toBe(200)
    const shares = Object.values(res.body) as number[]
    expect(shares.length).toBeGreaterThan(0)
    expect(shares).toEqual([...shares].sort((a, b) => b - a))
    expect(Math.round(shares.reduce((a, b) => a + b, 0))).toBe(100)
  })

  it('lists the projects shared with a group', async () => {
    const res = await api.get('/groups/12/projects/shared', { as: 'olive' })
    expect(res.status).toBe(200)
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([23])
    expect((await api.get('/groups/10/projects/shared', { as: 'olive', query: { simple: true } })).body).toEqual([])
  })
})
