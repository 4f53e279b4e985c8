/**
 * YAML text (or a plain object) → a validated {@link Scenario}.
 *
 * Validation runs in four layers and reports **every** problem at once, each at the line and
 * column of the offending YAML node: YAML syntax, the format version (`migrate.ts`), the zod
 * schema (`schema.ts`), and references between records (unknown users, namespaces, parents,
 * labels and milestones; duplicate usernames, ids, paths, titles, iids and tokens). Nothing here
 * reads files: `include:` entries are fetched through a caller-supplied callback, so this module
 * runs in a browser as well.
 *
 * Source: STYLE.md §10 (`file:line:col message`, Mockoon-style migration).
 * @module
 */
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml'
import type { z } from 'zod'
import { migrateScenario } from './migrate.js'
import { fixtureSchema, scenarioSchema, type Scenario } from './schema.js'

/** One thing wrong with a scenario, located in its file. */
export interface ScenarioProblem {
  /** The file name as given (`options.file`, default `<scenario>`) or the include path resolved against it. */
  file: string
  /** 1-based line; 0 when validating a plain object (no source text). */
  line: number
  /** 1-based column; 0 when validating a plain object. */
  col: number
  /** `<path>: <what is wrong>`, for example `projects[0].visibility: must be one of …`. */
  message: string
}

/** Formats a problem as `file:line:col message`, the form editors and terminals link to. */
export function formatScenarioProblem(problem: ScenarioProblem): string {
  return `${problem.file}:${problem.line}:${problem.col} ${problem.message}`
}

/**
 * Thrown by {@link parseScenario} and {@link validateScenarioObject} when anything is wrong.
 * `problems` lists them all (root file first, then included files; by line and column within a
 * file); `message` is the same list formatted `file:line:col message`, one per line.
 */
export class ScenarioError extends Error {
  /** Every problem found, never empty. */
  readonly problems: ScenarioProblem[]

  /** @param problems every problem found (at least one). */
  constructor(problems: ScenarioProblem[]) {
    super(problems.map(formatScenarioProblem).join('\n'))
    this.name = 'ScenarioError'
    this.problems = problems
  }
}

/** Options of {@link parseScenario}. */
export interface ParseScenarioOptions {
  /** Name used in problems and as the base for relative includes. Default `<scenario>`. */
  file?: string
  /**
   * Reads an included file: `path` as written in `include:`, `from` the (resolved) name of the
   * file that includes it, so the caller resolves `path` against `from`'s directory. Returns the
   * file's text; a thrown error becomes a problem at the `include:` entry.
   */
  include?: (path: string, from: string) => string
}

/**
 * Parses and validates a YAML scenario, merging its `include:` files (their users, groups and
 * projects come before the including file's own, depth first; a file included twice is read once).
 *
 * @param text the YAML source.
 * @returns the scenario with defaults applied and includes merged (`include` is absent).
 * @throws ScenarioError listing every YAML, version, schema and reference problem of the file and
 *   its includes, each located at `file:line:col` of the offending node (or its nearest ancestor
 *   when the node is missing).
 * @example
 * const scenario = parseScenario(text, { file: 'scenarios/default.yaml', include: (p, from) => read(p, from) })
 */
export function parseScenario(text: string, options: ParseScenarioOptions = {}): Scenario {
  const problems = new Problems()
  const root = loadYaml(problems, text, options.file ?? '<scenario>', 0)
  return validate(problems, root, options.include)
}

/**
 * Validates an already-parsed scenario object (for example JSON, or YAML parsed by the caller in a
 * browser). Same checks as {@link parseScenario}, but problems carry line 0, col 0 (their message
 * starts with the path, such as `users[2].username:`), and `include:` is refused (there is no
 * reader).
 *
 * @param value the document, version 1 (or an older version `migrate.ts` can upgrade).
 * @param file name used in problems; default `<scenario>`.
 * @throws ScenarioError listing every problem.
 */
export function validateScenarioObject(value: unknown, file = '<scenario>'): Scenario {
  const problems = new Problems()
  const root: Source = { file, order: 0, doc: null, lineCounter: null, value: stripExtensions(value), includes: [] }
  return validate(problems, root, undefined)
}

// ---- sources and problems ---------------------------------------------------------------------

type Path = (string | number)[]
type Rec = Record<string, unknown>
type FileOutput = z.output<typeof fixtureSchema>

