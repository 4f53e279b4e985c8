/**
 * The repository write primitive (issue 26 items 2 and 5): one commit from a parent and a list of
 * file actions, a ref moved, all inside the store transaction: a write that throws after saving
 * leaves no ref and no object behind; one that succeeds is seen by the next read, survives a
 * state dump and reload, and gives the same SHA for the same inputs.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { loadDefaultScenario } from '../../src/node.js'
import type { Scenario } from '../../src/scenario/index.js'
import { createSimulator as create } from '../../src/simulator.js'
import { ActionError, commitActions, repositoryOf, RepositoryWrite, signatureAt, type CommitAction } from '../../src/resources/repository/repository.public.js'
import { entryAt } from '../../src/resources/repository/repository.service.js'

let scenario: Scenario
beforeAll(async () => {
  scenario = await loadDefaultScenario()
})
const createSimulator = () => create({ scenario })

const text = (s: string) => new TextEncoder().encode(s)
const WHO = signatureAt('Devon Developer', 'devon@example.com', '2021-04-01T12:00:00.000Z')

function website(sim: ReturnType<typeof create>) {
  return sim.db.tables.projects.get(20)!
}

function commitOnMain(sim: ReturnType<typeof create>, actions: CommitAction[]) {
  const project = website(sim)
  const write = new RepositoryWrite(sim.db, project)
  const parent = write.repo.branches.get('main')!
  const id = commitActions(write, { parents: [parent], message: 'Change\n', author: WHO, committer: WHO }, actions)
  write.setBranch('main', id)
  write.save({ userId: null, at: '2021-04-01T12:00:00.000Z', baseUrl: 'http://gitlab.test' })
  return id
}

describe('RepositoryWrite', () => {
  it('makes one commit of every action and moves the branch', () => {
    const sim = createSimulator()
    const before = repositoryOf(sim.db, website(sim)).branches.get('main')!
    const id = sim.db.transaction(() => commitOnMain(sim, [
      { action: 'create', file_path: 'docs/new.md', content: text('new\n') },
      { action: 'chmod', file_path: 'docs/new.md', execute_filemode: true },
      { action: 'move', file_path: 'README.txt', previous_path: 'README.md' },
    ]))
    const repo = repositoryOf(sim.db, website(sim))
    expect(repo.branches.get('main')).toBe(id)
    expect(repo.objects.commit(id)!.parents).toEqual([before])
    const tree = repo.objects.commit(id)!.tree
    expect(entryAt(repo, tree, 'docs/new.md')?.mode).toBe('100755')
    expect(entryAt(repo, tree, 'README.md')).toBeUndefined()
    expect(entryAt(repo, tree, 'README.txt')?.mode).toBe('100644')
  })

  it('leaves no ref and no object behind when the request fails after saving', () => {
    const sim = createSimulator()
    const tip = repositoryOf(sim.db, website(sim)).branches.get('main')!
    const pushes = sim.db.tables.project_repositories.get(20)!.pushes ?? []
    let id = ''
    expect(() => sim.db.transaction(() => {
      id = commitOnMain(sim, [{ action: 'create', file_path: 'gone.txt', content: text('gone\n') }])
      throw new Error('later failure')
    })).toThrow('later failure')
    const repo = repositoryOf(sim.db, website(sim))
    expect(repo.branches.get('main')).toBe(tip)
    expect(repo.objects.has(id)).toBe(false)
    expect(sim.db.tables.project_repositories.get(20)!.pushes ?? []).toEqual(pushes)
  })

  it.each([
    [[{ action: 'create', file_path: 'README.md', content: text('x') }], 'A file with this name already exists'],
    [[{ action: 'create', file_path: 'css', content: text('x') }], 'A directory with this name already exists'],
    [[{ action: 'update', file_path: 'nope.md', content: text('x') }], "A file with this name doesn't exist"],
    [[{ action: 'delete', file_path: 'nope.md' }], "A file with this name doesn't exist"],
    [[{ action: 'chmod', file_path: 'nope.md', execute_filemode: true }], "A file with this name doesn't exist"],
    [[{ action: 'move', file_path: 'x.md', previous_path: 'nope.md' }], "A file with this name doesn't exist"],
    [[{ action: 'create', file_path: '../x', content: text('x') }], 'Path cannot include directory traversal'],
  ] as [CommitAction[], string][])('refuses %j with %j', (actions, message) => {
    const sim = createSimulator()
    expect(() => commitOnMain(sim, actions)).toThrow(new ActionError(message))
  })

  it('gives the same SHA for the same write, and keeps it through a state dump', () => {
    const a = createSimulator()
    const b = createSimulator()
    const actions: CommitAction[] = [{ action: 'update', file_path: 'README.md', content: text('# Changed\n') }]
    const id = commitOnMain(a, actions)
    expect(commitOnMain(b, actions)).toBe(id)
    const fresh = createSimulator()
    fresh.db.load(JSON.parse(JSON.stringify(a.db.dump())))
    expect(repositoryOf(fresh.db, website(fresh)).branches.get('main')).toBe(id)
  })
})
