/**
 * @gitbeaker/rest, unmodified, against `startServer` on the default scenario (issue 9, "Done
 * when"): create a project access token, use its secret for a later call, revoke it and see the
 * next call refused; add, update and remove a member; list members with inherited ones; billable
 * members and the override flag of a group.
 */
import { Gitlab } from '@gitbeaker/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { serveDefaultScenario, statusOf } from '../support/clients.js'

let max: InstanceType<typeof Gitlab<false>>
let olive: InstanceType<typeof Gitlab<false>>

const fakelab = serveDefaultScenario()

beforeAll(() => {
  max = new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' })
  olive = new Gitlab({ host: fakelab.url, token: 'glpat-olive-fakelab' })
})

describe('@gitbeaker/rest: members and project access tokens', () => {
  it('creates a project access token, uses its secret, revokes it and is refused after', async () => {
    const created = await max.ProjectAccessTokens.create('acme/website', 'gitbeaker', ['api'], '2021-12-31')
    expect(created).toMatchObject({ name: 'gitbeaker', scopes: ['api'], active: true, revoked: false, expires_at: '2021-12-31' })
    const token = (created as unknown as { token: string }).token
    expect(token).toMatch(/^[A-Za-z0-9]{20}$/)

    const bot = new Gitlab({ host: fakelab.url, token })
    expect((await bot.Users.showCurrentUser()).id).toBe(created.user_id)
    expect((await bot.Projects.show(20)).id).toBe(20)

    const listed = await max.ProjectAccessTokens.all(20)
    expect(listed.map((t) => t.id)).toContain(created.id)
    expect(listed.every((t) => !('token' in t))).toBe(true)

    await max.ProjectAccessTokens.revoke(20, created.id)
    expect(await statusOf(bot.Projects.show(20))).toBe(401)
    expect((await max.ProjectAccessTokens.all(20)).map((t) => t.id)).not.toContain(created.id)
  })

  it('adds, updates and removes a project member', async () => {
    const added = await max.ProjectMembers.add('acme/website', 30, { userId: 8, expiresAt: '2021-12-31' })
    expect(added).toMatchObject({ id: 8, username: 'oscar', access_level: 30, expires_at: '2021-12-31' })
    expect((await max.ProjectMembers.show(20, 8)).access_level).toBe(30)

    const edited = await max.ProjectMembers.edit(20, 8, 40)
    expect(edited.access_level).toBe(40)

    const direct = await max.ProjectMembers.all(20)
    // By membership id, as GitLab pages them: the scenario's members first, oscar last.
    expect(direct.map((m) => m.id)).toEqual([9, 90, 8])
    const all = await max.ProjectMembers.all(20, { includeInherited: true })
    expect(all.map((m) => [m.id, m.access_level])).toEqual(expect.arrayContaining([[6, 50], [8, 40], [4, 30]]))
    expect((await max.ProjectMembers.show(20, 4, { includeInherited: true })).access_level).toBe(30)

    await max.ProjectMembers.remove(20, 8)
    expect(await statusOf(max.ProjectMembers.show(20, 8))).toBe(404)
    expect(await statusOf(max.ProjectMembers.add(20, 30, { userId: 9 }))).toBe(409)
  })

  it('adds, updates and removes a group member, and sets the override flag', async () => {
    await olive.GroupMembers.add('acme', 20, { userId: 8 })
    expect((await olive.GroupMembers.edit('acme', 8, 30)).access_level).toBe(30)
    // acme has no LDAP group links: no one may override (EE `override_group_member`); with one, its Owner may.
    expect(await statusOf(olive.GroupMembers.setOverrideFlag('acme', 8))).toBe(403)
    const link = fakelab.sim.db.tables.ldap_group_links.insert({ group_id: 10, cn: 'acme', group_access: 30, provider: 'ldapmain' })
    expect((await olive.GroupMembers.setOverrideFlag('acme', 8)).override).toBe(true)
    expect((await olive.GroupMembers.removeOverrideFlag('acme', 8)).override).toBe(false)
    fakelab.sim.db.tables.ldap_group_links.delete(link.id)
    await olive.GroupMembers.remove('acme', 8)
    expect(await statusOf(olive.GroupMembers.show('acme', 8))).toBe(404)
    expect(await statusOf(max.GroupMembers.add('acme', 20, { userId: 8 }))).toBe(403)
  })

  it('lists billable members and one member\'s memberships', async () => {
    const billable = await olive.GroupMembers.allBillable('acme', { sort: 'name_asc' } as never)
    expect(billable.map((m) => m.username)).toEqual(['devon', 'elena', 'gina', 'max', 'olive', 'riley'])
    const memberships = await olive.GroupMembers.allBillableMemberships('acme', 9)
    expect(memberships.map((m) => [m.source_id, m.access_level.integer_value])).toEqual([[20, 30]])
    expect(await statusOf(max.GroupMembers.allBillable('acme'))).toBe(400)
  })
})
