/**
 * A scenario composes and runs only the fragments it needs (issue 39 item 4): the areas whose fields
 * it holds, and those the audit of every fragment's hooks marks as needed without them
 * (`ScenarioFragment.need`, copied into src/resources/scenario-table.ts). This is the audit's
 * proof: for every scenario YAML of the repository that loads (scenarios/, fixtures/, test/,
 * examples/, and the scenarios written inline in test/ and examples/), and for one generated
 * minimal scenario per area (one record using one of the area's fields), the parsed scenario (key
 * order included) and the store after loading (every table, row, id, generated value, internal id
 * and next id) are identical with the fragments it needs and with every fragment. An area wrongly
 * left out of `need` makes rows or problems appear in one and not the other. And a file that does
 * not load is refused with the very problems every fragment gives.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import ts from 'typescript'
import { parse as parseYaml } from 'yaml'
import type { DbState } from '../../src/db/db.js'
import { SCENARIO_TABLE } from '../../src/resources/scenario-table.js'
import { ScenarioError, type Scenario } from '../../src/scenario/index.js'
import type { ParseScenarioOptions } from '../../src/scenario/parse.js'
import { createDb, DEFAULT_REFERENCE_DATE, scenarioFormat } from '../../src/simulator.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const format = scenarioFormat()
const AREAS = Object.keys(SCENARIO_TABLE)
const ALL = { allAreas: true }

/** A scenario text and how to read its includes. */
interface Case {
  readonly name: string
  readonly text: string
  readonly options: ParseScenarioOptions
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) walk(path, out)
    else out.push(path)
  }
  return out
}

const include = (target: string, from: string) => readFileSync(resolve(dirname(from), target), 'utf8')

/** Every scenario YAML file of the repository, and every scenario written inline in a test or an example. */
function corpus(): Case[] {
  const files = ['scenarios', 'fixtures', 'test', 'examples'].flatMap((dir) => walk(join(ROOT, dir)))
  const cases: Case[] = files
    .filter((path) => /\.ya?ml$/.test(path))
    .map((path) => ({ name: relative(ROOT, path), text: readFileSync(path, 'utf8'), options: { file: path, include } }))
  for (const path of files.filter((p) => /\.(ts|mts)$/.test(p))) {
    // String and template literals (without interpolation) holding a scenario, as the code reads them.
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest)
    let n = 0
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /^version: 1$/m.test(node.text)) {
        cases.push({ name: `${relative(ROOT, path)} #${++n}`, text: node.text, options: { file: 'inline.yaml' } })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return cases
}

/** The problems parsing gives (one `file:line:col message` each), or the scenario. */
function attempt(text: string, options: ParseScenarioOptions, how?: { allAreas: boolean }): Scenario | string[] {
  try {
    return format.parse(text, options, how)
  } catch (error) {
    if (error instanceof ScenarioError) return error.message.split('\n')
    throw error
  }
}

/** The store after loading a parsed scenario, with the fragments it needs or with all of them. */
function loaded(scenario: Scenario, how?: { allAreas: boolean }): DbState {
  const db = createDb()
  format.apply(db, scenario, { seed: scenario.seed, referenceDate: new Date(scenario.now ?? DEFAULT_REFERENCE_DATE), checked: true }, how)
  return db.dump()
}

/** The tables whose rows or next id differ (empty when the stores are identical). */
function differing(a: DbState, b: DbState): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)])
  return [...names].filter((name) => JSON.stringify((a as Record<string, unknown>)[name]) !== JSON.stringify((b as Record<string, unknown>)[name]))
}

/**
 * Asserts that `text` gives the same parsed scenario and store with the fragments it needs as with
 * every fragment. @returns the areas it was parsed with (`undefined`: every area).
 */
function expectSame(text: string, options: ParseScenarioOptions): readonly string[] | undefined {
  const picked = format.parse(text, options)
  const whole = format.parse(text, options, ALL)
  expect(JSON.stringify(picked)).toBe(JSON.stringify(whole))
  expect(differing(loaded(picked), loaded(whole, ALL))).toEqual([])
  return format.areasParsing(picked)
}

const CASES = corpus()
const LOADING = CASES.filter((c) => !Array.isArray(attempt(c.text, c.options, ALL)))
const REFUSED = CASES.filter((c) => Array.isArray(attempt(c.text, c.options, ALL)))

