/**
 * Protected tags over both doors: the routes (list, get, protect, unprotect; Maintainer+), and
 * their effect on tag writes through the tags API and git's receive-pack (TagCheck 13.12: only the
 * allowed roles create a matching tag, nobody updates or deletes one), the `Tag` entity's
 * `protected`. Source: gitlab: lib/api/protected_tags.rb, entities/protected_tag.rb,
 * protected_ref_access.rb, app/models/protected_tag.rb, lib/gitlab/checks/tag_check.rb,
 * lib/gitlab/user_access.rb; spec/requests/api/protected_tags_spec.rb.
 *
 * Default scenario: acme/website (20, public) protects `release-*` (Maintainers create); acme
 * maintainer max, owner olive, developers devon and elena, reporter riley, guest gina; nora is no
 * member; root is administrator; acme/platform/api (21) is private.
 */
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { contract, type RequestOptions } from '../../support/contract.js'

const FORBIDDEN = { message: '403 Forbidden' }
const MAINTAINERS = { access_level: 40, access_level_description: 'Maintainers' }
const RELEASE = { name: 'release-*', create_access_levels: [MAINTAINERS] }
const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'

/** [who, path, options, status, body (null: the success body checked elsewhere)]. */
type Case = [string, string, RequestOptions, number, unknown]

const READS: Case[] = [
  ['anonymous (no authenticate! first)', '/projects/20/protected_tags', {}, 403, FORBIDDEN],
  ['a guest', '/projects/20/protected_tags', { as: 'gina' }, 403, FORBIDDEN],
  ['a developer', '/projects/20/protected_tags', { as: 'devon' }, 403, FORBIDDEN],
  ['a non-member of a public project', '/projects/20/protected_tags', { as: 'nora' }, 403, FORBIDDEN],
  ['a non-member of a private project', '/projects/21/protected_tags', { as: 'nora' }, 404, { message: '404 Project Not Found' }],
  ['a maintainer', '/projects/20/protected_tags', { as: 'max' }, 200, [RELEASE]],
  ['an owner', '/projects/20/protected_tags', { as: 'olive' }, 200, [RELEASE]],
  ['an administrator', '/projects/20/protected_tags', { as: 'root' }, 200, [RELEASE]],
  ['a maintainer, one by its pattern', '/projects/20/protected_tags/release-*', { as: 'max' }, 200, RELEASE],
  ['a maintainer, an unknown name', '/projects/20/protected_tags/v1.0.0', { as: 'max' }, 404, { message: '404 Not found' }],
  ['a maintainer of a project without any', '/projects/21/protected_tags', { as: 'max' }, 200, []],
]

contract('protected tags: reading', {}, ({ api }) => {
  it.each(READS)('%s: GET %s', async (_who, path, options, status, body) => {
    const res = await api.get(path, options)
    expect([res.status, res.body]).toEqual([status, body])
    if (status === 200 && Array.isArray(body)) expect(res.headers.get('x-total')).toBe(String(body.length))
  })
})

const CREATES: Case[] = [
  ['Maintainers by default', '', { as: 'max', body: { name: 'v2.*' } }, 201, { name: 'v2.*', create_access_levels: [MAINTAINERS] }],
  ['Developers + Maintainers', '', { as: 'max', body: { name: 'rc-*', create_access_level: 30 } }, 201, { name: 'rc-*', create_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }] }],
  ['No one', '', { as: 'root', body: { name: 'frozen', create_access_level: '0' } }, 201, { name: 'frozen', create_access_levels: [{ access_level: 0, access_level_description: 'No one' }] }],
  ['a level outside the allowed ones', '', { as: 'max', body: { name: 'x', create_access_level: 50 } }, 400, { error: 'create_access_level does not have a valid value' }],
  ['no name', '', { as: 'max', body: {} }, 400, { error: 'name is missing' }],
  ['a blank name', '', { as: 'max', body: { name: '' } }, 422, { message: ["Name can't be blank"] }],
  ['a name already protected', '', { as: 'max', body: { name: 'release-*' } }, 422, { message: ['Name has already been taken'] }],
  ['a developer', '', { as: 'devon', body: { name: 'x' } }, 403, FORBIDDEN],
  ['anonymous', '', { body: { name: 'x' } }, 401, { message: '401 Unauthorized' }],
]

