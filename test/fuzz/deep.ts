/**
 * Deep fuzzing (issue 13): well-formed values for every route's declared params, so that fuzzed
 * requests get past validation and lookups and into the handlers. Two parts, both driven only by
 * `sim.routes` and the loaded scenario, so a route registered later is covered without an edit here:
 *
 * - {@link resolvePaths}: concrete paths whose every `:param` names a record that exists, found by
 *   walking the route's template and asking the simulator's own list route for each collection
 *   (`/projects/20/issues` → the iids of project 20's issues), as the admin.
 * - {@link scenarioValues}: for each param name GitLab uses, values that exist in the scenario or
 *   that GitLab accepts (`user_id` → user ids, `labels` → label titles, `duration` → `1h30m`,
 *   `destination_storage_name` → a configured storage, `token` → a registration token, ...).
 */
import fc from 'fast-check'
import type { Route, Simulator } from '../../src/index.js'
import { loadAllRoutes } from '../../src/resources/index.js'
import { collectFixtures, encode, type Fixtures } from './requests.js'

const ADMIN_TOKEN = 'glpat-root-fakelab'

/** Paths per route; the key is the route's key. */
export type ResolvedPaths = Record<string, string[]>

/** Largest number of concrete values kept per `:param` and per parent, and of paths per route. */
const PER_PARENT = 6
const PARENTS = 6
const PER_ROUTE = 40

/** The field of a listed record that a path param takes: `iid` for `*_iid`, else `id`. */
function fieldFor(param: string): string {
  return param.endsWith('iid') ? 'iid' : 'id'
}

/**
 * Concrete paths (below `/api/v4`) for every route, each `:param` naming an existing record as the
 * admin sees it. A param whose collection has no list route, or an empty one, leaves the route
 * out (the table-based segments of `collectFixtures` still cover it).
 */
export async function resolvePaths(sim: Simulator, routes: readonly Route[], baseUrl: string): Promise<ResolvedPaths> {
  const lists = new Map<string, Promise<unknown[]>>()
  const list = (path: string): Promise<unknown[]> => {
    let cached = lists.get(path)
    if (!cached) {
      cached = sim
        .handle(new Request(`${baseUrl}/api/v4${path}?per_page=100`, { headers: { 'PRIVATE-TOKEN': ADMIN_TOKEN } }))
        .then(async (res) => (res.status === 200 ? ((await res.json()) as unknown) : []))
        .then((body) => (Array.isArray(body) ? body : []), () => [])
      lists.set(path, cached)
    }
    return cached
  }
  const out: ResolvedPaths = {}
  for (const route of routes) {
    let prefixes = ['']
    for (const part of route.path.split('/').slice(1)) {
      if (!part.startsWith(':')) {
        prefixes = prefixes.map((prefix) => `${prefix}/${part}`)
        continue
      }
      const field = fieldFor(part.slice(1))
      const next: string[] = []
      for (const prefix of prefixes.slice(0, PARENTS)) {
        const records = await list(prefix)
        const values = records.map((record) => (record as Record<string, unknown>)[field]).filter((v) => typeof v === 'number' || typeof v === 'string')
        for (const value of values.slice(0, PER_PARENT)) next.push(`${prefix}/${encode(String(value))}`)
      }
      prefixes = next
      if (prefixes.length === 0) break
    }
    if (prefixes.length > 0) out[route.key] = prefixes.slice(0, PER_ROUTE)
  }
  return out
}

/** What {@link scenarioValues} reads from the scenario. */
export interface ScenarioFacts {
  /** Record ids by table name. */
  ids: Record<string, number[]>
  usernames: string[]
  labelTitles: string[]
  milestoneTitles: string[]
  storageNames: string[]
  /** Every string of a field whose name ends in `token` (registration and authentication tokens). */
  tokens: string[]
  emails: string[]
}

/** Reads {@link ScenarioFacts} from a loaded simulator's store (any table shape: its first array of rows). */
export function scenarioFacts(sim: Simulator): ScenarioFacts {
  const facts: ScenarioFacts = { ids: {}, usernames: [], labelTitles: [], milestoneTitles: [], storageNames: [], tokens: [], emails: [] }
  for (const [table, state] of Object.entries(sim.db.dump() as unknown as Record<string, unknown>)) {
    const rows = (Object.values(state as object).find(Array.isArray) ?? []) as Record<string, unknown>[]
    for (const row of rows) {
      if (typeof row.id === 'number') (facts.ids[table] ??= []).push(row.id)
      for (const [field, value] of Object.entries(row)) if (field.endsWith('token') && typeof value === 'string') facts.tokens.push(value)
      if (table === 'users' && typeof row.username === 'string') facts.usernames.push(row.username)
      if (table === 'labels' && typeof row.title === 'string') facts.labelTitles.push(row.title)
      if (table === 'milestones' && typeof row.title === 'string') facts.milestoneTitles.push(row.title)
      if (table === 'repository_storages' && typeof row.name === 'string') facts.storageNames.push(row.name)
      if ((table === 'users' || table === 'emails') && typeof row.email === 'string') facts.emails.push(row.email)
    }
  }
  return facts
}