describe('a scenario with the fragments it needs', () => {
  it('finds the repository\'s scenarios (loading and refused)', () => {
    expect(LOADING.map((c) => c.name)).toEqual(expect.arrayContaining(['scenarios/default.yaml', 'test/clients/upstream/python-gitlab/upstream.yaml']))
    expect(LOADING.length).toBeGreaterThan(20)
    expect(REFUSED.length).toBeGreaterThan(15)
  })

  it.each(LOADING.map((c) => [c.name, c] as const))('parses and loads %s as every fragment does', (_name, c) => {
    const areas = expectSame(c.text, c.options)
    // The default scenario holds fields of most areas, not of all: it is parsed with a part.
    if (c.name === 'scenarios/default.yaml') expect(areas?.length).toBeLessThan(AREAS.length)
  })

  it.each(REFUSED.map((c) => [c.name, c] as const))('refuses %s with the problems of every fragment', (_name, c) => {
    expect(attempt(c.text, c.options)).toEqual(attempt(c.text, c.options, ALL))
  })

  it.each([
    ['a merge request closing an issue its project does not write (the issues area checks it)', 'users: [{ username: alice }]\nprojects:\n  - path: site\n    namespace: alice\n    merge_requests: [{ title: Fix, closes: [1] }]\n'],
    ['a project bot without its project (the members area checks it)', 'users: [{ username: alice }, { username: bot, user_type: project_bot }]\n'],
    ['a group on a storage repository_storages does not list (the storage moves area checks it)', 'repository_storages: [{ name: other }]\ngroups: [{ path: acme }]\n'],
  ])('refuses %s with the problems of every fragment', (_what, body) => {
    const text = `version: 1\n${body}`
    const problems = attempt(text, { file: 'test.yaml' }, ALL)
    expect(problems).toEqual([expect.stringMatching(/^test\.yaml:\d+:\d+ /)])
    expect(attempt(text, { file: 'test.yaml' })).toEqual(problems)
  })

  it('parses a user and a project with the fragments that always run, and loads it as every fragment does', () => {
    const text = 'version: 1\nusers:\n  - username: alice\n    tokens: [{ token: glpat-alice, scopes: [api] }]\nprojects:\n  - path: demo\n    namespace: alice\n'
    const always = AREAS.filter((area) => SCENARIO_TABLE[area]!.need?.always)
    expect(expectSame(text, { file: 'small.yaml' })).toEqual(always)
  })
})

/**
 * One minimal scenario per area: the users, groups and projects of a scenario of the corpus with
 * nothing but what names them, and one of the area's fields, as that scenario writes it, on the
 * record (or at the top level) that has it. The first of the area's fields (in the corpus' order)
 * with which such a scenario loads is taken.
 */
function minimalScenarios(): Map<string, { text: string; field: string }> {
  const documents = LOADING.filter((c) => c.options.include === undefined || !/include:/.test(c.text)).map((c) => parseYaml(c.text) as Record<string, unknown>)
  const identity = { users: ['username'], groups: ['path', 'parent'], projects: ['path', 'namespace'] } as const
  const kinds = { user: 'users', group: 'groups', project: 'projects' } as const
  const found = new Map<string, { text: string; field: string }>()
  for (const [area, outline] of Object.entries(SCENARIO_TABLE)) {
    search: for (const document of documents) {
      const skeleton = Object.fromEntries(
        (Object.keys(identity) as (keyof typeof identity)[]).map((collection) => [
          collection,
          ((document[collection] ?? []) as Record<string, unknown>[]).map((record) => Object.fromEntries(identity[collection].filter((key) => record[key] !== undefined).map((key) => [key, record[key]]))),
        ]),
      )
      for (const [place, names] of Object.entries(outline.fields)) {
        for (const name of names ?? []) {
          let scenario: Record<string, unknown> | undefined
          if (place === 'root') {
            if (document[name] !== undefined) scenario = { version: 1, [name]: document[name], ...skeleton }
          } else {
            const collection = kinds[place as keyof typeof kinds]
            const records = (document[collection] ?? []) as Record<string, unknown>[]
            const at = records.findIndex((record) => record[name] !== undefined)
            if (at >= 0) {
              // The field alone; else the whole record (what the field refers to may be its own).
              for (const fields of [{ [name]: records[at]![name] }, records[at]!]) {
                const copy = structuredClone(skeleton) as Record<string, Record<string, unknown>[]>
                Object.assign(copy[collection]![at]!, fields)
                const text = JSON.stringify({ version: 1, ...copy })
                if (Array.isArray(attempt(text, { file: `${area}.yaml` }, ALL))) continue
                found.set(area, { text, field: `${place}.${name}${fields === records[at] ? ' with its record' : ''}` })
                break search
              }
            }
          }
          if (!scenario) continue
          const text = JSON.stringify(scenario)
          if (Array.isArray(attempt(text, { file: `${area}.yaml` }, ALL))) continue
          found.set(area, { text, field: `${place}.${name}` })
          break search
        }
      }
    }
  }
  return found
}

