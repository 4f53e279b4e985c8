/**
 * A real client, unmodified: @gitbeaker/rest against `fakelab serve`'s server on the default
 * scenario. Covers the label life cycle (create, update, subscribe then 304, promote, delete), the
 * group milestone life cycle and freeze period CRUD, as a GitLab user would script them.
 */
import { Gitlab } from '@gitbeaker/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { statusOf, serveDefaultScenario } from '../support/clients.js'
let api: InstanceType<typeof Gitlab<false>>

const fakelab = serveDefaultScenario()

beforeAll(() => {
  api = new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' })
})

describe('@gitbeaker/rest', () => {
  it('reads the current user and follows every page of a list', async () => {
    expect((await api.Users.showCurrentUser()).username).toBe('max')
    const all = await api.Projects.all({ perPage: 2, orderBy: 'id', sort: 'asc' })
    expect(all.map((p) => p.id)).toEqual([20, 21, 23, /* issues area: */ 30])
  })

  it('runs the label life cycle', async () => {
    const created = await api.ProjectLabels.create('acme/website', 'client test', 'rebeccapurple', { description: 'from gitbeaker' })
    expect(created).toMatchObject({ name: 'client test', color: '#663399', text_color: '#FFFFFF', description: 'from gitbeaker' })

    const listed = await api.ProjectLabels.all(20)
    expect(listed.map((l) => l.name)).toContain('client test')

    await api.ProjectLabels.edit(20, created.id, { newName: 'client-test' })
    const edited = await api.ProjectLabels.edit(20, 'client-test', { color: '#00ff00' })
    expect(edited).toMatchObject({ id: created.id, name: 'client-test', color: '#00ff00' })

    // gitbeaker 43.8's ProjectLabels.subscribe posts to /projects/:id/issues/:label_id/subscribe (a
    // client bug), so the subscription goes through the same client's generic requester instead.
    const subscribe = (action: string) => api.requester.post(`projects/20/labels/client-test/${action}`, {})
    expect(((await subscribe('subscribe')).body as { subscribed: boolean }).subscribed).toBe(true)
    expect(await statusOf(subscribe('subscribe'))).toBe(304)
    expect(((await subscribe('unsubscribe')).body as { subscribed: boolean }).subscribed).toBe(false)

    const promoted = await api.ProjectLabels.promote(20, created.id)
    expect(promoted).toMatchObject({ id: created.id, name: 'client-test' })
    expect((await api.GroupLabels.show('acme', created.id)).name).toBe('client-test')

    await api.GroupLabels.remove('acme', created.id)
    expect(await statusOf(api.GroupLabels.show('acme', created.id))).toBe(404)
  })

  it('runs the group milestone life cycle', async () => {
    const milestone = await api.GroupMilestones.create('acme', 'v3.0', { description: 'next', dueDate: '2021-09-30', startDate: '2021-07-01' })
    expect(milestone).toMatchObject({ title: 'v3.0', group_id: 10, state: 'active', expired: false, due_date: '2021-09-30' })

    const closed = await api.GroupMilestones.edit('acme', milestone.id, { stateEvent: 'close' })
    expect(closed.state).toBe('closed')
    const active = await api.GroupMilestones.edit('acme', milestone.id, { stateEvent: 'activate', title: 'v3.0.0' })
    expect(active).toMatchObject({ state: 'active', title: 'v3.0.0' })

    const issues = await api.GroupMilestones.allAssignedIssues('acme', 200)
    expect(issues.map((i) => i.iid).sort()).toEqual([1, 2])
    const mergeRequests = await api.GroupMilestones.allAssignedMergeRequests('acme', 200)
    expect(mergeRequests.map((m) => m.iid)).toEqual([1])

    await api.GroupMilestones.remove('acme', milestone.id)
    expect(await statusOf(api.GroupMilestones.show('acme', milestone.id))).toBe(404)
  })

  it('runs freeze period CRUD', async () => {
    const created = await api.FreezePeriods.create(20, '0 22 * * 5', '0 6 * * 1', { cronTimezone: 'America/New_York' })
    expect(created).toMatchObject({ freeze_start: '0 22 * * 5', freeze_end: '0 6 * * 1', cron_timezone: 'America/New_York' })
    expect((await api.FreezePeriods.show(20, created.id)).id).toBe(created.id)
    const edited = await api.FreezePeriods.edit(20, created.id, { freezeEnd: '0 8 * * 1' })
    expect(edited.freeze_end).toBe('0 8 * * 1')
    expect((await api.FreezePeriods.all(20)).map((f) => f.id)).toContain(created.id)
    await api.FreezePeriods.remove(20, created.id)
    expect(await statusOf(api.FreezePeriods.show(20, created.id))).toBe(404)
  })

  it('surfaces GitLab errors as the client expects', async () => {
    const guest = new Gitlab({ host: fakelab.url, token: 'glpat-gina-fakelab' })
    expect(await statusOf(guest.FreezePeriods.all(20))).toBe(403)
    expect(await statusOf(guest.ProjectLabels.all('acme/nope'))).toBe(404)
  })
})

