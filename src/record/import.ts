/**
 * Cassette → scenario: turns the entities a recorded session saw into a scenario YAML for the
 * stateful simulator, so a recording can seed it. Browser-safe (the CLI reads and writes files).
 * This is the generic driver: it collects the users, groups and projects (and whose token is
 * whose), and every area's cassette-import hook (`Area.importer`) takes the answers it recognises
 * and adds its section to the scenario's groups and projects.
 *
 * The scenario is the state at the **start** of the session: each entity as it was first seen
 * (later views only fill fields the first lacked), and entities the session itself created
 * (a `201` answer to a POST) are left out, because replaying the session creates them again.
 * Recorded tokens are redacted, so each redaction placeholder becomes a token of the user that a
 * recorded `GET /user` shows it belongs to: the recorded requests then authenticate unchanged.
 *
 * Then the import checks itself: it replays every recorded request, in order, against a simulator
 * built from the new scenario, and lists each field of a recorded GET answer that comes out
 * different (GitLab features the scenario format cannot express, counters of data never recorded,
 * ...). Those lists, plus the answers no area takes in, are the "not reproduced" notes.
 * Source: fakelab #11 ("Cassette to scenario").
 * @module
 */
import type { Entry, Har } from 'har-format'
import { stringify } from 'yaml'
import { areas } from '../resources/index.js'
import type { AreaImport, AreaImporter, ImportBuildContext, ImportCollectContext, ImportExchange, Json } from '../scenario/importer.js'
import { fill, isObject, list, noteRecord, num, pick, str } from '../scenario/importer.js'
import { createSimulator } from '../simulator.js'
import { parseScenario } from '../simulator.js'
import { harHeader } from './har.js'
import { apiPath } from './match.js'
import { PLACEHOLDER } from './redact.js'

/** Options of {@link importCassette}. */
export interface ImportOptions {
  /**
   * The scenario's `now:` (the simulator clock). Default: the `Date` header of the first recorded
   * response, else the first `startedDateTime`: the clock of the recorded GitLab.
   */
  now?: string
  /** Replay the session against the imported scenario and list differing fields (default true). */
  verify?: boolean
  /** The cassette's name, for the YAML header comment. */
  source?: string
}

/** What {@link importCassette} produced. */
export interface ImportResult {
  /** The scenario as a plain object (`version: 1`, `now`, `users`, `groups`, `projects`). */
  scenario: Record<string, unknown>
  /** The scenario as YAML, with the not-reproduced notes as a comment at the top. */
  yaml: string
  /** Everything recorded that the scenario does not reproduce, one note per line, sorted within each kind. */
  notReproduced: string[]
  /** How many entities of each kind were imported: `users`, `groups`, `projects`, then each area's kinds. */
  counts: Record<string, number>
}

/** Path segments that are words, not ids, where an id could stand. */
const STATIC_SEGMENTS = new Set(['all', 'promote', 'verify', 'reset_registration_token', 'subscribe', 'unsubscribe', 'mark_as_done', 'schedule'])

/** `/projects/20/hooks/7` → `/projects/:id/hooks/:id`: a route shape for grouping notes. */
export function routeTemplate(path: string): string {
  const segments = path.split('/').slice(1)
  return `/${segments.map((s, i) => (i % 2 === 1 && !STATIC_SEGMENTS.has(s) ? ':id' : s)).join('/')}`
}

/** The areas' importers, in rank order (ties in area order). */
const IMPORTERS: readonly AreaImporter[] = areas
  .flatMap((area) => (area.importer ? [area.importer] : []))
  .map((importer, i) => ({ importer, i }))
  .sort((a, b) => (a.importer.rank ?? 100) - (b.importer.rank ?? 100) || a.i - b.i)
  .map(({ importer }) => importer)