contract('protected tags: protecting and unprotecting', {}, ({ api }) => {
  it.each(CREATES)('POST: %s', async (_what, _path, options, status, body) => {
    const res = await api.post('/projects/20/protected_tags', options)
    expect([res.status, res.body]).toEqual([status, body])
    const names = (await api.get('/projects/20/protected_tags', { as: 'max' })).body.map((t: { name: string }) => t.name)
    // A refused request leaves the list as it was.
    expect(names).toEqual(status === 201 ? ['release-*', (body as { name: string }).name] : ['release-*'])
  })

  it('unprotects by exact name (the pattern, URL-encoded), 404 after; If-Unmodified-Since before its update is 412', async () => {
    expect((await api.delete('/projects/20/protected_tags/release-*', { as: 'max', headers: { 'if-unmodified-since': 'Mon, 01 Mar 2021 09:00:00 GMT' } }))).toBeGitLabError(412, { message: '412 Precondition Failed' })
    expect((await api.delete('/projects/20/protected_tags/release-1', { as: 'max' }))).toBeGitLabError(404, { message: '404 Not found' })
    expect((await api.delete('/projects/20/protected_tags/release-*', { as: 'devon' }))).toBeGitLabError(403, FORBIDDEN)
    const res = await api.delete('/projects/20/protected_tags/release-%2A', { as: 'max' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await api.get('/projects/20/protected_tags', { as: 'max' })).body).toEqual([])
    expect((await api.delete('/projects/20/protected_tags/release-*', { as: 'max' }))).toBeGitLabError(404, { message: '404 Not found' })
    // Unprotected, a developer may tag release-1 again.
    expect((await api.post('/projects/20/repository/tags', { as: 'devon', body: { tag_name: 'release-1', ref: 'main' } })).status).toBe(201)
  })

  it('protects a name with a slash, read back URL-encoded', async () => {
    expect((await api.post('/projects/20/protected_tags', { as: 'max', body: { name: 'stable/*' } })).status).toBe(201)
    expect((await api.get('/projects/20/protected_tags/stable%2F*', { as: 'max' })).body).toEqual({ name: 'stable/*', create_access_levels: [MAINTAINERS] })
  })
})

/** [who, level of a `release-*` protection (null: the scenario's, Maintainers), tag, status, body]. */
type TagCase = [string, number | null, string, number, unknown]
const NOT_ALLOWED = { message: 'You are not allowed to create this tag as it is protected.' }

const TAG_CREATES: TagCase[] = [
  ['devon', null, 'release-1', 400, NOT_ALLOWED],
  ['max', null, 'release-1', 201, null],
  ['root', null, 'release-1', 201, null],
  ['devon', null, 'v9', 201, null],
  ['devon', 30, 'release-1', 201, null],
  ['max', 0, 'release-1', 400, NOT_ALLOWED],
  ['root', 0, 'release-1', 400, NOT_ALLOWED],
  ['riley', null, 'release-1', 403, FORBIDDEN],
]

contract('protected tags: the tags API', {}, ({ api }) => {
  it.each(TAG_CREATES)('%s creates a tag (release-* level %s) %s: %s', async (who, level, tag, status, body) => {
    if (level !== null) {
      await api.delete('/projects/20/protected_tags/release-*', { as: 'max' })
      expect((await api.post('/projects/20/protected_tags', { as: 'max', body: { name: 'release-*', create_access_level: level } })).status).toBe(201)
    }
    const res = await api.post('/projects/20/repository/tags', { as: who, body: { tag_name: tag, ref: 'main', message: 'A release' } })
    expect(res.status).toBe(status)
    if (body !== null) expect(res.body).toEqual(body)
    else expect(res.body).toMatchObject({ name: tag, message: 'A release', protected: tag.startsWith('release-') })
    // Refused, nothing was written.
    expect((await api.get(`/projects/20/repository/tags/${tag}`, { as: 'max' })).status).toBe(status === 201 ? 200 : 404)
  })

  it('no one deletes a protected tag through the API, a maintainer or an administrator neither; the Tag entity says protected', async () => {
    expect((await api.post('/projects/20/repository/tags', { as: 'max', body: { tag_name: 'release-2', ref: 'main' } })).status).toBe(201)
    for (const who of ['max', 'root']) {
      expect(await api.delete('/projects/20/repository/tags/release-2', { as: who })).toBeGitLabError(400, { message: 'Protected tags cannot be deleted.' })
    }
    const tags = (await api.get('/projects/20/repository/tags', { as: 'devon' })).body.map((t: { name: string; protected: boolean }) => [t.name, t.protected])
    expect(tags.sort()).toEqual([['release-2', true], ['v0.9.0', false], ['v1.0.0', false]])
    // Once unprotected, it goes.
    expect((await api.delete('/projects/20/protected_tags/release-*', { as: 'max' })).status).toBe(204)
    expect((await api.delete('/projects/20/repository/tags/release-2', { as: 'devon' })).status).toBe(204)
  })
})