// --- to-dos and notification settings (todos, notification-settings areas) ---
// List and complete to-dos, mark an issue as a to-do (then 304), change and restore global, group
// and project notification levels, as devon (to-dos) and nadia (notification settings).
const devon = () => new Gitlab({ host: fakelab.url, token: 'glpat-devon-fakelab' })
const nadia = () => new Gitlab({ host: fakelab.url, token: 'glpat-nadia-fakelab' })

describe('@gitbeaker/rest: to-dos', () => {
  it('lists, filters, marks and completes to-dos', async () => {
    expect((await devon().TodoLists.all()).map((t) => t.id)).toEqual([606, 603, 601])
    expect((await devon().TodoLists.all({ type: 'MergeRequest' })).map((t) => t.id)).toEqual([603])
    const all = await devon().TodoLists.all({ perPage: 1 })
    expect(all.map((t) => t.id)).toEqual([606, 603, 601])

    const done = await devon().TodoLists.done({ todoId: 601 })
    expect(done).toMatchObject({ id: 601, state: 'done', action_name: 'assigned' })
    expect(await statusOf(devon().TodoLists.done({ todoId: 604 }))).toBe(404)

    const marked = await devon().Issues.createTodo(20, 3)
    expect(marked).toMatchObject({ action_name: 'marked', state: 'pending', target: { iid: 3 } })
    expect(await statusOf(devon().Issues.createTodo(20, 3))).toBe(304)

    await devon().TodoLists.done()
    expect(await devon().TodoLists.all()).toEqual([])
    expect((await devon().TodoLists.all({ state: 'done' })).map((t) => t.id)).toContain(marked.id)
  })
})

describe('@gitbeaker/rest: notification settings', () => {
  it('changes and restores the global level', async () => {
    const before = await nadia().NotificationSettings.show()
    expect(before).toEqual({ level: 'watch', notification_email: 'nadia@work.example.com' })
    const changed = await nadia().NotificationSettings.edit({ level: 'mention', notificationEmail: 'nadia@example.com' })
    expect(changed).toEqual({ level: 'mention', notification_email: 'nadia@example.com' })
    const restored = await nadia().NotificationSettings.edit({ level: before.level, notificationEmail: before.notification_email })
    expect(restored).toEqual(before)
    expect(await statusOf(nadia().NotificationSettings.edit({ level: 'loud' }))).toBe(400)
  })

  it('changes and restores group and project levels, custom events included', async () => {
    expect(await nadia().NotificationSettings.show({ projectId: 'acme/website' })).toEqual({ level: 'disabled' })
    expect(await nadia().NotificationSettings.edit({ projectId: 'acme/website', level: 'watch' })).toEqual({ level: 'watch' })
    expect(await nadia().NotificationSettings.edit({ projectId: 'acme/website', level: 'disabled' })).toEqual({ level: 'disabled' })

    const group = await nadia().NotificationSettings.show({ groupId: 'acme' })
    expect(group).toMatchObject({ level: 'custom', events: { new_note: true, new_issue: false, new_epic: true, close_issue: false } })
    const custom = await nadia().NotificationSettings.edit({ groupId: 10, level: 'custom', closeIssue: true })
    expect(custom).toMatchObject({ level: 'custom', events: { close_issue: true } })
    expect(await nadia().NotificationSettings.edit({ groupId: 10, level: 'global' })).toEqual({ level: 'global' })
  })
})
// --- end to-dos and notification settings ---