/** Collection segment → kind of the record a POST `201` to it creates: core's, then the areas'. */
const KIND_OF_COLLECTION: Record<string, string> = Object.assign(
  { users: 'user', groups: 'group', projects: 'project' },
  ...IMPORTERS.map((importer) => importer.collections ?? {}),
)

/** The group and project answer fields the areas' scenario fields take (`Area.importer`), in area order. */
const GROUP_FIELDS = areas.flatMap((area) => area.importer?.groupFields ?? [])
const PROJECT_FIELDS = areas.flatMap((area) => area.importer?.projectFields ?? [])

/** GET routes the driver itself takes in: users, groups and projects. */
const CORE_TEMPLATES = new Set(['/user', '/users', '/users/:id', '/groups', '/groups/:id', '/projects', '/projects/:id'])

interface Exchange extends ImportExchange {
  entry: Entry
}

function tokenOf(entry: Entry): string | undefined {
  const headers = entry.request.headers
  const direct = harHeader(headers, 'private-token') ?? harHeader(headers, 'job-token')
  if (direct) return direct
  const bearer = /^Bearer\s+(.+)$/i.exec(harHeader(headers, 'authorization') ?? '')
  if (bearer) return bearer[1]!.trim()
  const query = new URL(entry.request.url).searchParams
  return query.get('private_token') ?? query.get('access_token') ?? undefined
}

function exchangeOf(entry: Entry): Exchange {
  const url = new URL(entry.request.url)
  const path = apiPath(url.pathname)
  let body: unknown
  if (entry.response.content.encoding !== 'base64' && entry.response.content.text) {
    try {
      body = JSON.parse(entry.response.content.text)
    } catch {
      body = undefined
    }
  }
  return {
    entry,
    method: entry.request.method.toUpperCase(),
    path,
    template: routeTemplate(path),
    segments: path.split('/').slice(1).map((s) => decodeURIComponent(s)),
    status: entry.response.status,
    token: tokenOf(entry),
    sudo: harHeader(entry.request.headers, 'sudo') !== undefined || url.searchParams.has('sudo'),
    body,
  }
}

/** Collected state, keyed by GitLab id (or a synthetic key when the id is unknown). */
class Seen {
  users = new Map<number, Json>()
  groups = new Map<number, Json>()
  projects = new Map<number, Json>()
  /** token placeholder → user id */
  tokenOwners = new Map<string, number>()
  tokenSudo = new Set<string>()
  created = new Set<string>()
  notes: string[] = []
  unsupported = new Map<string, number>()
}

function noteUser(seen: Seen, value: unknown): void {
  if (!isObject(value) || num(value.id) === undefined || str(value.username) === undefined) return
  const id = value.id as number
  if (seen.created.has(`user:${id}`)) return
  const user = seen.users.get(id) ?? {}
  fill(user, value)
  seen.users.set(id, user)
}

/** Notes users embedded anywhere (authors, assignees, owners, ...). */
function noteEmbeddedUsers(seen: Seen, value: unknown, depth = 0): void {
  if (depth > 6) return
  if (Array.isArray(value)) {
    for (const item of value) noteEmbeddedUsers(seen, item, depth + 1)
    return
  }
  if (!isObject(value)) return
  for (const [key, child] of Object.entries(value)) {
    if (['author', 'assignee', 'owner', 'closed_by', 'merged_by', 'user'].includes(key)) noteUser(seen, child)
    if (key === 'assignees' || key === 'reviewers') for (const user of Array.isArray(child) ? child : []) noteUser(seen, user)
    if (isObject(child) || Array.isArray(child)) noteEmbeddedUsers(seen, child, depth + 1)
  }
}

function findByRef(map: Map<number, Json>, ref: string | undefined, pathKey: string): Json | undefined {
  if (ref === undefined) return undefined
  if (/^\d+$/.test(ref)) return map.get(Number(ref))
  return [...map.values()].find((e) => str(e[pathKey])?.toLowerCase() === ref.toLowerCase())
}