/** A world of two users, a group and two projects (a group's, a user's) for the samples below. */
const WORLD = { users: [{ username: 'alice' }, { username: 'bob' }], groups: [{ path: 'acme' }], projects: [{ path: 'site', namespace: 'acme' }, { path: 'demo', namespace: 'alice' }] }
const SHA = 'a'.repeat(40)
const ISSUES = [{ iid: 1, title: 'One' }, { iid: 2, title: 'Two' }]

/**
 * For the areas no scenario of the corpus writes in a way that loads alone: one use of one of their
 * fields on {@link WORLD} (with what it refers to: an environment, issues, a tagged repository).
 */
const SAMPLES: Readonly<Record<string, { field: string; root?: object; user?: object; group?: object; project?: object; personal?: object }>> = {
  badges: { field: 'project.badges', project: { badges: [{ link_url: 'https://example.com/%{project_path}', image_url: 'https://example.com/badge.svg' }] } },
  boards: { field: 'project.boards', project: { boards: [{ name: 'Development' }] } },
  'ci-triggers': { field: 'project.triggers', project: { triggers: [{ description: 'deploy', owner: 'alice' }] } },
  'ci-variables': { field: 'project.ci_variables', project: { ci_variables: [{ key: 'TOKEN', value: 'secret' }] } },
  deployments: { field: 'project.deployments', project: { environments: [{ name: 'production' }], deployments: [{ environment: 'production', ref: 'main', sha: SHA }] } },
  features: { field: 'root.features', root: { features: [{ name: 'my_flag', enabled: true }] } },
  forks: { field: 'project.forked_from', personal: { forked_from: 'acme/site' } },
  invitations: { field: 'project.invitations', project: { invitations: [{ email: 'new@example.com', access_level: 30 }] } },
  'issue-links': { field: 'project.issue_links', project: { issues: ISSUES, issue_links: [{ issue: 1, target: 2 }] } },
  'project-actions': { field: 'user.starred_projects', user: { starred_projects: ['acme/site'] } },
  releases: { field: 'project.releases', project: { repository: { commits: [{ message: 'init\n', files: { 'a.txt': 'a\n' } }], tags: [{ name: 'v1.0.0' }] }, releases: [{ tag_name: 'v1.0.0' }] } },
  'resource-events': { field: 'project.resource_events', project: { issues: ISSUES, resource_events: [{ issue: 1, state: 'closed', user: 'alice' }] } },
  services: { field: 'project.services', project: { services: [{ slug: 'slack', properties: { webhook: 'https://hooks.slack.com/services/T0/B0/x' } }] } },
  todos: { field: 'project.todos', project: { issues: ISSUES, todos: [{ user: 'alice', issue: 1 }] } },
  uploads: { field: 'root.max_attachment_size', root: { max_attachment_size: 20 } },
  wikis: { field: 'project.wiki_pages', project: { wiki_pages: [{ title: 'Home', content: 'Hello' }] } },
}

/** The scenario text of a sample. */
function sampleText(sample: (typeof SAMPLES)[string]): string {
  const [user, ...users] = WORLD.users
  const [site, demo] = WORLD.projects
  return JSON.stringify({
    version: 1,
    ...sample.root,
    users: [{ ...user, ...sample.user }, ...users],
    groups: [{ ...WORLD.groups[0], ...sample.group }],
    projects: [{ ...site, ...sample.project }, { ...demo, ...sample.personal }],
  })
}

describe('one minimal scenario per area', () => {
  const minimal = minimalScenarios()
  for (const [area, sample] of Object.entries(SAMPLES)) if (!minimal.has(area)) minimal.set(area, { text: sampleText(sample), field: sample.field })

  it('is there for every area', () => {
    expect([...minimal.keys()].sort()).toEqual([...AREAS].sort())
  })

  it.each([...minimal].map(([area, { text, field }]) => [area, field, text] as const))('%s (%s) parses and loads with its own and the needed fragments, as with every fragment', (area, _field, text) => {
    const areas = expectSame(text, { file: `${area}.yaml` })
    expect(areas, 'parsed with a part of the fragments').toBeDefined()
    expect(areas).toContain(area)
    expect(areas!.length).toBeLessThan(AREAS.length)
    // And loaded with a part: the areas whose fields hold more than their defaults, and the needed ones.
    const scenario = format.parse(text, { file: `${area}.yaml` })
    const applying = format.areasApplying(scenario, { seed: 1, referenceDate: new Date(DEFAULT_REFERENCE_DATE), checked: true })
    expect(applying, 'loaded with a part of the fragments').toBeDefined()
    expect(applying!.every((name) => areas!.includes(name))).toBe(true)
  })
})