/** One file (or object) taking part in a scenario. */
interface Source {
  file: string
  /** Position in report order: the root is 0, includes follow in the order they were found. */
  order: number
  doc: Document | null
  lineCounter: LineCounter | null
  /** The plain value (`doc.toJS()`), top-level `x-…` keys removed. */
  value: unknown
  /** The schema's output, when the file passed it. */
  parsed?: FileOutput
  /** Files this one includes, in order. */
  includes: Source[]
}

/** A value's place: which file, and the path to it inside that file. */
interface Loc {
  source: Source
  path: Path
}

interface Pending {
  loc: Loc
  message: string
  /** Point at this key of the map at `loc.path` (unknown keys). */
  key?: string
  /** Known position (YAML syntax errors). */
  pos?: { line: number; col: number }
  seq: number
}

/** Collects problems; locates and sorts them at the end. */
class Problems {
  private readonly pending: Pending[] = []

  get size(): number {
    return this.pending.length
  }

  /** A problem at `loc`; the message is prefixed with the path (`users[0].name: …`). */
  add(loc: Loc, text: string, key?: string): void {
    const path = formatPath(loc.path)
    const message = path ? `${path}: ${text}` : text
    this.pending.push({ loc, message, key, seq: this.pending.length })
  }

  /** A problem at a known position, message as given. */
  addAt(source: Source, pos: { line: number; col: number }, message: string): void {
    this.pending.push({ loc: { source, path: [] }, message, pos, seq: this.pending.length })
  }

  resolve(): ScenarioProblem[] {
    return this.pending
      .map((p) => {
        const { line, col } = p.pos ?? locate(p.loc, p.key)
        return { order: p.loc.source.order, seq: p.seq, problem: { file: p.loc.source.file, line, col, message: p.message } }
      })
      .sort((a, b) => a.order - b.order || a.problem.line - b.problem.line || a.problem.col - b.problem.col || a.seq - b.seq)
      .map((p) => p.problem)
  }
}

/** `users[0].tokens[1].token`. */
function formatPath(path: Path): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out ? `.${segment}` : segment
  }
  return out
}

/** Line and column of the node at `loc.path`, else of its nearest ancestor; 0:0 without source text. */
function locate(loc: Loc, key?: string): { line: number; col: number } {
  const { doc, lineCounter } = loc.source
  if (!doc || !lineCounter) return { line: 0, col: 0 }
  for (let n = loc.path.length; n >= 0; n--) {
    let node: unknown
    try {
      node = n === 0 ? doc.contents : doc.getIn(loc.path.slice(0, n), true)
    } catch {
      node = undefined
    }
    if (!isNode(node) || !node.range) continue
    let offset = node.range[0]
    if (key !== undefined && n === loc.path.length && isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key)
      if (pair && isNode(pair.key) && pair.key.range) offset = pair.key.range[0]
    }
    return lineCounter.linePos(offset)
  }
  return { line: 1, col: 1 }
}

/** Where something else is, for "first defined by …" hints: its path, plus its file when different. */
function where(loc: Loc, from: Loc): string {
  const path = formatPath(loc.path)
  return loc.source === from.source ? path : `${loc.source.file} ${path}`
}

// ---- loading ----------------------------------------------------------------------------------

/** Parses YAML text into a {@link Source}, reporting syntax errors (the document is still used). */
function loadYaml(problems: Problems, text: string, file: string, order: number): Source {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true })
  const source: Source = { file, order, doc, lineCounter, value: null, includes: [] }
  for (const error of doc.errors) {
    problems.addAt(source, lineCounter.linePos(error.pos[0]), `YAML syntax error: ${error.message}`)
  }
  try {
    source.value = stripExtensions(doc.toJS({ maxAliasCount: 10_000 }))
  } catch (error) {
    problems.addAt(source, { line: 1, col: 1 }, `YAML error: ${(error as Error).message}`)
  }
  return source
}

/** Drops top-level `x-…` keys: free space for YAML anchors, ignored by the format. */
function stripExtensions(value: unknown): unknown {
  if (!isRec(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('x-')))
}

function dirname(file: string): string {
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'))
  return slash < 0 ? '' : slash === 0 ? '/' : file.slice(0, slash)
}

/** Resolves `path` against `dir` the POSIX way (`a/b` + `../c` → `a/c`), without `node:path`. */
function joinPath(dir: string, path: string): string {
  const absolute = /^([\\/]|[A-Za-z]:[\\/])/.test(path)
  const full = absolute || !dir ? path : `${dir}/${path}`
  const leadingSlash = /^[\\/]/.test(full)
  const out: string[] = []
  for (const segment of full.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop()
    else if (segment !== '..' || !leadingSlash) out.push(segment)
  }
  return (leadingSlash ? '/' : '') + out.join('/')
}

