/**
 * Runners through @gitbeaker/rest, unmodified, against `startServer` on the default scenario
 * (issue 7 "Done when"): register with a project registration token, verify, list with filters,
 * pause, enable in a second project, disable from the first, delete by token; each step is checked
 * in later reads. max maintains acme/website (20) and acme/handbook (23).
 */
import { Gitlab } from '@gitbeaker/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { statusOf, serveDefaultScenario } from '../support/clients.js'
let api: InstanceType<typeof Gitlab<false>>

const fakelab = serveDefaultScenario()

beforeAll(() => {
  api = new Gitlab({ host: fakelab.url, token: 'glpat-max-fakelab' })
})

const idsOf = (runners: unknown) => (runners as { id: number }[]).map((r) => r.id)

describe('@gitbeaker/rest runners', () => {
  it('registers, verifies, lists, pauses, enables, disables and deletes a runner', async () => {
    // Register with acme/website's registration token.
    const registered = await api.Runners.register('GR1348941WebsiteRunnerToken01', {
      description: 'gitbeaker-runner',
      tagList: ['gb', 'linux'],
      info: { version: '13.10.0', platform: 'linux' },
    } as Parameters<typeof api.Runners.register>[1])
    expect(Object.keys(registered)).toEqual(['id', 'token'])
    const { id, token } = registered as unknown as { id: number; token: string }
    expect((await api.Runners.show(id)).status).toBe('not_connected')

    // Verify with the authentication token: the runner has now contacted the instance.
    await api.Runners.verify({ token } as Parameters<typeof api.Runners.verify>[0])
    expect(await statusOf(api.Runners.verify({ token: 'wrong' } as Parameters<typeof api.Runners.verify>[0]))).toBe(403)
    const verified = await api.Runners.show(id)
    expect(verified).toMatchObject({ id, status: 'online', online: true, runner_type: 'project_type', tag_list: ['gb', 'linux'], version: '13.10.0', platform: 'linux' })

    // List it with filters.
    expect(idsOf(await api.Runners.all({ owned: true, type: 'project_type', tagList: ['gb'] } as Parameters<typeof api.Runners.all>[0]))).toEqual([id])
    expect(idsOf(await api.Runners.all({ owned: true, status: 'online' } as Parameters<typeof api.Runners.all>[0]))).toContain(id)
    expect(idsOf(await api.Runners.all({ projectId: 20, type: 'project_type' } as Parameters<typeof api.Runners.all>[0]))).toEqual([5, 6, 10, id])

    // Pause it.
    expect((await api.Runners.edit(id, { active: false })).status).toBe('paused')
    expect(idsOf(await api.Runners.all({ owned: true, status: 'paused' } as Parameters<typeof api.Runners.all>[0]))).toEqual([id])

    // Enable it in a second project, then disable it from the first.
    expect((await api.Runners.enable(23, id)).id).toBe(id)
    expect((await api.Runners.show(id)).projects.map((p: { id: number }) => p.id)).toEqual([20, 23])
    await api.Runners.disable(20, id)
    expect((await api.Runners.show(id)).projects.map((p: { id: number }) => p.id)).toEqual([23])
    expect(idsOf(await api.Runners.all({ projectId: 20 }))).not.toContain(id)
    expect(await statusOf(api.Runners.disable(23, id))).toBe(403)

    // Delete it by its authentication token.
    await api.Runners.remove({ token })
    expect(await statusOf(api.Runners.show(id))).toBe(404)
    expect(await statusOf(api.Runners.verify({ token } as Parameters<typeof api.Runners.verify>[0]))).toBe(403)
  })

  it('lists a runner\'s jobs in order, following every page', async () => {
    const jobs = (await api.Runners.allJobs(5, { orderBy: 'id', sort: 'asc', perPage: 1 })) as { id: number }[]
    expect(jobs.map((j) => j.id)).toEqual([2000, 2001, 2002, 2003])
    expect(jobs[0]).toMatchObject({ status: 'success', pipeline: { id: 1000 }, project: { id: 20 }, user: { username: 'devon' } })
  })
})
