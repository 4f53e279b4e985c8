/**
 * Cassette → scenario: turns the entities a recorded session saw (users, groups, projects,
 * labels, milestones, freeze periods, issues, merge requests, members) into a scenario YAML for
 * the stateful simulator, so a recording can seed it. Browser-safe (the CLI reads and writes files).
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
 * ...). Those lists, plus what was seen but has no place in the scenario format (runners, to-dos,
 * access tokens, ...), are the "not reproduced" notes. Source: issue 11 ("Cassette to scenario").
 * @module
 */
import type { Entry, Har } from 'har-format'
import { stringify } from 'yaml'
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
  /** How many entities of each kind were imported. */
  counts: Record<'users' | 'groups' | 'projects' | 'labels' | 'milestones' | 'freeze_periods' | 'issues' | 'merge_requests' | 'members', number>
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined)

/** Path segments that are words, not ids, where an id could stand. */
const STATIC_SEGMENTS = new Set(['all', 'promote', 'verify', 'reset_registration_token', 'subscribe', 'unsubscribe', 'mark_as_done', 'schedule'])

/** `/projects/20/labels/bug` → `/projects/:id/labels/:id`: a route shape for grouping notes. */
export function routeTemplate(path: string): string {
  const segments = path.split('/').slice(1)
  return `/${segments.map((s, i) => (i % 2 === 1 && !STATIC_SEGMENTS.has(s) ? ':id' : s)).join('/')}`
}

