/**
 * `releases:` of scenario projects (issue 26 item 4): a release is on a tag of the project's
 * `repository:` section, one per tag, by a known user, in milestones the project sees; a problem is
 * reported at `file:line:col`.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { scenarioProblems } from '../support/scenario-problems.js'

const REPO = '    repository:\n      commits: [{ message: "init\\n", files: { a.txt: "a\\n" } }]\n      tags: [{ name: v1, ref: main }]\n'
const head = 'version: 1\nusers: [{ username: u }]\ngroups: [{ path: g, visibility: public, milestones: [{ title: m1 }] }]\nprojects:\n  - path: p\n    namespace: g\n    visibility: public\n' + REPO

describe('scenario releases', () => {
  it.each([
    ['an unknown tag', `${head}    releases: [{ tag_name: v2 }]\n`, ['test.yaml:11:28 projects[0].releases[0].tag_name: unknown tag "v2" in the repository of g/p; its tags: v1']],
    ['two releases on one tag', `${head}    releases: [{ tag_name: v1 }, { tag_name: v1 }]\n`, ['test.yaml:11:46 projects[0].releases[1].tag_name: a second release on tag "v1" (one release per tag)']],
    ['an unknown milestone', `${head}    releases: [{ tag_name: v1, milestones: [m2] }]\n`, ['test.yaml:11:45 projects[0].releases[0].milestones[0]: unknown milestone "m2" (not a milestone of the project or its groups)']],
  ])('refuses %s, at the record', (_what, text, problems) => {
    expect(scenarioProblems(text)).toEqual(problems)
  })

  it('loads a release in a group milestone, with a link, presented with its tag\'s commit', async () => {
    const text = `${head}    releases:\n      - { tag_name: v1, author: u, milestones: [m1], created_at: 2021-01-01T00:00:00Z, links: [{ name: bin, url: "https://x.test/bin" }] }\n`
    const sim = createSimulator({ scenario: `now: "2021-04-01T12:00:00Z"\n${text}` })
    const res = await sim.handle(new Request('http://gitlab.test/api/v4/projects/g%2Fp/releases'))
    const [release] = await res.json()
    expect(release).toMatchObject({ name: 'v1', tag_name: 'v1', author: { username: 'u' }, milestones: [{ title: 'm1' }], assets: { count: 5 } })
    expect(release.commit.title).toBe('init')
    expect(release.evidences).toHaveLength(1)
  })
})