/** First pass: users, groups, projects, token owners and created records. */
function collectRoots(seen: Seen, exchanges: Exchange[]): void {
  for (const x of exchanges) {
    if (x.method === 'POST' && x.status === 201 && isObject(x.body) && num(x.body.id) !== undefined) {
      // POST to a collection (`/projects/:id/hooks`) creates one record of its kind.
      const kind = KIND_OF_COLLECTION[x.segments.at(-1) ?? '']
      if (kind) seen.created.add(`${kind}:${x.body.id as number}`)
    }
    if (x.token && x.sudo) seen.tokenSudo.add(x.token)
    if (x.method !== 'GET' || x.status < 200 || x.status >= 300 || x.body === undefined) continue
    noteEmbeddedUsers(seen, x.body)
    const t = x.template
    if (t === '/user' && isObject(x.body)) {
      noteUser(seen, x.body)
      if (x.token && num(x.body.id) !== undefined && !x.sudo && !seen.tokenOwners.has(x.token)) seen.tokenOwners.set(x.token, x.body.id as number)
    } else if (t === '/users' || t === '/users/:id') {
      for (const user of list(x.body)) noteUser(seen, user)
    } else if (t === '/groups' || t === '/groups/:id') {
      for (const group of list(x.body)) {
        noteRecord(seen.groups, ctxOf(seen), 'group', group)
        if (isObject(group)) for (const project of Array.isArray(group.projects) ? group.projects : []) noteRecord(seen.projects, ctxOf(seen), 'project', project)
      }
    } else if (t === '/projects' || t === '/projects/:id') {
      for (const project of list(x.body)) noteRecord(seen.projects, ctxOf(seen), 'project', project)
    }
  }
}

/** The created-record check of {@link Seen}, as the importers' helpers take it. */
function ctxOf(seen: Seen): Pick<ImportCollectContext, 'created'> {
  return { created: (kind, id) => seen.created.has(`${kind}:${id}`) }
}

/** Second pass: every successful GET goes to the areas' importers; what none takes in is noted. */
function collectChildren(seen: Seen, exchanges: Exchange[], runs: readonly AreaImport[]): void {
  for (const x of exchanges) {
    if (x.method !== 'GET' || x.status < 200 || x.status >= 300 || x.body === undefined) continue
    const t = x.template
    const ctx: ImportCollectContext = {
      userId: x.token ? seen.tokenOwners.get(x.token) : undefined,
      group: x.segments[0] === 'groups' ? findByRef(seen.groups, x.segments[1], 'full_path') : undefined,
      project: x.segments[0] === 'projects' ? findByRef(seen.projects, x.segments[1], 'path_with_namespace') : undefined,
      username: (id) => str(seen.users.get(id)?.username),
      noteUser: (value) => noteUser(seen, value),
      created: (kind, id) => seen.created.has(`${kind}:${id}`),
    }
    let taken = false
    for (const run of runs) if (run.collect?.(x, ctx)) taken = true
    if (!taken && !CORE_TEMPLATES.has(t)) seen.unsupported.set(`GET ${t}`, (seen.unsupported.get(`GET ${t}`) ?? 0) + 1)
  }
}

// ---- building the scenario --------------------------------------------------------------------

