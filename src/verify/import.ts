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
 * ...). Those lists, plus the answers no area takes in, are the "not reproduced" notes. That
 * check is a verify run (`createSessionReplayer`), so the importer lives here in verify/, above
 * the cassette layer (src/record/) it reads with, and `verifyCassette` builds on it in turn.
 * Source: fakelab #11 ("Cassette to scenario").
 * @module
 */
import type { Entry, Har } from 'har-format'
import { stringify } from 'yaml'
import { areas } from '../resources/index.js'
import type { AreaImport, AreaImporter, ImportBuildContext, ImportCollectContext, ImportExchange, Json } from '../scenario/importer.js'
import { fill, isObject, list, noteRecord, num, pick, str } from '../scenario/importer.js'
import { createSimulator, parseScenario } from '../simulator.js'
import { credentialOf, importedToken, isJobToken } from '../record/credentials.js'
import { cassetteMeta, harHeader } from '../record/har.js'
import { apiPath, routeTemplate } from '../record/match.js'
import { DEFAULT_NORMALISATIONS } from './normalise.js'
import { createSessionReplayer } from './verify.js'

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
  /**
   * The real values of recorded credentials, keyed by placeholder (`[REDACTED-1]`) or by the
   * username it authenticates as (`root`): the imported user gets that token instead of
   * `glpat-imported-<n>`, so a client re-run unchanged authenticates. The value is then written
   * into the scenario. (`fakelab import --token root=$GITLAB_TOKEN`.)
   */
  tokens?: ReadonlyMap<string, string>
}