interface Exchange {
  entry: Entry
  method: string
  path: string
  template: string
  segments: string[]
  status: number
  token: string | undefined
  sudo: boolean
  body: unknown
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

/** Copies the keys of `from` that `into` lacks: first sight wins, later sights fill gaps. */
function fill(into: Json, from: Json): void {
  for (const [key, value] of Object.entries(from)) if (!(key in into) && value !== undefined) into[key] = value
}

/** Collected state, keyed by GitLab id (or a synthetic key when the id is unknown). */
class Seen {
  users = new Map<number, Json>()
  groups = new Map<number, Json>()
  projects = new Map<number, Json>()
  /** label id → { label, owner: `project:<id>` | candidate group ids } */
  projectLabels = new Map<number, { label: Json; projectId: number }>()
  groupLabels = new Map<number, { label: Json; groupIds: Set<number>; projectIds: Set<number> }>()
  milestones = new Map<number, Json>()
  freezePeriods = new Map<number, { period: Json; projectId: number }>()
  issues = new Map<number, Json>()
  mergeRequests = new Map<number, Json>()
  /** `project:<id>` / `group:<id>` → username → member */
  members = new Map<string, Map<string, Json>>()
  /** token placeholder → user id */
  tokenOwners = new Map<string, number>()
  tokenSudo = new Set<string>()
  subscriptions = new Map<number, Set<number>>()
  created = new Set<string>()
  notes: string[] = []
  unsupported = new Map<string, number>()
}

const KIND_OF_COLLECTION: Record<string, string> = {
  users: 'user',
  groups: 'group',
  projects: 'project',
  labels: 'label',
  milestones: 'milestone',
  freeze_periods: 'freeze_period',
  issues: 'issue',
  merge_requests: 'merge_request',
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

function note(map: Map<number, Json>, seen: Seen, kind: string, value: unknown): Json | undefined {
  if (!isObject(value) || num(value.id) === undefined) return undefined
  if (seen.created.has(`${kind}:${value.id as number}`)) return undefined
  const entity = map.get(value.id as number) ?? {}
  fill(entity, value)
  map.set(value.id as number, entity)
  return entity
}

const list = (body: unknown): unknown[] => (Array.isArray(body) ? body : body === undefined ? [] : [body])

function findByRef(map: Map<number, Json>, ref: string | undefined, pathKey: string): Json | undefined {
  if (ref === undefined) return undefined
  if (/^\d+$/.test(ref)) return map.get(Number(ref))
  return [...map.values()].find((e) => str(e[pathKey])?.toLowerCase() === ref.toLowerCase())
}

function noteMember(seen: Seen, source: string, username: string, level: number, expires: unknown): void {
  const members = seen.members.get(source) ?? new Map<string, Json>()
  if (!members.has(username)) members.set(username, { user: username, access_level: level, ...(typeof expires === 'string' || expires === null ? { expires_at: expires } : {}) })
  seen.members.set(source, members)
}

/** First pass: users, groups, projects, token owners and created records. */
function collectRoots(seen: Seen, exchanges: Exchange[]): void {
  for (const x of exchanges) {
    if (x.method === 'POST' && x.status === 201 && isObject(x.body) && num(x.body.id) !== undefined) {
      // POST to a collection (`/projects/:id/labels`) creates one record of its kind.
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
        note(seen.groups, seen, 'group', group)
        if (isObject(group)) for (const project of Array.isArray(group.projects) ? group.projects : []) note(seen.projects, seen, 'project', project)
      }
    } else if (t === '/projects' || t === '/projects/:id') {
      for (const project of list(x.body)) note(seen.projects, seen, 'project', project)
    }
  }
}

/** Second pass: everything that hangs off a group or a project. */
function collectChildren(seen: Seen, exchanges: Exchange[]): void {
  for (const x of exchanges) {
    if (x.method !== 'GET' || x.status < 200 || x.status >= 300 || x.body === undefined) continue
    const t = x.template
    const user = x.token ? seen.tokenOwners.get(x.token) : undefined
    const group = x.segments[0] === 'groups' ? findByRef(seen.groups, x.segments[1], 'full_path') : undefined
    const project = x.segments[0] === 'projects' ? findByRef(seen.projects, x.segments[1], 'path_with_namespace') : undefined
    if (t === '/projects' || t === '/projects/:id' || t === '/groups/:id') {
      const projects = t === '/groups/:id' ? (isObject(x.body) && Array.isArray(x.body.projects) ? x.body.projects : []) : list(x.body)
      for (const p of projects) notePermissions(seen, p, user)
    } else if ((t === '/groups/:id/labels' || t === '/groups/:id/labels/:id') && group) {
      for (const label of list(x.body)) noteGroupLabel(seen, label, user, { groupId: group.id as number })
    } else if ((t === '/projects/:id/labels' || t === '/projects/:id/labels/:id') && project) {
      for (const label of list(x.body)) {
        if (isObject(label) && label.is_project_label === false) noteGroupLabel(seen, label, user, { projectId: project.id as number })
        else if (isObject(label) && num(label.id) !== undefined && !seen.created.has(`label:${label.id as number}`)) {
          const known = seen.projectLabels.get(label.id as number)
          if (known) fill(known.label, label)
          else seen.projectLabels.set(label.id as number, { label: { ...label }, projectId: project.id as number })
          if (label.subscribed === true && user !== undefined) subscribe(seen, label.id as number, user)
        }
      }
    } else if (/^\/(groups|projects)\/:id\/milestones(\/:id)?$/.test(t)) {
      for (const milestone of list(x.body)) note(seen.milestones, seen, 'milestone', milestone)
    } else if (/^\/(groups|projects)\/:id\/milestones\/:id\/issues$/.test(t) || /^(\/projects\/:id)?\/issues(\/:id)?$/.test(t)) {
      for (const issue of list(x.body)) note(seen.issues, seen, 'issue', issue)
    } else if (/^\/(groups|projects)\/:id\/milestones\/:id\/merge_requests$/.test(t) || /^(\/projects\/:id)?\/merge_requests(\/:id)?$/.test(t)) {
      for (const mr of list(x.body)) note(seen.mergeRequests, seen, 'merge_request', mr)
    } else if ((t === '/projects/:id/freeze_periods' || t === '/projects/:id/freeze_periods/:id') && project) {
      for (const period of list(x.body)) {
        if (!isObject(period) || num(period.id) === undefined || seen.created.has(`freeze_period:${period.id as number}`)) continue
        const known = seen.freezePeriods.get(period.id as number)
        if (known) fill(known.period, period)
        else seen.freezePeriods.set(period.id as number, { period: { ...period }, projectId: project.id as number })
      }
    } else if ((t === '/projects/:id/members' || t === '/groups/:id/members') && (project ?? group)) {
      const source = project ? `project:${project.id as number}` : `group:${group!.id as number}`
      for (const member of list(x.body)) {
        noteUser(seen, member)
        if (isObject(member) && str(member.username) && num(member.access_level) !== undefined) {
          noteMember(seen, source, member.username as string, member.access_level as number, member.expires_at)
        }
      }
    } else if (!['/user', '/users', '/users/:id', '/groups', '/projects'].includes(t)) {
      seen.unsupported.set(`GET ${t}`, (seen.unsupported.get(`GET ${t}`) ?? 0) + 1)
    }
  }
}

function subscribe(seen: Seen, labelId: number, userId: number): void {
  seen.subscriptions.set(labelId, new Set([...(seen.subscriptions.get(labelId) ?? []), userId]))
}

function noteGroupLabel(seen: Seen, label: unknown, user: number | undefined, where: { groupId?: number; projectId?: number }): void {
  if (!isObject(label) || num(label.id) === undefined || seen.created.has(`label:${label.id as number}`)) return
  const known = seen.groupLabels.get(label.id as number) ?? { label: {}, groupIds: new Set<number>(), projectIds: new Set<number>() }
  // Priority and is_project_label belong to the project the label was seen through.
  const { priority: _priority, is_project_label: _isProjectLabel, ...rest } = label
  fill(known.label, rest)
  if (where.groupId !== undefined) known.groupIds.add(where.groupId)
  if (where.projectId !== undefined) known.projectIds.add(where.projectId)
  seen.groupLabels.set(label.id as number, known)
  if (label.subscribed === true && user !== undefined) subscribe(seen, label.id as number, user)
}

/** The `permissions` of a project answer tell the caller's own project and group access. */
function notePermissions(seen: Seen, project: unknown, userId: number | undefined): void {
  if (!isObject(project) || userId === undefined || !isObject(project.permissions)) return
  const username = str(seen.users.get(userId)?.username)
  if (!username) return
  const projectAccess = project.permissions.project_access
  const groupAccess = project.permissions.group_access
  if (isObject(projectAccess) && num(projectAccess.access_level) !== undefined && projectAccess.access_level !== 50) {
    noteMember(seen, `project:${project.id as number}`, username, projectAccess.access_level as number, undefined)
  }
  const namespace = isObject(project.namespace) ? project.namespace : undefined
  if (isObject(groupAccess) && num(groupAccess.access_level) !== undefined && namespace?.kind === 'group' && num(namespace.id) !== undefined) {
    noteMember(seen, `group:${namespace.id as number}`, username, groupAccess.access_level as number, undefined)
  }
}

// ---- building the scenario --------------------------------------------------------------------

/** Copies `keys` of `from` that hold a value of the given type (dropping nulls the schema refuses). */
function pick(from: Json, keys: readonly string[], allowNull: readonly string[] = []): Json {
  const out: Json = {}
  for (const key of keys) {
    const value = from[key]
    if (value === undefined || (value === null && !allowNull.includes(key))) continue
    out[key] = value
  }
  return out
}

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

function labelEntry(label: Json, subscribers: string[], priority?: unknown): Json {
  const out = pick(label, ['id', 'name', 'color', 'description'], ['description'])
  if (typeof priority === 'number') out.priority = priority
  if (subscribers.length > 0) out.subscribers = subscribers
  return out
}

function milestoneEntry(milestone: Json): Json {
  return pick(milestone, ['id', 'iid', 'title', 'description', 'state', 'due_date', 'start_date', 'created_at', 'updated_at'], ['due_date', 'start_date'])
}

function username(value: unknown): string | undefined {
  return isObject(value) ? str(value.username) : undefined
}

function titleOf(value: unknown): string | undefined {
  return isObject(value) ? str(value.title) : undefined
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
  collectRoots(seen, exchanges)
  collectChildren(seen, exchanges)
  const notes = seen.notes
  const usernameOf = (id: number): string | undefined => str(seen.users.get(id)?.username)

  // Groups first, so projects and labels can be attached; parents that were never seen are made
  // from the full paths of their children.
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
      ...pick(group, ['id', 'path', 'name', 'visibility', 'description', 'created_at', 'request_access_enabled', 'lfs_enabled', 'runners_token']),
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
      ...pick(project, ['name', 'visibility', 'description', 'default_branch', 'archived', 'created_at', 'last_activity_at', 'repository_storage', 'runners_token']),
    }
    if (typeof out.description !== 'string') delete out.description
    projectsOut.set(project.id as number, out)
    projectPathById.set(project.id as number, `${namespacePath}/${String(project.path)}`)
  }

  const counts: ImportResult['counts'] = { users: 0, groups: groupsOut.length, projects: projectsOut.size, labels: 0, milestones: 0, freeze_periods: 0, issues: 0, merge_requests: 0, members: 0 }
  const push = (into: Json | undefined, key: string, value: Json): boolean => {
    if (!into) return false
    into[key] = [...((into[key] as Json[] | undefined) ?? []), value]
    return true
  }
  const subscribers = (labelId: number): string[] =>
    [...(seen.subscriptions.get(labelId) ?? [])].map(usernameOf).filter((u): u is string => u !== undefined)

  // Labels.
  const groupsWithLabelList = new Set(
    exchanges
      .filter((x) => x.method === 'GET' && x.template === '/groups/:id/labels' && x.status === 200)
      .map((x) => groupPathById.get(Number(x.segments[1])) ?? x.segments[1]!),
  )
  for (const [id, { label, projectId }] of seen.projectLabels) {
    if (push(projectsOut.get(projectId), 'labels', labelEntry(label, subscribers(id), label.priority))) counts.labels++
  }
  for (const [id, { label, groupIds, projectIds }] of seen.groupLabels) {
    // Group label lists include the ancestors' labels, so a label belongs to the shallowest group
    // that listed it. Seen only through projects, it belongs to one of their ancestor groups: not
    // to one whose own recorded list lacks it, and otherwise the deepest (the least visible guess).
    const listedBy = [...groupIds].map((g) => groupPathById.get(g)).filter((p): p is string => p !== undefined)
    const ancestors = [...projectIds].flatMap((projectId) => {
      const parts = (projectPathById.get(projectId) ?? '').split('/').slice(0, -1)
      return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
    })
    const possible = ancestors.filter((path) => groupOut.has(path) && !groupsWithLabelList.has(path))
    const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length
    const owner = listedBy.sort(byDepth)[0] ?? possible.sort(byDepth).at(-1)
    if (owner && push(groupOut.get(owner), 'labels', labelEntry(label, subscribers(id)))) counts.labels++
    else notes.push(`label ${String(label.name)} (${id}): its group is unknown; not imported`)
  }

  // Milestones.
  const milestoneTitles = new Map<string, Set<string>>()
  for (const milestone of seen.milestones.values()) {
    const owner = num(milestone.group_id) !== undefined ? groupOut.get(groupPathById.get(milestone.group_id as number) ?? '') : projectsOut.get(milestone.project_id as number)
    if (push(owner, 'milestones', milestoneEntry(milestone))) {
      counts.milestones++
      const key = num(milestone.group_id) !== undefined ? `group:${groupPathById.get(milestone.group_id as number)}` : `project:${String(milestone.project_id)}`
      milestoneTitles.set(key, new Set([...(milestoneTitles.get(key) ?? []), String(milestone.title)]))
    }
  }

  // Freeze periods.
  for (const { period, projectId } of seen.freezePeriods.values()) {
    if (push(projectsOut.get(projectId), 'freeze_periods', pick(period, ['id', 'freeze_start', 'freeze_end', 'cron_timezone', 'created_at', 'updated_at']))) counts.freeze_periods++
  }

  // Labels and milestones an issuable may refer to: its project's and its ancestor groups'.
  const visibleTitles = (projectId: number, kind: 'labels' | 'milestones'): Set<string> => {
    const path = projectPathById.get(projectId) ?? ''
    const parts = path.split('/').slice(0, -1)
    const owners = [projectsOut.get(projectId), ...parts.map((_, i) => groupOut.get(parts.slice(0, i + 1).join('/')))]
    const key = kind === 'labels' ? 'name' : 'title'
    return new Set(owners.flatMap((o) => ((o?.[kind] as Json[] | undefined) ?? []).map((x) => String(x[key]))))
  }
  const issuable = (record: Json, extra: readonly string[], allowNull: readonly string[]): Json | undefined => {
    const projectId = num(record.project_id)
    if (projectId === undefined || !projectsOut.has(projectId)) return undefined
    const out: Json = pick(record, ['id', 'iid', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'upvotes', 'downvotes', 'user_notes_count', ...extra], ['closed_at', ...allowNull])
    const author = username(record.author)
    if (author) out.author = author
    const assignees = (Array.isArray(record.assignees) ? record.assignees : []).map(username).filter((u): u is string => u !== undefined)
    if (assignees.length > 0) out.assignees = assignees
    const closedBy = username(record.closed_by)
    if (closedBy) out.closed_by = closedBy
    const labelTitles = visibleTitles(projectId, 'labels')
    const labels = (Array.isArray(record.labels) ? record.labels : []).map((l) => (isObject(l) ? str(l.name) : str(l))).filter((l): l is string => l !== undefined)
    const kept = labels.filter((l) => labelTitles.has(l))
    if (kept.length < labels.length) notes.push(`${String(record.web_url ?? record.id)}: labels ${labels.filter((l) => !labelTitles.has(l)).join(', ')} were never listed; left out`)
    if (kept.length > 0) out.labels = kept
    const milestone = titleOf(record.milestone)
    if (milestone && visibleTitles(projectId, 'milestones').has(milestone)) out.milestone = milestone
    else if (milestone) notes.push(`${String(record.web_url ?? record.id)}: milestone ${milestone} was never listed; left out`)
    return out
  }
  for (const issue of seen.issues.values()) {
    const out = issuable(issue, ['confidential', 'discussion_locked', 'due_date', 'issue_type'], ['discussion_locked', 'due_date'])
    if (out && isObject(issue.time_stats)) {
      if (num(issue.time_stats.time_estimate) !== undefined) out.time_estimate = issue.time_stats.time_estimate
      if (num(issue.time_stats.total_time_spent) !== undefined) out.total_time_spent = issue.time_stats.total_time_spent
    }
    if (out && push(projectsOut.get(issue.project_id as number), 'issues', out)) counts.issues++
  }
  for (const mr of seen.mergeRequests.values()) {
    const out = issuable(mr, ['source_branch', 'target_branch', 'draft', 'sha', 'merge_status', 'merged_at'], ['merged_at'])
    if (!out) continue
    if (mr.state === 'merged' && !isObject(mr.merged_by)) delete out.merged_by
    const mergedBy = username(mr.merged_by)
    if (mergedBy) out.merged_by = mergedBy
    if (typeof out.sha !== 'string' || out.sha === '') delete out.sha
    if (push(projectsOut.get(mr.project_id as number), 'merge_requests', out)) counts.merge_requests++
  }

  // Members.
  for (const [source, members] of seen.members) {
    const [kind, id] = source.split(':') as ['project' | 'group', string]
    const owner = kind === 'project' ? projectsOut.get(Number(id)) : groupOut.get(groupPathById.get(Number(id)) ?? '')
    for (const member of members.values()) if (push(owner, 'members', member)) counts.members++
  }

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