function userEntry(user: Json, tokens: Json[]): Json {
  const out = pick(
    user,
    ['id', 'username', 'name', 'email', 'state', 'avatar_url', 'bio', 'location', 'public_email', 'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'job_title', 'created_at', 'last_sign_in_at', 'current_sign_in_at', 'last_activity_on', 'can_create_group', 'projects_limit', 'private_profile'],
    ['avatar_url', 'last_sign_in_at', 'current_sign_in_at', 'last_activity_on'],
  )
  if (user.is_admin === true) out.admin = true
  if (user.bot === true) out.user_type = 'project_bot'
  if (!['active', 'blocked', 'deactivated'].includes(String(out.state))) delete out.state
  if (tokens.length > 0) out.tokens = tokens
  return out
}

/**
 * Turns a cassette into a scenario.
 * @returns the scenario (object and YAML) and the notes on what it does not reproduce.
 * @throws ScenarioError only if the import produced a scenario the simulator refuses (a bug;
 *   the YAML is validated before it is returned).
 * @example
 * const { yaml, notReproduced } = await importCassette(parseCassette(text), { source: 'session.har.json' })
 */
export async function importCassette(har: Har, options: ImportOptions = {}): Promise<ImportResult> {
  const exchanges = har.log.entries.map(exchangeOf)
  const seen = new Seen()
  const runs = IMPORTERS.map((importer) => importer.start?.() ?? {})
  collectRoots(seen, exchanges)
  collectChildren(seen, exchanges, runs)
  const notes = seen.notes
  const usernameOf = (id: number): string | undefined => str(seen.users.get(id)?.username)

  // Groups first, so projects and the areas' sections can be attached; parents that were never
  // seen are made from the full paths of their children.
  const groupByPath = new Map<string, Json>()
  for (const group of [...seen.groups.values()].sort((a, b) => (a.id as number) - (b.id as number))) {
    const fullPath = str(group.full_path) ?? str(group.path)
    if (fullPath) groupByPath.set(fullPath, group)
  }
  const ensureGroup = (fullPath: string, from: Json | undefined): void => {
    if (groupByPath.has(fullPath)) return
    const parts = fullPath.split('/')
    groupByPath.set(fullPath, { ...(from ?? {}), path: parts.at(-1), full_path: fullPath })
    notes.push(`group ${fullPath}: only seen as a namespace; its visibility, description and dates are not reproduced`)
    if (parts.length > 1) ensureGroup(parts.slice(0, -1).join('/'), undefined)
  }
  for (const project of seen.projects.values()) {
    const namespace = isObject(project.namespace) ? project.namespace : undefined
    if (namespace?.kind === 'group' && str(namespace.full_path)) {
      ensureGroup(namespace.full_path as string, { id: namespace.id, name: namespace.name, path: namespace.path })
    }
    if (namespace?.kind === 'user' && str(namespace.path) && ![...seen.users.values()].some((u) => u.username === namespace.path)) {
      const owner = isObject(project.owner) ? project.owner : { username: namespace.path, name: namespace.name }
      seen.users.set(num(owner.id) ?? -seen.users.size - 1, { ...owner })
    }
  }
  for (const fullPath of [...groupByPath.keys()]) if (fullPath.includes('/')) ensureGroup(fullPath.split('/').slice(0, -1).join('/'), undefined)

  // Tokens: each placeholder seen in a GET /user becomes a token of that user.
  const tokensByUser = new Map<number, Json[]>()
  for (const [token, userId] of seen.tokenOwners) {
    const user = seen.users.get(userId)
    const scopes = ['api', ...(user?.is_admin === true && seen.tokenSudo.has(token) ? ['sudo'] : [])]
    tokensByUser.set(userId, [...(tokensByUser.get(userId) ?? []), { token, name: 'imported', scopes }])
  }
  const unknownTokens = new Set(exchanges.map((x) => x.token).filter((t): t is string => t !== undefined && !seen.tokenOwners.has(t)))
  for (const token of unknownTokens) notes.push(`token ${token}: no recorded GET /user shows its owner, so requests sending it are not authenticated`)
  if (seen.tokenOwners.size > 0) notes.push(`token scopes: not recorded; imported tokens get [api] (plus sudo for an admin whose requests used sudo)`)

  const groupsOut = [...groupByPath.entries()].map(([fullPath, group]) => {
    const parent = fullPath.includes('/') ? fullPath.split('/').slice(0, -1).join('/') : undefined
    const out: Json = {
      ...pick(group, ['id', 'path', ...GROUP_FIELDS]),
      ...(parent ? { parent } : {}),
    }
    if (typeof out.description !== 'string') delete out.description
    return { fullPath, out }
  })
  const groupOut = new Map(groupsOut.map((g) => [g.fullPath, g.out]))
  const groupPathById = new Map<number, string>()
  for (const [fullPath, group] of groupByPath) if (num(group.id) !== undefined) groupPathById.set(group.id as number, fullPath)

  const projectsOut = new Map<number, Json>()
  const projectPathById = new Map<number, string>()
  for (const project of [...seen.projects.values()].sort((a, b) => (a.id as number) - (b.id as number))) {
    const namespace = isObject(project.namespace) ? project.namespace : undefined
    const namespacePath = str(namespace?.full_path) ?? str(project.path_with_namespace)?.split('/').slice(0, -1).join('/')
    if (!namespacePath || !str(project.path)) {
      notes.push(`project ${String(project.id)}: no namespace recorded; not imported`)
      continue
    }
    const out: Json = {
      ...pick(project, ['id', 'path']),
      namespace: namespacePath,
      ...pick(project, PROJECT_FIELDS),
    }
    if (typeof out.description !== 'string') delete out.description
    projectsOut.set(project.id as number, out)
    projectPathById.set(project.id as number, `${namespacePath}/${String(project.path)}`)
  }

  const counts: ImportResult['counts'] = { users: 0, groups: groupsOut.length, projects: projectsOut.size }
  for (const importer of IMPORTERS) for (const kind of importer.counts ?? []) counts[kind] = 0

  // The areas' sections, in rank order.
  const build: ImportBuildContext = {
    exchanges,
    group: (fullPath) => groupOut.get(fullPath),
    groupPath: (id) => groupPathById.get(id),
    project: (id) => projectsOut.get(id),
    projectPath: (id) => projectPathById.get(id),
    username: usernameOf,
    push: (into, key, value) => {
      if (!into) return false
      into[key] = [...((into[key] as Json[] | undefined) ?? []), value]
      return true
    },
    count: (kind) => {
      counts[kind] = (counts[kind] ?? 0) + 1
    },
    note: (text) => void notes.push(text),
  }
  for (const run of runs) run.build?.(build)

  const usersOut = [...seen.users.values()]
    .filter((u) => str(u.username) !== undefined)
    .sort((a, b) => (num(a.id) ?? Infinity) - (num(b.id) ?? Infinity))
    .map((u) => userEntry(num(u.id) !== undefined && (u.id as number) > 0 ? u : { ...u, id: undefined }, tokensByUser.get(u.id as number) ?? []))
  counts.users = usersOut.length

  for (const [template, count] of [...seen.unsupported].sort()) {
    notes.push(`${template} (${count} recorded): not in the scenario format yet`)
  }
  const firstDate = har.log.entries[0] ? (harHeader(har.log.entries[0].response.headers, 'date') ?? har.log.entries[0].startedDateTime) : undefined
  const now = options.now ?? (firstDate && !Number.isNaN(Date.parse(firstDate)) ? new Date(firstDate).toISOString() : undefined)
  const scenario: Json = {
    version: 1,
    ...(now ? { now } : {}),
    seed: 1,
    users: usersOut,
    groups: groupsOut.map((g) => g.out),
    projects: [...projectsOut.values()],
  }
  const bodyText = stringify(scenario, { lineWidth: 0 })
  // Validate before verifying: a refused scenario is a bug here, not a property of the cassette.
  parseScenario(bodyText, { file: '<imported scenario>' })

  const differing = options.verify === false ? [] : await verify(exchanges, bodyText)
  const notReproduced = [...notes, ...differing]
  const header = [
    `# Imported by fakelab from ${options.source ?? 'a cassette'} (${har.log.entries.length} recorded exchanges).`,
    '# State at the start of the session; records the session created are left out.',
    ...(notReproduced.length > 0 ? ['# Not reproduced:', ...notReproduced.map((n) => `#   - ${n}`)] : ['# Every recorded GET is answered with the same body.']),
  ]
  return { scenario, yaml: `${header.join('\n')}\n${bodyText}`, notReproduced, counts }
}

// ---- verification -----------------------------------------------------------------------------

/** Fields of `recorded` that `actual` does not reproduce, as `[].a.b` paths. */
function diffPaths(recorded: unknown, actual: unknown, path: string, out: Set<string>): void {
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    if (recorded.length !== actual.length) out.add(`${path || '(body)'} (length ${recorded.length} recorded, ${actual.length} imported)`)
    for (let i = 0; i < Math.min(recorded.length, actual.length); i++) diffPaths(recorded[i], actual[i], `${path}[]`, out)
    return
  }
  if (isObject(recorded) && isObject(actual)) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(actual)])) {
      const child = path ? `${path}.${key}` : key
      if (!(key in actual)) out.add(`${child} (missing)`)
      else if (!(key in recorded)) out.add(`${child} (extra)`)
      else diffPaths(recorded[key], actual[key], child, out)
    }
    return
  }
  if (JSON.stringify(recorded) !== JSON.stringify(actual) && !(typeof recorded === 'string' && PLACEHOLDER.test(recorded) && recorded === actual)) {
    out.add(path || '(body)')
  }
}