/** A token the imported scenario holds for a recorded credential. */
export interface ImportedToken {
  /** The placeholder of the cassette (`[REDACTED-1]`). */
  placeholder: string
  /** The user it authenticates as. */
  username: string
  /** Its value in the scenario: `glpat-imported-<n>`, or the value given in {@link ImportOptions.tokens}. */
  token: string
  /** Whether the value was given (then it is the client's own token), rather than derived. */
  given: boolean
  /** How the session sent it (`PRIVATE-TOKEN`, `private_token=`, ...). */
  sentAs: string
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
  /** The token each recorded credential became, by placeholder number. */
  tokens: ImportedToken[]
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
  return credentialOf(entry.request.headers, new URL(entry.request.url))?.value
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
  /** token placeholder → how it was sent (`PRIVATE-TOKEN`, ...) */
  tokenSentAs = new Map<string, string>()
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

/**
 * The users behind the session's credentials as the recorder noted them (`log._fakelab`): first,
 * because that is each user as the session's first request with the credential found it.
 */
function collectCredentials(seen: Seen, har: Har): void {
  for (const credential of cassetteMeta(har).credentials ?? []) {
    seen.tokenSentAs.set(credential.placeholder, credential.sent_as)
    if (credential.status !== 200 || credential.user === null) continue
    if (isJobToken(credential.sent_as)) {
      seen.notes.push(`token ${credential.placeholder}: a CI job token of ${credential.user.username}; job tokens belong to a project's job, which no answer names, so it is not imported`)
      continue
    }
    noteUser(seen, credential.user)
    if (!seen.tokenOwners.has(credential.placeholder)) seen.tokenOwners.set(credential.placeholder, credential.user.id)
  }
}

/** First pass: users, groups, projects, token owners and created records. */
function collectRoots(seen: Seen, exchanges: Exchange[]): void {
  for (const x of exchanges) {
    if (x.token && !seen.tokenSentAs.has(x.token)) {
      const sent = credentialOf(x.entry.request.headers, new URL(x.entry.request.url))
      if (sent) seen.tokenSentAs.set(x.token, sent.sentAs)
    }
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

/** `acme/platform/api` from `acme/platform/api#3` (issues), `!3` (merge requests), `%3` (milestones). */
function pathOfReference(reference: string | undefined): string | undefined {
  return reference ? /^([^#!%~&$\s]+\/[^#!%~&$\s]+)[#!%~&$]/.exec(reference)?.[1] : undefined
}

/** `acme/platform/api` from `http://host/acme/platform/api/-/issues/3`. */
function pathOfWebUrl(webUrl: string | undefined): string | undefined {
  if (!webUrl || !URL.canParse(webUrl)) return undefined
  const path = new URL(webUrl).pathname
  const at = path.indexOf('/-/')
  return at > 0 && !path.startsWith('/groups/') ? decodeURIComponent(path.slice(1, at)) : undefined
}

/** `acme/platform` from a group milestone's `http://host/groups/acme/platform/-/milestones/3`. */
function groupPathOfWebUrl(webUrl: string | undefined): string | undefined {
  if (!webUrl || !URL.canParse(webUrl)) return undefined
  const path = new URL(webUrl).pathname
  const at = path.indexOf('/-/')
  return path.startsWith('/groups/') && at > 0 ? decodeURIComponent(path.slice('/groups/'.length, at)) : undefined
}

/**
 * The groups or projects a session named: `byPath` maps each full path (lower case) to its id
 * where an answer showed one, `idOnly` holds the ids named without a path (`/projects/7/labels`).
 */
interface Named {
  readonly byPath: Map<string, number | undefined>
  readonly idOnly: Set<number>
  /** Notes a full path with its id when one is shown, or an id alone when `fullPath` is undefined. */
  note(fullPath: string | undefined, id: number | undefined): void
  /** Every id shown beside a path. */
  pathIds(): number[]
}

function named(): Named {
  const byPath = new Map<string, number | undefined>()
  const idOnly = new Set<number>()
  return {
    byPath,
    idOnly,
    note(fullPath, id) {
      if (fullPath === undefined) {
        if (id !== undefined) idOnly.add(id)
        return
      }
      const key = fullPath.toLowerCase()
      if (!byPath.has(key) || (byPath.get(key) === undefined && id !== undefined)) byPath.set(key, id)
    },
    pathIds: () => [...byPath.values()].filter((id): id is number => id !== undefined),
  }
}

/**
 * Pass between the roots and the areas: the groups and projects the session only named (in request
 * paths, in an issue's `project_id` and `references`, a milestone's `group_id` and `web_url`, an
 * embedded `project`), never fetched. Each becomes a record of `seen` so the areas' answers about
 * it (labels, members, milestones, ...) have somewhere to go. An id no answer shows is made up
 * (past every id seen) and noted; a record only ever named by id is noted and left out.
 */
function inferRoots(seen: Seen, exchanges: Exchange[]): void {
  const projects = named()
  const groups = named()
  const namespaceIds = new Set<number>()
  const casing = new Map<string, string>()
  for (const x of exchanges) {
    if (x.status < 200 || x.status >= 300 || seen.created.has(`${x.segments[0] === 'groups' ? 'group' : 'project'}:${x.segments[1]}`)) continue
    const ref = x.segments[1]
    if (ref !== undefined && x.segments.length > 2) {
      const byId = /^\d+$/.test(ref) ? Number(ref) : undefined
      if (x.segments[0] === 'projects') projects.note(byId === undefined ? ref : undefined, byId)
      if (x.segments[0] === 'groups') groups.note(byId === undefined ? ref : undefined, byId)
      if (byId === undefined) casing.set(ref.toLowerCase(), ref)
    }
    if (x.method !== 'GET') continue
    for (const item of list(x.body)) {
      if (!isObject(item)) continue
      const projectId = num(item.project_id)
      const webUrl = str(item.web_url)
      const path = pathOfReference(isObject(item.references) ? str(item.references.full) : undefined) ?? pathOfWebUrl(webUrl)
      if (projectId !== undefined && path) {
        projects.note(path, projectId)
        casing.set(path.toLowerCase(), path)
      }
      const groupId = num(item.group_id)
      const groupPath = groupPathOfWebUrl(webUrl)
      if (groupId !== undefined && groupPath) {
        groups.note(groupPath, groupId)
        casing.set(groupPath.toLowerCase(), groupPath)
      }
      if (isObject(item.project) && num(item.project.id) !== undefined && str(item.project.path_with_namespace)) noteRecord(seen.projects, ctxOf(seen), 'project', item.project)
    }
  }
  for (const project of seen.projects.values()) {
    const namespace = isObject(project.namespace) ? project.namespace : undefined
    if (num(namespace?.id) !== undefined) namespaceIds.add(namespace!.id as number)
    if (namespace?.kind === 'group' && str(namespace.full_path)) groups.note(namespace.full_path as string, num(namespace.id))
  }
  const knownProject = (path: string, id: number | undefined): boolean =>
    (id !== undefined && seen.projects.has(id)) || [...seen.projects.values()].some((p) => str(p.path_with_namespace)?.toLowerCase() === path)
  const knownGroup = (path: string, id: number | undefined): boolean =>
    (id !== undefined && seen.groups.has(id)) || [...seen.groups.values()].some((g) => str(g.full_path)?.toLowerCase() === path)
  let nextProjectId = Math.max(0, ...seen.projects.keys(), ...projects.pathIds(), ...projects.idOnly) + 1
  let nextGroupId = Math.max(0, ...seen.groups.keys(), ...namespaceIds, ...groups.pathIds(), ...groups.idOnly) + 1
  for (const [key, known] of groups.byPath) {
    if (knownGroup(key, known)) continue
    const fullPath = casing.get(key) ?? key
    const id = known ?? nextGroupId++
    if (known === undefined) seen.notes.push(`group ${fullPath}: its id was never recorded; imported as ${id}`)
    seen.groups.set(id, { id, path: fullPath.split('/').at(-1), full_path: fullPath, _inferred: true })
    seen.notes.push(`group ${fullPath}: only seen in paths and other answers; its name, visibility, description and dates are not reproduced`)
  }
  for (const [key, known] of projects.byPath) {
    if (knownProject(key, known)) continue
    const fullPath = casing.get(key) ?? key
    const id = known ?? nextProjectId++
    if (known === undefined) seen.notes.push(`project ${fullPath}: its id was never recorded; imported as ${id}`)
    const namespacePath = fullPath.split('/').slice(0, -1).join('/')
    const personal = [...seen.users.values()].some((u) => str(u.username)?.toLowerCase() === namespacePath.toLowerCase())
    const group = [...seen.groups.values()].find((g) => str(g.full_path)?.toLowerCase() === namespacePath.toLowerCase())
    seen.projects.set(id, {
      id,
      path: fullPath.split('/').at(-1),
      path_with_namespace: fullPath,
      namespace: { ...(group ? { id: group.id } : {}), path: namespacePath.split('/').at(-1), full_path: namespacePath, kind: personal ? 'user' : 'group' },
    })
    seen.notes.push(`project ${fullPath}: only seen in paths and other answers; its name, visibility, description and dates are not reproduced`)
  }
  for (const id of projects.idOnly) {
    if (!seen.projects.has(id) && !projects.pathIds().includes(id)) seen.notes.push(`project ${id}: only seen by id in request paths, no answer shows its path; not imported`)
  }
  for (const id of groups.idOnly) {
    if (!seen.groups.has(id) && !groups.pathIds().includes(id) && !namespaceIds.has(id)) seen.notes.push(`group ${id}: only seen by id in request paths, no answer shows its path; not imported`)
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
  collectCredentials(seen, har)
  collectRoots(seen, exchanges)
  inferRoots(seen, exchanges)
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
  const ensureGroup = (fullPath: string, from: Json | undefined, seenAs = 'a namespace'): void => {
    const known = groupByPath.get(fullPath)
    if (known) {
      // A group known only from paths takes what a project's namespace shows of it (its name, id).
      if (from) for (const [key, value] of Object.entries(from)) if (known[key] === undefined && value !== undefined && value !== null) known[key] = value
      return
    }
    const parts = fullPath.split('/')
    groupByPath.set(fullPath, { ...(from ?? {}), path: parts.at(-1), full_path: fullPath })
    notes.push(`group ${fullPath}: only seen as ${seenAs}; its visibility, description and dates are not reproduced`)
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
  // A group a project or group is shared with shows its id, name and full path in the share
  // (`SharedGroupWithProject`): it is a group of the scenario, so the share can be imported.
  for (const record of [...seen.projects.values(), ...seen.groups.values()]) {
    for (const share of Array.isArray(record.shared_with_groups) ? record.shared_with_groups : []) {
      if (isObject(share) && str(share.group_full_path)) ensureGroup(share.group_full_path as string, { id: share.group_id, name: share.group_name }, 'a group shared with')
    }
  }
  for (const fullPath of [...groupByPath.keys()]) if (fullPath.includes('/')) ensureGroup(fullPath.split('/').slice(0, -1).join('/'), undefined)

  // Tokens: each placeholder whose user is known (the recorder's note, or a recorded GET /user)
  // becomes a token of that user: the value given for it, else `glpat-imported-<n>`.
  const tokensByUser = new Map<number, Json[]>()
  const tokens: ImportedToken[] = []
  const placeholderOrder = (a: string, b: string): number => Number(/\d+/.exec(a)?.[0] ?? 0) - Number(/\d+/.exec(b)?.[0] ?? 0)
  for (const [placeholder, userId] of [...seen.tokenOwners].sort(([a], [b]) => placeholderOrder(a, b))) {
    const user = seen.users.get(userId)
    const username = str(user?.username) ?? String(userId)
    const given = options.tokens?.get(placeholder) ?? options.tokens?.get(username)
    const token = given ?? importedToken(placeholder)
    tokens.push({ placeholder, username, token, given: given !== undefined, sentAs: seen.tokenSentAs.get(placeholder) ?? 'PRIVATE-TOKEN' })
    const scopes = ['api', ...(user?.is_admin === true && seen.tokenSudo.has(placeholder) ? ['sudo'] : [])]
    tokensByUser.set(userId, [...(tokensByUser.get(userId) ?? []), { token, name: 'imported', scopes }])
  }
  const unknownTokens = new Set(exchanges.map((x) => x.token).filter((t): t is string => t !== undefined && !seen.tokenOwners.has(t)))
  for (const token of unknownTokens) notes.push(`token ${token}: neither the recorder nor a recorded GET /user shows its owner, so requests sending it are not authenticated`)
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

  const differing = options.verify === false ? [] : await verify(exchanges, bodyText, tokenMap(tokens))
  const notReproduced = [...notes, ...differing]
  const header = [
    `# Imported by fakelab from ${options.source ?? 'a cassette'} (${har.log.entries.length} recorded exchanges).`,
    '# State at the start of the session; records the session created are left out.',
    ...(notReproduced.length > 0 ? ['# Not reproduced:', ...notReproduced.map((n) => `#   - ${n}`)] : ['# Every recorded GET is answered with the same body.']),
  ]
  const tokenLines = tokens.map((t) => `#   ${t.placeholder} -> ${t.username}: ${t.given ? 'the token given for it' : t.token}`)
  if (tokenLines.length > 0) header.push(`# Tokens (send these instead of the recorded ones, or import with --token ${tokens[0]!.username}=<your token>):`, ...tokenLines)
  return { scenario, yaml: `${header.join('\n')}\n${bodyText}`, notReproduced, counts, tokens }
}

/** Placeholder → the token the imported scenario holds for it: what a recorded request must send instead. */
export function tokenMap(tokens: readonly ImportedToken[]): Map<string, string> {
  return new Map(tokens.map((t) => [t.placeholder, t.token]))
}

// ---- verification -----------------------------------------------------------------------------

/**
 * Replays the session in order against a simulator of `scenarioYaml`, as `fakelab verify` does
 * (its session replayer: created records renamed in later paths, bodies and answers, the same
 * normalisation), and describes each answer status and each field of a recorded GET answer that
 * differs, one note per route and field (`[]` for any list index).
 */
async function verify(exchanges: Exchange[], scenarioYaml: string, tokens: ReadonlyMap<string, string>): Promise<string[]> {
  const sim = createSimulator({ scenario: scenarioYaml })
  const replayer = createSessionReplayer(sim, DEFAULT_NORMALISATIONS, [], tokens)
  const fields = new Map<string, Set<string>>()
  const notes: string[] = []
  const renamed = new Set<string>()
  for (const [index, x] of exchanges.entries()) {
    const result = await replayer.replay(x.entry, index)
    // Records the session creates get the simulator's next ids, not GitLab's (the scenario holds
    // only the records the session saw); the replayer sends later requests to the new ids.
    for (const r of replayer.renamedIds()) {
      const key = `${r.kind}/${r.recorded}`
      if (r.kind.includes('#') || renamed.has(key)) continue
      renamed.add(key)
      notes.push(`POST ${x.template}: created ${KIND_OF_COLLECTION[r.kind] ?? r.kind} ${r.recorded} is ${r.simulated} here (ids continue past the imported records, not GitLab's sequence)`)
    }
    if (result.recordedStatus !== result.simulatedStatus) {
      notes.push(`${x.method} ${x.path}: status ${result.recordedStatus} recorded, ${result.simulatedStatus} from the imported scenario`)
      continue
    }
    if (x.method !== 'GET' || x.body === undefined) continue
    const route = `${x.method} ${x.template}`
    const out = fields.get(route) ?? new Set<string>()
    for (const d of result.differences) out.add(d.path.replace(/^\$\.?/, '').replace(/\[\d+\]/g, '[]'))
    fields.set(route, out)
  }
  for (const [route, paths] of [...fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (paths.size > 0) notes.push(`${route}: ${[...paths].sort().join(', ')}`)
  }
  return notes
}
