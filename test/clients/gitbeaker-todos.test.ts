/**
 * @gitbeaker/rest, unmodified, on to-dos and notification settings (todos and notification-settings
 * areas): list and complete to-dos, mark an issue as a to-do (then 304), change and restore global,
 * group and project notification levels. Runs against `startServer` on the default scenario.
 */
import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'

let server: RunningServer
let devon: InstanceType<typeof Gitlab<false>>
let nadia: InstanceType<typeof Gitlab<false>>

beforeAll(async () => {
  server = await startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
  devon = new Gitlab({ host: server.url, token: 'glpat-devon-fakelab' })
  nadia = new Gitlab({ host: server.url, token: 'glpat-nadia-fakelab' })
})
afterAll(() => server.close())

async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call
    return undefined
  } catch (error) {
    return (error as { cause?: { response?: Response } }).cause?.response?.status
  }
}

describe('@gitbeaker/rest: to-dos', () => {
  it('lists, filters, marks and completes to-dos', async () => {
    expect((await devon.TodoLists.all()).map((t) => t.id)).toEqual([606, 603, 601])
    expect((await devon.TodoLists.all({ type: 'MergeRequest' })).map((t) => t.id)).toEqual([603])
    const all = await devon.TodoLists.all({ perPage: 1 })
    expect(all.map((t) => t.id)).toEqual([606, 603, 601])

    const done = await devon.TodoLists.done({ todoId: 601 })
    expect(done).toMatchObject({ id: 601, state: 'done', action_name: 'assigned' })
    expect(await statusOf(devon.TodoLists.done({ todoId: 604 }))).toBe(404)

    const marked = await devon.Issues.createTodo(20, 3)
    expect(marked).toMatchObject({ action_name: 'marked', state: 'pending', target: { iid: 3 } })
    expect(await statusOf(devon.Issues.createTodo(20, 3))).toBe(304)

    await devon.TodoLists.done()
    expect(await devon.TodoLists.all()).toEqual([])
    expect((await devon.TodoLists.all({ state: 'done' })).map((t) => t.id)).toContain(marked.id)
  })
})

describe('@gitbeaker/rest: notification settings', () => {
  it('changes and restores the global level', async () => {
    const before = await nadia.NotificationSettings.show()
    expect(before).toEqual({ level: 'watch', notification_email: 'nadia@work.example.com' })
    const changed = await nadia.NotificationSettings.edit({ level: 'mention', notificationEmail: 'nadia@example.com' })
    expect(changed).toEqual({ level: 'mention', notification_email: 'nadia@example.com' })
    const restored = await nadia.NotificationSettings.edit({ level: before.level, notificationEmail: before.notification_email })
    expect(restored).toEqual(before)
    expect(await statusOf(nadia.NotificationSettings.edit({ level: 'loud' }))).toBe(400)
  })

  it('changes and restores group and project levels, custom events included', async () => {
    expect(await nadia.NotificationSettings.show({ projectId: 'acme/website' })).toEqual({ level: 'disabled' })
    expect(await nadia.NotificationSettings.edit({ projectId: 'acme/website', level: 'watch' })).toEqual({ level: 'watch' })
    expect(await nadia.NotificationSettings.edit({ projectId: 'acme/website', level: 'disabled' })).toEqual({ level: 'disabled' })

    const group = await nadia.NotificationSettings.show({ groupId: 'acme' })
    expect(group).toMatchObject({ level: 'custom', events: { new_note: true, new_issue: false, new_epic: true, close_issue: null } })
    const custom = await nadia.NotificationSettings.edit({ groupId: 10, level: 'custom', closeIssue: true })
    expect(custom).toMatchObject({ level: 'custom', events: { close_issue: true } })
    expect(await nadia.NotificationSettings.edit({ groupId: 10, level: 'global' })).toEqual({ level: 'global' })
  })
})