/** A pkt-line of text. */
const pkt = (text: string): string => `${(new TextEncoder().encode(text).length + 4).toString(16).padStart(4, '0')}${text}`

/** An empty pack: the header (version 2, no objects) and its SHA-1. */
function emptyPack(): Uint8Array {
  const header = new Uint8Array([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 0])
  return new Uint8Array([...header, ...createHash('sha1').update(header).digest()])
}

/** One receive-pack request moving `ref` from `before` to `after` (40 zeros: none), as `user` with `token`. */
async function receivePack(baseUrl: string, user: string, token: string, ref: string, before: string, after: string): Promise<{ status: number; text: string }> {
  const zero = '0'.repeat(40)
  const commands = new TextEncoder().encode(`${pkt(`${before} ${after} ${ref}\0report-status side-band-64k agent=git/2.31.1\n`)}0000`)
  const body = after === zero ? commands : new Uint8Array([...commands, ...emptyPack()])
  const res = await fetch(`${baseUrl}/acme/website.git/git-receive-pack`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${user}:${token}`)}`, 'content-type': 'application/x-git-receive-pack-request' },
    body,
  })
  return { status: res.status, text: new TextDecoder().decode(await res.arrayBuffer()) }
}

const ZERO = '0'.repeat(40)
/** [who, token, ref, before, after, GitLab's refusal or null]. */
type PushCase = [string, string, string, string, string, string | null]

contract('protected tags: git pushes (pre-receive TagCheck)', {}, ({ api }) => {
  const PUSHES: PushCase[] = [
    ['elena', 'glpat-elena-fakelab', 'refs/tags/release-3', ZERO, MAIN, 'You are not allowed to create this tag as it is protected.'],
    ['max', 'glpat-max-fakelab', 'refs/tags/release-3', ZERO, MAIN, null],
    ['elena', 'glpat-elena-fakelab', 'refs/tags/v3', ZERO, MAIN, null],
  ]

  it.each(PUSHES)('%s pushes %s', async (user, token, ref, before, after, refusal) => {
    const res = await receivePack(api.baseUrl, user, token, ref, before, after)
    expect(res.status).toBe(200)
    const name = ref.slice('refs/tags/'.length)
    if (refusal) {
      expect(res.text).toContain(`GitLab: ${refusal}`)
      expect(res.text).toContain(`ng ${ref} pre-receive hook declined`)
      expect((await api.get(`/projects/20/repository/tags/${name}`, { as: 'max' })).status).toBe(404)
    } else {
      expect(res.text).toContain(`ok ${ref}`)
      expect((await api.get(`/projects/20/repository/tags/${name}`, { as: 'max' })).body).toMatchObject({ name, target: after, protected: name.startsWith('release-') })
    }
  })

  it('nobody moves or deletes a protected tag by a push; an unprotected one moves', async () => {
    expect((await api.post('/projects/20/repository/tags', { as: 'max', body: { tag_name: 'release-4', ref: 'main' } })).status).toBe(201)
    const footer = (await api.get('/projects/20/repository/tags/v0.9.0', { as: 'max' })).body.target as string
    const moved = await receivePack(api.baseUrl, 'root', 'glpat-root-fakelab', 'refs/tags/release-4', MAIN, footer)
    expect(moved.text).toContain('GitLab: Protected tags cannot be updated.')
    const deleted = await receivePack(api.baseUrl, 'max', 'glpat-max-fakelab', 'refs/tags/release-4', MAIN, ZERO)
    expect(deleted.text).toContain('GitLab: Protected tags cannot be deleted.')
    expect((await api.get('/projects/20/repository/tags/release-4', { as: 'max' })).body.commit.id).toBe(MAIN)
    // v0.9.0 is not protected: a developer (admin_tag = push_code) moves it.
    const unprotected = await receivePack(api.baseUrl, 'elena', 'glpat-elena-fakelab', 'refs/tags/v0.9.0', footer, MAIN)
    expect(unprotected.text).toContain('ok refs/tags/v0.9.0')
  })
})
