/**
 * @gitbeaker/rest, unmodified, on the arranging writes of projects, groups and users and the user
 * lookup by username (issue 16 part 4, issue 15 part 6): `Projects.create`, `Users.all({ username })`,
 * `Groups.create`, and the lookups around them.
 */
import { Gitlab } from '@gitbeaker/rest'
import { beforeAll, describe, expect, it } from 'vitest'
import { serveDefaultScenario } from '../support/clients.js'
let api: InstanceType<typeof Gitlab<false>>

const fakelab = serveDefaultScenario()

beforeAll(() => {
  api = new Gitlab({ host: fakelab.url, token: 'glpat-root-fakelab' })
})

describe('@gitbeaker/rest on projects, groups and users', () => {
  it('creates a group and a project in it, and deletes the project', async () => {
    const group = await api.Groups.create('Beaker Group', 'beaker-group', { description: 'from gitbeaker' })
    expect(group).toMatchObject({ name: 'Beaker Group', full_path: 'beaker-group', description: 'from gitbeaker' })
    const project = await api.Projects.create({ name: 'Beaker Project', namespaceId: group.id as number })
    expect(project).toMatchObject({ path_with_namespace: 'beaker-group/beaker-project', namespace: { id: group.id } })
    const again = await api.Projects.create({ name: 'Beaker Project', namespaceId: group.id as number }).catch((error: { cause?: { response?: Response } }) => error.cause?.response?.status)
    expect(again).toBe(400)
    await api.Projects.remove(project.id as number)
    const listed = await api.Projects.all({ search: 'beaker', owned: true })
    expect(listed).toEqual([])
  })

  it('looks a user up by username and finds a user created through the API', async () => {
    const [devon] = await api.Users.all({ username: 'devon' })
    expect(devon).toMatchObject({ id: 4, username: 'devon', is_admin: false })
    const created = await api.Users.create({ email: 'beaker@example.com', password: 'beaker-password', username: 'beaker', name: 'Beaker' })
    const found = await api.Users.all({ username: 'beaker' })
    expect(found.map((u) => u.id)).toEqual([created.id])
    const anonymous = new Gitlab({ host: fakelab.url, token: '' })
    expect((await anonymous.Users.all({ username: 'max' })).map((u) => u.username)).toEqual(['max'])
  })
})
