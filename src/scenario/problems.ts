/**
 * Where scenario problems are and how they are reported: every problem is collected with the place
 * of its value (a file and a path inside it), located at the end at the `line:col` of that YAML
 * node (or its nearest ancestor), and sorted by file, line and column, so one run reports every
 * problem at once as `file:line:col message`. Source: STYLE.md §10.
 * @module
 */
import { isMap, isNode, isScalar, type Document, type LineCounter } from 'yaml'
import { didYouMean } from '../core/did-you-mean.js'

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
 * Thrown by scenario parsing, validation and loading when anything is wrong. `problems` lists
 * them all (root file first, then included files; by line and column within a file); `message` is
 * the same list formatted `file:line:col message`, one per line.
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

/** A path into a document: keys and list indexes, `['projects', 0, 'labels', 2]`. */
export type Path = (string | number)[]

/** One file (or object) taking part in a scenario. */
export interface Source {
  /** The name problems carry. */
  file: string
  /** Position in report order: the root is 0, includes follow in the order they were found. */
  order: number
  /** The parsed YAML document, for locating nodes; null for a plain object. */
  doc: Document | null
  lineCounter: LineCounter | null
  /** The plain value (`doc.toJS()`), top-level `x-…` keys removed. */
  value: unknown
  /** The schema's output, when the file passed it. */
  parsed?: Record<string, unknown>
  /** Files this one includes, in order. */
  includes: Source[]
  /** Set when the text was not YAML text at all (one problem says so; nothing else is checked). */
  binary?: boolean
}

/** A value's place: which file, and the path to it inside that file. */
export interface Loc {
  source: Source
  path: Path
}

/** `loc` extended by `sub`: `at(project, 'labels', 2)`. */
export function at(loc: Loc, ...sub: Path): Loc {
  return { source: loc.source, path: loc.path.concat(sub) }
}

/** `users[0].tokens[1].token`. */
export function formatPath(path: Path): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out ? `.${segment}` : segment
  }
  return out
}

/** Where something else is, for "first defined by …" hints: its path, plus its file when different. */
export function where(loc: Loc, from: Loc): string {
  const path = formatPath(loc.path)
  return loc.source === from.source ? path : `${loc.source.file} ${path}`
}

/**
 * `must be one of a, b or c; got "x"` with ` (did you mean "b"?)` appended when `x` is close to
 * one of the listed values; any other text as it is.
 */
function suggestValue(text: string): string {
  const m = /^must be one of (.+); got "((?:[^"\\]|\\.)*)"$/.exec(text)
  if (!m) return text
  return `${text}${didYouMean(JSON.parse(`"${m[2]!}"`) as string, m[1]!.split(/, | or /))}`
}

/** Reports one problem at a place; the message gets the path as its prefix. */
export type Report = (loc: Loc, message: string, key?: string) => void

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
export class Problems {
  private readonly pending: Pending[] = []

  /** How many problems were found so far. */
  get size(): number {
    return this.pending.length
  }

  /**
   * A problem at `loc`; the message is prefixed with the path (`users[0].name: …`). A message
   * `must be one of a, b or c; got "x"` (the schema's, or an area's own) gets a did-you-mean from
   * the values it lists (issue 38 item 6).
   */
  readonly add: Report = (loc, text, key) => {
    const path = formatPath(loc.path)
    const message = path ? `${path}: ${suggestValue(text)}` : suggestValue(text)
    this.pending.push({ loc, message, key, seq: this.pending.length })
  }

  /** A problem at a known position, message as given. */
  addAt(source: Source, pos: { line: number; col: number }, message: string): void {
    this.pending.push({ loc: { source, path: [] }, message, pos, seq: this.pending.length })
  }

  /** Every problem, located, in report order. */
  resolve(): ScenarioProblem[] {
    return this.pending
      .map((p) => {
        const { line, col } = p.pos ?? locate(p.loc, p.key)
        return { order: p.loc.source.order, seq: p.seq, problem: { file: p.loc.source.file, line, col, message: p.message } }
      })
      .sort((a, b) => a.order - b.order || a.problem.line - b.problem.line || a.problem.col - b.problem.col || a.seq - b.seq)
      .map((p) => p.problem)
  }

  /** @throws ScenarioError with every problem, when there is any. */
  throwIfAny(): void {
    if (this.pending.length > 0) throw new ScenarioError(this.resolve())
  }
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