/** The table a `*_id`/`*_ids` param names: `assignee_id` → `users`, `milestone_id` → `milestones`. */
function tableOf(name: string, facts: ScenarioFacts): string | undefined {
  const stem = name.replace(/_ids?$/, '')
  const table = ({ assignee: 'users', author: 'users', user: 'users', reviewer: 'users', token: 'personal_access_tokens' } as Record<string, string>)[stem] ?? `${stem}s`
  return facts.ids[table]?.length ? table : undefined
}

type ParamSpec = Route['params'][string]

/** Valid GitLab durations (`Gitlab::TimeTrackingFormatter.parse`, ChronicDuration): units, combinations, a negative. */
const DURATIONS = ['1h', '30m', '3h30m', '1d', '1w 2d', '2h 15m', '1mo', '90m', '-1h', '45s']

/**
 * Values for declared params by the names GitLab gives them, as JSON fragments; undefined when the
 * name means nothing particular (the caller then uses the kind's plain value). `values:` lists are
 * handled by the caller first.
 */
export function scenarioValue(name: string, spec: ParamSpec, facts: ScenarioFacts): fc.Arbitrary<string> | undefined {
  const json = <T>(...values: T[]): fc.Arbitrary<string> => fc.constantFrom(...values).map((v) => JSON.stringify(v))
  const table = /_ids?$/.test(name) ? tableOf(name, facts) : undefined
  if (table && spec.kind === 'integer[]') return fc.subarray(facts.ids[table]!, { minLength: 1, maxLength: 3 }).map((v) => JSON.stringify(v))
  if (table) return fc.constantFrom(...facts.ids[table]!).map((id) => (spec.kind === 'string' ? JSON.stringify(String(id)) : String(id)))
  switch (name) {
    case 'duration':
      return json(...DURATIONS)
    case 'access_level':
      return spec.kind === 'integer' ? json(10, 20, 30, 40, 50) : undefined
    case 'expires_at':
      return json('2021-06-30', '2022-01-01', '2030-12-31')
    case 'destination_storage_name':
    case 'source_storage_name':
      return facts.storageNames.length ? json(...facts.storageNames) : undefined
    case 'token':
      return facts.tokens.length ? json(...facts.tokens) : undefined
    case 'scopes':
      return json(['api'], ['read_api'], ['api', 'read_repository'], ['read_repository', 'write_repository'])
    case 'tag_list':
      return json(['docker'], ['ruby', 'linux'], [], ['fuzz-tag'])
    case 'labels':
      return facts.labelTitles.length ? fc.subarray(facts.labelTitles, { minLength: 1, maxLength: 3 }).map((v) => JSON.stringify(spec.kind === 'string' ? v.join(',') : v)) : undefined
    case 'milestone':
      return json(...facts.milestoneTitles, 'None', 'Any', 'Upcoming', 'Started')
    case 'assignee_username':
    case 'author_username':
      return spec.kind === 'string[]' ? fc.subarray(facts.usernames, { minLength: 1, maxLength: 1 }).map((v) => JSON.stringify(v)) : json(...facts.usernames)
    case 'user_id':
      // integerOrString: an id or a username.
      return fc.oneof(fc.constantFrom(...(facts.ids.users ?? [1])).map(String), json(...facts.usernames))
    case 'iids':
      return json([1], [1, 2], [2, 3, 99])
    case 'search':
    case 'query':
      return json('bug', 'Login', 'acme', 'docker', 'e', 'nothing-matches-this')
    case 'in':
      return json('title', 'description', 'title,description')
    case 'level':
      return json('disabled', 'participating', 'watch', 'global', 'mention', 'custom')
    case 'my_reaction_emoji':
      return json('thumbsup', 'None', 'Any')
    case 'notification_email':
      return facts.emails.length ? json(...facts.emails) : undefined
    case 'priority':
      return json(0, 1, 5, null)
    case 'maximum_timeout':
      return json(600, 3600, 86400)
    case 'info':
      return json({ name: 'gitlab-runner', version: '13.10.0', revision: 'abc', platform: 'linux', architecture: 'amd64' })
    case 'not':
      return json({ labels: [facts.labelTitles[0] ?? 'bug'] }, { author_id: 1 }, { milestone: facts.milestoneTitles[0] ?? 'v1.0' })
    case 'url':
      return json('https://gitlab.example.com')
    case 'invite_source':
      return json('api', 'members-api')
    case 'name':
    case 'title':
      // Mostly fresh (a create must not collide), sometimes an existing title (routes that find by name).
      return fc.oneof(
        { weight: 2, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/).map((word) => JSON.stringify(`fuzz-${word}`)) },
        { weight: 1, arbitrary: json(...facts.labelTitles, ...facts.milestoneTitles) },
      )
    case 'color':
      return json('#428BCA', 'red', '#FFF', '#d9534f', 'LightGoldenRodYellow')
    case 'page':
      return json(1, 2)
    case 'per_page':
      return json(1, 2, 20, 100)
    default:
      return undefined
  }
}

/**
 * The fuzz fixtures with the deep parts filled in: resolved paths for every route and scenario
 * values for declared params. Read from `sim` as loaded (call before any request changes it).
 */
export async function deepFixtures(sim: Simulator, baseUrl: string): Promise<Fixtures> {
  const facts = scenarioFacts(sim)
  return {
    ...(await collectFixtures(sim, baseUrl)),
    paths: await resolvePaths(sim, (await loadAllRoutes()).api, baseUrl),
    valueFor: (name, spec) => scenarioValue(name, spec, facts),
  }
}
