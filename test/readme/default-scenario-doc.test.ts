/**
 * docs/default-scenario.md's tables say what the default scenario holds (issue 38 item 7: it listed
 * 16 users where the banner shows 17, missed ivy/tracker and ivy/bulk, and its tokens disagreed with
 * the banner): every user in id order with the tokens the banner shows besides
 * `glpat-<username>-fakelab`, and every group and project in id order.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createSimulator, defaultScenario } from '../../src/index.js'
import { REPO } from '../support/scratch-project.js'

const page = readFileSync(join(REPO, 'docs', 'default-scenario.md'), 'utf8')
/** The rows of the table whose header starts with `| id | <second> |`: each row's cells. */
function table(second: string): string[][] {
  const lines = page.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`| id | ${second} |`))
  const rows: string[][] = []
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!.split('|').slice(1, -1).map((cell) => cell.trim()))
  return rows
}
const sim = createSimulator({ scenario: defaultScenario() })
const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id)

it('lists every user in id order, with the tokens the banner shows', () => {
  const expected = byId(sim.db.tables.users.all()).map((user) => {
    const shown = sim.db.tables.personal_access_tokens.where('user_id', user.id).filter((t) => !t.revoked).map((t) => t.token)
    const extra = shown.filter((token) => token !== `glpat-${user.username}-fakelab` || user.admin)
    return [String(user.id), user.username, extra.sort()]
  })
  const documented = table('user').map(([id, user, , tokens]) => [id, user, [...tokens!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort()])
  expect(documented).toEqual(expected)
})

it('lists every group and project in id order', async () => {
  const get = async (path: string) => (await sim.handle(new Request(`https://gitlab.test/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } }))).json()
  const expected = [
    ...(await Promise.all(byId(sim.db.tables.groups.all()).map(async (g) => [String(g.id), `group \`${(await get(`/groups/${g.id}`)).full_path}\``]))),
    ...(await Promise.all(byId(sim.db.tables.projects.all()).map(async (p) => [String(p.id), `project \`${(await get(`/projects/${p.id}`)).path_with_namespace}\``]))),
  ]
  expect(table('group / project').map(([id, what]) => [id, /^(group|project) `[^`]+`/.exec(what!)![0]])).toEqual(expected)
})