/** Reads `source`'s includes (and theirs, depth first) through the callback. */
function loadIncludes(
  problems: Problems,
  source: Source,
  read: ParseScenarioOptions['include'],
  stack: string[],
  loaded: Map<string, Source>,
): void {
  const list = isRec(source.value) ? source.value.include : undefined
  if (!Array.isArray(list)) return // not a list: the schema reports it
  list.forEach((item: unknown, i) => {
    if (typeof item !== 'string' || item === '') return // the schema reports it
    const loc: Loc = { source, path: ['include', i] }
    if (!read) {
      problems.add(loc, `cannot include "${item}": no include reader was given (pass options.include to parseScenario)`)
      return
    }
    const name = joinPath(dirname(source.file), item)
    if (stack.includes(name)) {
      problems.add(loc, `include cycle: ${[...stack, name].join(' -> ')}`)
      return
    }
    if (loaded.has(name)) return // already merged through another include: once is enough
    let text: string
    try {
      text = read(item, source.file)
    } catch (error) {
      problems.add(loc, `cannot include "${item}": ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    const child = loadYaml(problems, text, name, loaded.size)
    loaded.set(name, child)
    source.includes.push(child)
    loadIncludes(problems, child, read, [...stack, name], loaded)
  })
}

// ---- validation -------------------------------------------------------------------------------

function validate(problems: Problems, root: Source, read: ParseScenarioOptions['include']): Scenario {
  const loaded = new Map<string, Source>([[root.file, root]])
  loadIncludes(problems, root, read, [root.file], loaded)
  for (const source of loaded.values()) checkSchema(problems, source, source === root)
  checkReferences(problems, mergeEntries(root))
  if (problems.size > 0) throw new ScenarioError(problems.resolve())

  const out: Pick<Scenario, 'users' | 'groups' | 'projects'> = { users: [], groups: [], projects: [] }
  const collect = (source: Source): void => {
    for (const child of source.includes) collect(child)
    const parsed = source.parsed!
    out.users.push(...parsed.users)
    out.groups.push(...parsed.groups)
    out.projects.push(...parsed.projects)
  }
  collect(root)
  return { version: 1, now: root.parsed!.now, seed: root.parsed!.seed, ...out }
}

/** Version and schema checks of one file. */
function checkSchema(problems: Problems, source: Source, isRoot: boolean): void {
  const value = source.value
  const hasVersion = isRec(value) && value.version !== undefined
  const migration = isRoot || hasVersion ? migrateScenario(value) : { doc: value, problems: [] }
  for (const problem of migration.problems) problems.add({ source, path: problem.path }, problem.message)
  const result = (isRoot ? scenarioSchema : fixtureSchema).safeParse(migration.doc, { reportInput: true })
  if (result.success) source.parsed = result.data
  else {
    for (const issue of result.error.issues) {
      if (migration.problems.length > 0 && issue.path[0] === 'version') continue
      for (const found of describeIssue(issue, migration.doc)) {
        problems.add({ source, path: found.path }, found.text, found.key)
      }
    }
  }
  if (!isRoot && isRec(value)) {
    for (const key of ['now', 'seed']) {
      if (key in value) problems.add({ source, path: [key] }, 'is only allowed in the top-level scenario, not in an included file')
    }
  }
}

/** The value at `path` inside `value`, and whether it is there at all. */
function valueAt(value: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let current = value
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !(segment in current)) return { found: false, value: undefined }
    current = (current as Record<PropertyKey, unknown>)[segment]
  }
  return { found: true, value: current }
}

/** `"text"`, `42`, `true`, `null`, `a list`, `a mapping`. */
function show(value: unknown): string {
  if (value === null) return 'null (an empty value)'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  return JSON.stringify(value) ?? String(value)
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
}

/** Turns a zod issue into located problem texts (one per unknown key, else one). */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): { path: Path; text: string; key?: string }[] {
  const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol')
  const got = valueAt(input, issue.path)
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path, key, text: `unknown key "${key}"` }))
    case 'invalid_type': {
      if (!got.found || got.value === undefined) return [{ path, text: 'is required' }]
      const expected = EXPECTED[issue.expected] ?? issue.expected
      if (got.value === null && path[path.length - 1] === 'color') {
        return [{ path, text: 'is empty; quote hex colours ("#D9534F"): an unquoted # starts a YAML comment' }]
      }
      const hint =
        issue.expected === 'string' && (typeof got.value === 'number' || typeof got.value === 'boolean')
          ? ' (quote it to make it a string)'
          : ''
      return [{ path, text: `must be ${expected}; got ${show(got.value)}${hint}` }]
    }
    case 'invalid_value':
      return [
        {
          path,
          text:
            issue.values.length === 1
              ? `must be ${String(issue.values[0])}; got ${show(got.value)}`
              : `must be one of ${issue.values.map(String).join(', ')}; got ${show(got.value)}`,
        },
      ]
    case 'too_small': {
      const min = Number(issue.minimum)
      if (issue.origin === 'string') return [{ path, text: min <= 1 ? 'must not be empty' : `must be at least ${min} characters` }]
      if (issue.origin === 'array') return [{ path, text: `must have at least ${min} item${min === 1 ? '' : 's'}` }]
      return [{ path, text: `must be ${issue.inclusive ? '>=' : '>'} ${min}; got ${show(got.value)}` }]
    }
    case 'too_big': {
      const max = Number(issue.maximum)
      if (issue.origin === 'string') return [{ path, text: `must be at most ${max} characters` }]
      if (issue.origin === 'array') return [{ path, text: `must have at most ${max} items` }]
      return [{ path, text: `must be ${issue.inclusive ? '<=' : '<'} ${max}; got ${show(got.value)}` }]
    }
    default:
      return [{ path, text: issue.message }]
  }
}

// ---- references -------------------------------------------------------------------------------

function isRec(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The mapping entries of a list with their indexes; anything else yields nothing (the schema reports it). */
function recs(value: unknown): [Rec, number][] {
  if (!Array.isArray(value)) return []
  const out: [Rec, number][] = []
  value.forEach((item: unknown, i) => {
    if (isRec(item)) out.push([item, i])
  })
  return out
}

/** A record of a top-level collection, wherever it was written. */
interface Entry extends Loc {
  value: Rec
}

interface Merged {
  users: Entry[]
  groups: Entry[]
  projects: Entry[]
}

/** The raw entries of every file, includes first (depth first), in the order `validate` merges them. */
function mergeEntries(root: Source): Merged {
  const merged: Merged = { users: [], groups: [], projects: [] }
  const visit = (source: Source): void => {
    for (const child of source.includes) visit(child)
    if (!isRec(source.value)) return
    for (const collection of ['users', 'groups', 'projects'] as const) {
      for (const [value, i] of recs(source.value[collection])) merged[collection].push({ source, path: [collection, i], value })
    }
  }
  visit(root)
  return merged
}

function at(loc: Loc, ...sub: Path): Loc {
  return { source: loc.source, path: [...loc.path, ...sub] }
}

/**
 * Reference checks over the raw merged entries. They work on raw values (skipping anything of the
 * wrong type, which the schema reports) so that reference problems are found even when unrelated
 * schema problems exist. Names are compared as GitLab does: usernames and paths
 * case-insensitively, label and milestone titles exactly.
 *
 * Parent-group cycles cannot be written: `parent` is a full path, and a group's full path is its
 * parent's plus one segment, so an attempted cycle names a parent that does not exist and is
 * reported as an unknown parent.
 */
function checkReferences(problems: Problems, merged: Merged): void {
  const ids = new Map<string, Loc>()
  const claimId = (table: string, owner: Loc, value: unknown): void => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return
    const key = `${table}#${value}`
    const first = ids.get(key)
    if (first) problems.add(at(owner, 'id'), `duplicate ${table} id ${value} (first used by ${where(first, owner)})`)
    else ids.set(key, owner)
  }

  // users and tokens
  const users = new Map<string, Loc>()
  const tokens = new Map<string, Loc>()
  const claimToken = (owner: Loc, value: unknown): void => {
    const token = str(value)
    if (token === undefined) return
    const first = tokens.get(token)
    if (first) problems.add(at(owner, 'token'), `duplicate token (first used by ${where(first, owner)})`)
    else tokens.set(token, owner)
  }
  for (const user of merged.users) {
    claimId('users', user, user.value.id)
    const username = str(user.value.username)
    if (username !== undefined) {
      const first = users.get(username.toLowerCase())
      if (first) problems.add(at(user, 'username'), `duplicate username "${username}" (first defined by ${where(first, user)})`)
      else users.set(username.toLowerCase(), user)
    }
    for (const [token, i] of recs(user.value.tokens)) {
      claimId('personal_access_tokens', at(user, 'tokens', i), token.id)
      claimToken(at(user, 'tokens', i), token.token)
    }
    for (const [token, i] of recs(user.value.oauth_tokens)) {
      claimId('oauth_access_tokens', at(user, 'oauth_tokens', i), token.id)
      claimToken(at(user, 'oauth_tokens', i), token.token)
    }
  }
  const checkUser = (loc: Loc, value: unknown): void => {
    const username = str(value)
    if (username !== undefined && !users.has(username.toLowerCase())) problems.add(loc, `unknown user "${username}"`)
  }

  // groups: full paths first (parents may come later in the file), then everything else
  const groups = new Map<string, Entry>()
  const groupPaths = new Map<Entry, string>()
  for (const group of merged.groups) {
    claimId('groups', group, group.value.id)
    const path = str(group.value.path)
    const parent = str(group.value.parent)
    if (path === undefined || (group.value.parent != null && parent === undefined)) continue
    const fullPath = parent ? `${parent}/${path}` : path
    groupPaths.set(group, fullPath)
    const first = groups.get(fullPath.toLowerCase())
    if (first) problems.add(at(group, 'path'), `duplicate group "${fullPath}" (first defined by ${where(first, group)})`)
    else groups.set(fullPath.toLowerCase(), group)
    if (!parent && users.has(path.toLowerCase())) {
      problems.add(at(group, 'path'), `"${path}" is already taken by the personal namespace of user "${path}"`)
    }
  }
  /** Lower-case full paths of the group and its ancestors that exist, nearest first. */
  const chainOf = (fullPath: string): string[] => {
    const segments = fullPath.toLowerCase().split('/')
    const chain: string[] = []
    for (let n = segments.length; n > 0; n--) {
      const candidate = segments.slice(0, n).join('/')
      if (groups.has(candidate)) chain.push(candidate)
    }
    return chain
  }

  const labelTitles = new Map<string, Set<string>>() // group full path (lower) -> titles
  const milestoneTitles = new Map<string, Set<string>>()
  const checkMembers = (owner: Entry): void => {
    const seen = new Map<string, Loc>()
    for (const [member, i] of recs(owner.value.members)) {
      const loc = at(owner, 'members', i)
      const username = str(member.user)
      if (username === undefined) continue
      if (!users.has(username.toLowerCase())) problems.add(at(loc, 'user'), `unknown user "${username}"`)
      else if (seen.has(username.toLowerCase())) {
        problems.add(at(loc, 'user'), `user "${username}" is already a member (${where(seen.get(username.toLowerCase())!, loc)})`)
      } else seen.set(username.toLowerCase(), loc)
    }
  }
  const checkIid = (seen: Map<number, Loc>, loc: Loc, iid: unknown): void => {
    if (typeof iid !== 'number' || !Number.isInteger(iid)) return
    const first = seen.get(iid)
    if (first) problems.add(at(loc, 'iid'), `duplicate iid ${iid} (first used by ${where(first, loc)})`)
    else seen.set(iid, loc)
  }
  /** Checks labels and milestones of one group or project; returns their titles. */
  const checkLabelsAndMilestones = (owner: Entry, ancestors: string[]): { labels: Set<string>; milestones: Set<string> } => {
    const labels = new Map<string, Loc>()
    for (const [label, i] of recs(owner.value.labels)) {
      const loc = at(owner, 'labels', i)
      claimId('labels', loc, label.id)
      for (const [j, subscriber] of (Array.isArray(label.subscribers) ? label.subscribers : []).entries()) {
        checkUser(at(loc, 'subscribers', j), subscriber)
      }
      const title = str(label.name)?.trim()
      if (title === undefined) continue
      const first = labels.get(title)
      const inherited = ancestors.find((g) => labelTitles.get(g)?.has(title))
      if (first) problems.add(at(loc, 'name'), `duplicate label "${title}" (first defined by ${where(first, loc)})`)
      else if (inherited !== undefined) {
        problems.add(at(loc, 'name'), `label "${title}" already exists in ancestor group "${groupPaths.get(groups.get(inherited)!)}"`)
      } else labels.set(title, loc)
    }
    const milestones = new Map<string, Loc>()
    const iids = new Map<number, Loc>()
    for (const [milestone, i] of recs(owner.value.milestones)) {
      const loc = at(owner, 'milestones', i)
      claimId('milestones', loc, milestone.id)
      checkIid(iids, loc, milestone.iid)
      const title = str(milestone.title)
      if (title === undefined) continue
      const first = milestones.get(title)
      if (first) problems.add(at(loc, 'title'), `duplicate milestone "${title}" (first defined by ${where(first, loc)})`)
      else milestones.set(title, loc)
    }
    return { labels: new Set(labels.keys()), milestones: new Set(milestones.keys()) }
  }


  // ancestors before descendants, so inherited label titles are known when a subgroup is checked
  const ordered = [...groupPaths.entries()].sort((a, b) => a[1].split('/').length - b[1].split('/').length)
  for (const [group, fullPath] of ordered) {
    const parent = str(group.value.parent)
    if (parent && !groups.has(parent.toLowerCase())) {
      problems.add(at(group, 'parent'), `unknown parent group "${parent}" (must be the full path of a group in the scenario)`)
    }
    const { labels, milestones } = checkLabelsAndMilestones(group, chainOf(fullPath).slice(1))
    if (groups.get(fullPath.toLowerCase()) !== group) continue // a duplicate group (reported): its titles are not inherited
    labelTitles.set(fullPath.toLowerCase(), labels)
    milestoneTitles.set(fullPath.toLowerCase(), milestones)
  }
  for (const group of merged.groups) {
    checkMembers(group)
    if (!groupPaths.has(group)) checkLabelsAndMilestones(group, []) // ids and users still checked
  }

  // projects
  const projects = new Map<string, Entry>()
  for (const project of merged.projects) {
    claimId('projects', project, project.value.id)
    checkMembers(project)
    const namespace = str(project.value.namespace)
    const path = str(project.value.path)
    let chain: string[] | undefined // known namespace: its groups nearest first ([] for a user)
    if (namespace !== undefined) {
      const key = namespace.toLowerCase()
      if (groups.has(key)) chain = chainOf(key)
      else if (!namespace.includes('/') && users.has(key)) chain = []
      else {
        problems.add(at(project, 'namespace'), `unknown namespace "${namespace}" (neither a group full path nor a username in the scenario)`)
      }
    }
    const fullPath = namespace !== undefined && path !== undefined ? `${namespace}/${path}` : undefined
    if (fullPath !== undefined) {
      const first = projects.get(fullPath.toLowerCase())
      if (first) problems.add(at(project, 'path'), `duplicate project "${fullPath}" (first defined by ${where(first, project)})`)
      else projects.set(fullPath.toLowerCase(), project)
      if (groups.has(fullPath.toLowerCase())) problems.add(at(project, 'path'), `"${fullPath}" is already the full path of a group`)
    }
    const own = checkLabelsAndMilestones(project, chain ?? [])
    for (const [freeze, i] of recs(project.value.freeze_periods)) claimId('freeze_periods', at(project, 'freeze_periods', i), freeze.id)

    const labels = new Set([...own.labels, ...(chain ?? []).flatMap((g) => [...(labelTitles.get(g) ?? [])])])
    const milestones = new Set([...own.milestones, ...(chain ?? []).flatMap((g) => [...(milestoneTitles.get(g) ?? [])])])
    const name = fullPath ?? formatPath(project.path)
    for (const collection of ['issues', 'merge_requests'] as const) {
      const iids = new Map<number, Loc>()
      for (const [item, i] of recs(project.value[collection])) {
        const loc = at(project, collection, i)
        claimId(collection, loc, item.id)
        checkIid(iids, loc, item.iid)
        for (const key of ['author', 'closed_by', 'merged_by']) checkUser(at(loc, key), item[key])
        for (const [j, assignee] of (Array.isArray(item.assignees) ? item.assignees : []).entries()) {
          checkUser(at(loc, 'assignees', j), assignee)
        }
        if (chain === undefined) continue // unknown namespace: label and milestone lookups would only echo it
        for (const [j, label] of (Array.isArray(item.labels) ? item.labels : []).entries()) {
          if (typeof label === 'string' && !labels.has(label.trim())) {
            problems.add(at(loc, 'labels', j), `unknown label "${label}" (not a label of project "${name}" or its groups)`)
          }
        }
        const milestone = str(item.milestone)
        if (milestone !== undefined && !milestones.has(milestone)) {
          problems.add(at(loc, 'milestone'), `unknown milestone "${milestone}" (not a milestone of project "${name}" or its groups)`)
        }
      }
    }
  }
}