const NOT_FORWARDED = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding'])

/**
 * Replays the session in order against a simulator of `scenarioYaml` and describes each GET answer
 * (status or field) that differs from the recording, one note per route and field.
 */
async function verify(exchanges: Exchange[], scenarioYaml: string): Promise<string[]> {
  const sim = createSimulator({ scenario: scenarioYaml })
  const fields = new Map<string, Set<string>>()
  const notes: string[] = []
  // Records the session creates get the simulator's next ids, not GitLab's (the scenario holds
  // only the records the session saw). Later requests are sent to the new ids.
  const renamed = new Map<string, string>()
  for (const x of exchanges) {
    const headers = new Headers()
    for (const h of x.entry.request.headers) if (!NOT_FORWARDED.has(h.name.toLowerCase()) && !h.name.startsWith(':')) headers.append(h.name, h.value)
    const text = ['GET', 'HEAD'].includes(x.method) ? undefined : x.entry.request.postData?.text
    const url = new URL(x.entry.request.url)
    url.pathname = url.pathname
      .split('/')
      .map((segment, i, all) => renamed.get(`${all[i - 1]}/${segment}`) ?? segment)
      .join('/')
    const response = await sim.handle(new Request(url, { method: x.method, headers, ...(text ? { body: text } : {}) }))
    const answer = await response.text()
    const route = `${x.method} ${x.template}`
    if (response.status !== x.status) {
      notes.push(`${x.method} ${x.path}: status ${x.status} recorded, ${response.status} from the imported scenario`)
      continue
    }
    let body: unknown
    try {
      body = answer === '' ? undefined : JSON.parse(answer)
    } catch {
      body = answer
    }
    const collection = x.segments.at(-1)
    if (x.method === 'POST' && x.status === 201 && collection && KIND_OF_COLLECTION[collection] && isObject(x.body) && isObject(body) && x.body.id !== body.id) {
      renamed.set(`${collection}/${String(x.body.id)}`, String(body.id))
      notes.push(`POST ${x.template}: created ${KIND_OF_COLLECTION[collection]} ${String(x.body.id)} is ${String(body.id)} here (ids continue past the imported records, not GitLab's sequence)`)
    }
    if (x.method !== 'GET' || x.body === undefined) continue
    const out = fields.get(route) ?? new Set<string>()
    diffPaths(x.body, body, '', out)
    fields.set(route, out)
  }
  for (const [route, paths] of [...fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (paths.size > 0) notes.push(`${route}: ${[...paths].sort().join(', ')}`)
  }
  return notes
}
