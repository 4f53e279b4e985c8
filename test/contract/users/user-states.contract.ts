/**
 * A user's state changes beyond block and unblock, over both doors: `POST /users/:id/activate`,
 * `/deactivate` and `/approve` as GitLab 13.12 CE has them (`reject` is 14.3), with the user
 * entity's `state` following and authentication refusing a deactivated or pending user.
 * Source: gitlab: lib/api/users.rb (13.12), app/services/users/approve_service.rb,
 * app/models/user.rb (`can_be_deactivated?`, `MINIMUM_INACTIVE_DAYS` 90),
 * lib/gitlab/auth/user_access_denied_reason.rb, doc/api/users.md.
 *
 * Default scenario (now 2021-04-01): root (1) administrator; nora (7); elena (9) active
 * 2021-03-31; xavier (10) active 2021-02-15; bianca (11) blocked, lars (12) LDAP-blocked, dee (13)
 * deactivated. The variant adds penny (15), pending approval.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, expect, it } from 'vitest'
import type { ManualClock } from '../../../src/core/clock.js'
import { contract } from '../../support/contract.js'

const DEFAULT_YAML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'default.yaml'), 'utf8')
const WITH_PENDING = DEFAULT_YAML.replace(
  '  # --- end arrange-directory ---',
  '  - { id: 15, username: penny, name: Penny Pending, email: penny@example.com, state: blocked_pending_approval, tokens: [{ token: glpat-penny-fakelab, name: default, scopes: [api] }] }\n  # --- end arrange-directory ---',
)
const FORBIDDEN = { message: '403 Forbidden' }
const UNAUTHORIZED = { message: '401 Unauthorized' }
const USER_NOT_FOUND = { message: '404 User Not Found' }
const BLOCKED_ACTIVATE = { message: '403 Forbidden - A blocked user must be unblocked to be activated' }
const BLOCKED_DEACTIVATE = { message: '403 Forbidden - A blocked user cannot be deactivated by the API' }
const RECENT = { message: '403 Forbidden - The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated' }
const NOT_PENDING = { message: 'The user you are trying to approve is not pending an approval' }

contract('POST /users/:id/deactivate and /activate', {}, ({ api, sim }) => {
  beforeEach(() => (sim().clock as ManualClock).set('2021-04-01T12:00:00.000Z'))

  it('deactivates a user inactive for 90 days (201 true): state deactivated, API refused; activate brings them back', async () => {
    // Half a year on, nobody of the scenario has been active for 90 days.
    ;(sim().clock as ManualClock).set('2021-10-01T12:00:00.000Z')
    expect(await api.post('/users/7/deactivate', { as: 'root' }).then((r) => [r.status, r.body])).toEqual([201, true])
    expect(await api.get('/users/7', { as: 'root' }).then((r) => r.body.state)).toBe('deactivated')
    const refused = await api.get('/user', { as: 'nora' })
    expect([refused.status, refused.body.message]).toEqual([403, expect.stringMatching(/^403 Forbidden - Your account has been deactivated by your administrator\. Please log back in from a web browser to reactivate your account at http/)])
    // Already deactivated: `break` leaves the endpoint with nil.
    expect(await api.post('/users/7/deactivate', { as: 'root' }).then((r) => [r.status, r.body])).toEqual([201, null])
    expect(await api.post('/users/7/activate', { as: 'root' }).then((r) => [r.status, r.body])).toEqual([201, true])
    expect(sim().db.tables.users.get(7)!.state).toBe('active')
    expect((await api.get('/user', { as: 'nora' })).status).toBe(200)
  })

  it.each([
    ['active yesterday (elena)', 9, RECENT],
    ['active 45 days ago (xavier)', 10, RECENT],
    ['blocked (bianca)', 11, BLOCKED_DEACTIVATE],
    ['LDAP-blocked (lars)', 12, BLOCKED_DEACTIVATE],
  ])('refuses to deactivate a user %s', async (_, id, body) => {
    const before = sim().snapshot().db
    expect(await api.post(`/users/${id}/deactivate`, { as: 'root' })).toBeGitLabError(403, body)
    expect(sim().snapshot().db).toEqual(before)
  })

  it.each([
    ['an active user: false (no transition)', 7, 201, false],
    ['a blocked user', 11, 403, BLOCKED_ACTIVATE],
    ['an LDAP-blocked user', 12, 403, BLOCKED_ACTIVATE],
    ['an unknown user', 999, 404, USER_NOT_FOUND],
  ])('activate: %s', async (_, id, status, body) => {
    const res = await api.post(`/users/${id}/activate`, { as: 'root' })
    if (status === 201) expect([res.status, res.body]).toEqual([201, body])
    else expect(res).toBeGitLabError(status, body as object)
  })

  it('deactivates nobody for a non-administrator (403) or without a token (401); 404 for an unknown user', async () => {
    for (const path of ['/users/7/deactivate', '/users/13/activate']) {
      expect(await api.post(path, { as: 'olive' })).toBeGitLabError(403, FORBIDDEN)
      expect(await api.post(path, {})).toBeGitLabError(401, UNAUTHORIZED)
    }
    expect(await api.post('/users/999/deactivate', { as: 'root' })).toBeGitLabError(404, USER_NOT_FOUND)
  })
})

contract('POST /users/:id/approve', { scenario: WITH_PENDING }, ({ api, sim }) => {
  it('approves a user pending approval: 201 with the service result, state active, token then accepted', async () => {
    expect(await api.get('/user', { as: 'penny' })).toBeGitLabError(403, { message: '403 Forbidden - Your account is pending approval from your administrator and hence blocked.' })
    expect(await api.get('/users/15', { as: 'root' }).then((r) => r.body.state)).toBe('blocked_pending_approval')
    const res = await api.post('/users/15/approve', { as: 'root' })
    expect([res.status, res.text]).toEqual([201, '{"message":"Success","http_status":"created","status":"success"}'])
    expect(sim().db.tables.users.get(15)!.state).toBe('active')
    expect((await api.get('/user', { as: 'penny' })).status).toBe(200)
    expect(await api.post('/users/15/approve', { as: 'root' })).toBeGitLabError(409, NOT_PENDING)
  })

  it.each([
    ['an active user', 7, 409, NOT_PENDING],
    ['a blocked user', 11, 409, NOT_PENDING],
    ['a deactivated user', 13, 409, NOT_PENDING],
    ['an unknown user', 999, 404, USER_NOT_FOUND],
  ])('refuses %s', async (_, id, status, body) => {
    expect(await api.post(`/users/${id}/approve`, { as: 'root' })).toBeGitLabError(status, body)
  })

  it("a non-administrator gets the service's 403, an anonymous caller 401", async () => {
    expect(await api.post('/users/15/approve', { as: 'olive' })).toBeGitLabError(403, { message: 'You are not allowed to approve a user' })
    expect(await api.post('/users/15/approve', {})).toBeGitLabError(401, UNAUTHORIZED)
    expect(sim().db.tables.users.get(15)!.state).toBe('blocked_pending_approval')
  })

  it('a pending user is blocked? for block (201 null), and unblock activates them', async () => {
    expect(await api.post('/users/15/block', { as: 'root' }).then((r) => [r.status, r.body])).toEqual([201, null])
    expect(await api.post('/users/15/activate', { as: 'root' })).toBeGitLabError(403, BLOCKED_ACTIVATE)
    expect(await api.post('/users/15/deactivate', { as: 'root' })).toBeGitLabError(403, BLOCKED_DEACTIVATE)
    expect(await api.post('/users/15/unblock', { as: 'root' }).then((r) => [r.status, r.body])).toEqual([201, true])
    expect(sim().db.tables.users.get(15)!.state).toBe('active')
  })
})
