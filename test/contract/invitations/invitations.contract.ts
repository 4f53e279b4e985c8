/**
 * Project and group invitations (issue 37 item 5), GitLab 13.12's invitations.rb over both doors
 * on the default scenario (frozen at 2021-04-01T12:00Z; project 20 acme/website "Website", group
 * acme "Acme"; max maintainer of acme, olive owner, devon developer; nora without memberships,
 * nora@example.com). An existing user's email makes the user a member at once (a `joined` event,
 * a system hook); any other address is a pending invitation listed with its `invite_email`.
 * Source: gitlab: lib/api/invitations.rb, lib/api/entities/invitation.rb,
 * app/services/members/invite_service.rb, app/models/member.rb, doc/api/invitations.md (13.12).
 */
import { expect, it } from 'vitest'
import { createSimulator } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'

contract('invitations', {}, ({ api, sim }) => {
  it('invites a new address as a pending invitation and lists it, for projects and groups', async () => {
    for (const [prefix, as] of [['/projects/20', 'max'], ['/groups/acme', 'olive']] as const) {
      const res = await api.post(`${prefix}/invitations`, { as, body: { email: 'new@example.org', access_level: 30, expires_at: '2021-12-31' } })
      expect([res.status, res.body]).toEqual([201, { status: 'success' }])
      const list = await api.get(`${prefix}/invitations`, { as: 'devon' })
      expect(list.status).toBe(200)
      expect(list.body).toEqual([{ access_level: 30, requested_at: null, expires_at: '2021-12-31', invite_email: 'new@example.org', invite_token: expect.stringMatching(/^[0-9a-f]{64}$/), user_id: null }])
      expect(Object.keys(list.body[0])).toEqual(['access_level', 'requested_at', 'expires_at', 'invite_email', 'invite_token', 'user_id'])
      expect(list.headers.get('x-total')).toBe('1')
      expect((await api.get(`${prefix}/invitations`, { as: 'devon', query: { query: 'new@example.org' } })).body).toHaveLength(1)
      expect((await api.get(`${prefix}/invitations`, { as: 'devon', query: { query: 'NEW@example.org' } })).body).toEqual([])
    }
    // A pending invitation is no member: the direct members in force are the scenario's two.
    expect((await api.get('/projects/20/members', { as: 'max' })).body.map((m: any) => m.username)).toEqual(['elena', 'project_20_bot'])
  })

  it("adds an existing user's address as a member at once, with a joined event", async () => {
    const res = await api.post('/projects/20/invitations', { as: 'max', body: { email: 'nora@example.com', access_level: 20 } })
    expect([res.status, res.body]).toEqual([201, { status: 'success' }])
    const member = await api.get('/projects/20/members/7', { as: 'max' })
    expect([member.status, member.body.access_level, member.body.created_at]).toEqual([200, 20, NOW])
    expect((await api.get('/projects/20/invitations', { as: 'max' })).body).toEqual([])
    expect((await api.get('/users/nora/events', { as: 'nora' })).body.map((e: any) => e.action_name)).toEqual(['joined'])
  })

  it('answers the per-email error hash: already a member, already invited, invalid membership; the others are done', async () => {
    await api.post('/projects/20/invitations', { as: 'max', body: { email: 'first@example.org', access_level: 30 } })
    const res = await api.post('/projects/20/invitations', { as: 'max', body: { email: 'elena@example.com,first@example.org,second@example.org,FIRST@example.org', access_level: 30 } })
    expect([res.status, res.body]).toEqual([201, {
      message: {
        'elena@example.com': 'Already a member of Website',
        'first@example.org': 'Member already invited to Website',
        'FIRST@example.org': 'Member already invited to Website',
      },
      status: 'error',
    }])
    expect(Object.keys(res.body)).toEqual(['message', 'status'])
    expect((await api.get('/projects/20/invitations', { as: 'max' })).body.map((i: any) => i.invite_email)).toEqual(['first@example.org', 'second@example.org'])
    // Owner (50) is not a project's level; a past expiry is refused; for a user and a new address alike.
    const bad = await api.post('/projects/20/invitations', { as: 'max', body: { email: 'nora@example.com,third@example.org', access_level: 50 } })
    expect(bad.body).toEqual({ message: { 'nora@example.com': 'Access level is not included in the list', 'third@example.org': 'Access level is not included in the list' }, status: 'error' })
    const past = await api.post('/groups/acme/invitations', { as: 'olive', body: { email: 'third@example.org', access_level: 10, expires_at: '2021-03-01' } })
    expect(past.body).toEqual({ message: { 'third@example.org': 'Expires at cannot be a date in the past' }, status: 'error' })
    expect((await api.get('/groups/acme/invitations', { as: 'olive' })).body).toEqual([])
  })

  it("answers GitLab's parameter and service errors", async () => {
    expect(await api.post('/projects/20/invitations', { as: 'max', body: { email: 'not-an-email', access_level: 30 } })).toBeGitLabError(400, { error: 'email contains an invalid email address' })
    expect(await api.post('/projects/20/invitations', { as: 'max', body: { email: 'a@example.org', access_level: 35 } })).toBeGitLabError(400, { error: 'access_level does not have a valid value' })
    expect(await api.post('/projects/20/invitations', { as: 'max', body: {} })).toBeGitLabError(400, { error: 'email is missing, access_level is missing' })
    const blank = await api.post('/projects/20/invitations', { as: 'max', body: { email: '', access_level: 30 } })
    expect([blank.status, blank.body]).toEqual([201, { message: 'Email cannot be blank', status: 'error' }])
    const many = Array.from({ length: 101 }, (_, i) => `u${i}@example.org`).join(',')
    const tooMany = await api.post('/projects/20/invitations', { as: 'max', body: { email: many, access_level: 30 } })
    expect([tooMany.status, tooMany.body]).toEqual([201, { message: 'Too many users specified (limit is 100)', status: 'error' }])
    expect(await api.post('/projects/20/invitations', { body: { email: 'a@example.org', access_level: 30 } })).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.post('/projects/20/invitations', { as: 'devon', body: { email: 'a@example.org', access_level: 30 } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/groups/acme/invitations', { as: 'max', body: { email: 'a@example.org', access_level: 30 } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/projects/21/invitations', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect((await api.get('/projects/20/invitations', { as: 'nora' })).status).toBe(200)
  })

  it('updates and deletes a pending invitation by its email', async () => {
    await api.post('/groups/acme/invitations', { as: 'olive', body: { email: 'guest@example.org', access_level: 10 } })
    const updated = await api.put('/groups/acme/invitations/guest@example.org', { as: 'olive', body: { access_level: 40, expires_at: '2021-09-30' } })
    expect([updated.status, updated.body]).toEqual([200, { access_level: 40, created_at: NOW, expires_at: '2021-09-30' }])
    expect((await api.get('/groups/acme/invitations', { as: 'olive' })).body[0]).toMatchObject({ access_level: 40, expires_at: '2021-09-30' })
    const cleared = await api.put('/groups/acme/invitations/guest@example.org', { as: 'olive', body: { expires_at: '' } })
    expect(cleared.body.expires_at).toBeNull()
    expect(await api.put('/groups/acme/invitations/guest@example.org', { as: 'olive', body: {} })).toBeGitLabError(400, { message: '400 Bad request' })
    expect(await api.put('/groups/acme/invitations/guest@example.org', { as: 'olive', body: { expires_at: '2021-01-01' } })).toBeGitLabError(400, { message: { expires_at: ['cannot be a date in the past'] } })
    expect(await api.put('/groups/acme/invitations/other@example.org', { as: 'olive', body: { access_level: 20 } })).toBeGitLabError(404, { message: '404 Not found' })
    expect(await api.put('/groups/acme/invitations/guest@example.org', { as: 'max', body: { access_level: 20 } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.delete('/groups/acme/invitations/guest@example.org', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect((await api.delete('/groups/acme/invitations/guest@example.org', { as: 'olive' })).status).toBe(204)
    expect(await api.delete('/groups/acme/invitations/guest@example.org', { as: 'olive' })).toBeGitLabError(404, { message: '404 Not found' })
    expect((await api.get('/groups/acme/invitations', { as: 'olive' })).body).toEqual([])
  })

  it("loads a scenario's invitations: of groups and projects, and refuses a bad one", async () => {
    const scenario = {
      version: 1 as const,
      users: [{ username: 'root', admin: true }],
      groups: [{ path: 'lab', invitations: [{ email: 'g@example.org', access_level: 'maintainer', expires_at: '2030-01-01', created_at: '2021-01-02T03:04:05Z' }] }],
      projects: [{ path: 'app', namespace: 'lab', invitations: [{ email: 'p@example.org', access_level: 20, invite_token: 'b'.repeat(64) }] }],
    }
    const loaded = createSimulator({ scenario })
    const rows = loaded.db.tables.member_invitations.all().map((r) => [r.source_type, r.invite_email, r.access_level, r.expires_at])
    expect(rows).toEqual([['group', 'g@example.org', 40, '2030-01-01'], ['project', 'p@example.org', 20, null]])
    expect(loaded.db.tables.member_invitations.all()[0]!.created_at).toBe('2021-01-02T03:04:05.000Z')
    expect(loaded.db.tables.member_invitations.all()[1]!.invite_token).toBe('b'.repeat(64))
    expect(() => createSimulator({ scenario: { ...scenario, projects: [{ path: 'app', namespace: 'lab', invitations: [{ email: 'nope', access_level: 'boss' }] }] } as never })).toThrow(/must be one email address[\s\S]*must be one of 10, 20, 30, 40, 50/)
  })

  it('keeps pending invitations in a state export', async () => {
    await api.post('/projects/20/invitations', { as: 'max', body: { email: 'kept@example.org', access_level: 20, expires_at: '2021-12-31' } })
    const rows = sim().db.tables.member_invitations.all()
    expect(rows.map((r) => [r.source_type, r.source_id, r.invite_email, r.access_level, r.expires_at, r.created_by_id])).toEqual([['project', 20, 'kept@example.org', 20, '2021-12-31', 5]])
    const again = createSimulator({ scenario: sim().exportState() })
    expect(again.db.tables.member_invitations.all()).toEqual(rows)
  })
})
