/**
 * Scenario records on storages (issue 23, item 14): every project, group wiki and snippet a
 * scenario places must be on a storage that `repository_storages:` lists, as GitLab refuses a
 * repository on an unconfigured storage (`Project` validates `repository_storage` against
 * `Gitlab.config.repositories.storages.keys`). Where the scenario writes the list, a record elsewhere
 * is a problem at `file:line:col`; where it writes none, the storages records name are implied.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { scenarioProblems } from '../support/scenario-problems.js'

const STORAGES = 'repository_storages: [{ name: default }, { name: fast }]\n'

describe('records on storages repository_storages does not list', () => {
  it.each([
    [
      'a project',
      `version: 1\n${STORAGES}groups: [{ path: g }]\nprojects:\n  - { path: p, namespace: g, repository_storage: fats }\n`,
      ['test.yaml:5:50 projects[0].repository_storage: unknown storage "fats": repository_storages lists default, fast'],
    ],
    [
      'a group wiki',
      `version: 1\n${STORAGES}groups:\n  - { path: g, repository_storage: slow }\n`,
      ['test.yaml:4:36 groups[0].repository_storage: unknown storage "slow": repository_storages lists default, fast'],
    ],
    [
      'a personal snippet and a project snippet',
      `version: 1\n${STORAGES}users:\n  - username: u\n    snippets: [{ title: s, repository_storage: nope }]\nprojects:\n  - path: p\n    namespace: u\n    snippets: [{ title: t, repository_storage: gone }]\n`,
      [
        'test.yaml:5:48 users[0].snippets[0].repository_storage: unknown storage "nope": repository_storages lists default, fast',
        'test.yaml:9:48 projects[0].snippets[0].repository_storage: unknown storage "gone": repository_storages lists default, fast',
      ],
    ],
    [
      'a record on the default storage when the list leaves `default` out',
      'version: 1\nrepository_storages: [{ name: fast }]\ngroups: [{ path: g, repository_storage: fast }]\nprojects:\n  - { path: p, namespace: g }\n',
      ['test.yaml:5:5 projects[0]: repository_storage: the default storage "default" is not in repository_storages (fast): name one of them'],
    ],
  ])('refuses %s, at the record', (_what, text, problems) => {
    expect(scenarioProblems(text)).toEqual(problems)
  })

  it('implies the storages records name when the scenario lists none: `default` (weight 100), then each other one with weight 0', () => {
    const text = 'version: 1\nusers: [{ username: u, snippets: [{ title: s, repository_storage: cold }] }]\ngroups: [{ path: g, repository_storage: wiki-shard }]\nprojects: [{ path: p, namespace: g, repository_storage: archive }]\n'
    expect(scenarioProblems(text)).toEqual([])
    const sim = createSimulator({ scenario: text })
    expect(sim.db.tables.repository_storages.all().map(({ name, weight, fail_moves }) => [name, weight, fail_moves])).toEqual([
      ['default', 100, false],
      ['wiki-shard', 0, false],
      ['cold', 0, false],
      ['archive', 0, false],
    ])
  })

  it('accepts records on listed storages, and records left on `default` when it is listed or the list is left out', () => {
    expect(scenarioProblems(`version: 1\n${STORAGES}groups: [{ path: g, repository_storage: fast }]\nprojects: [{ path: p, namespace: g }]\n`)).toEqual([])
    expect(scenarioProblems('version: 1\ngroups: [{ path: g }]\nprojects: [{ path: p, namespace: g, repository_storage: default }]\n')).toEqual([])
  })
})
