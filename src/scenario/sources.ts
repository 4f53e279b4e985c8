/**
 * Reading scenario files: YAML text into a {@link Source} (with a `LineCounter`, so every value
 * can be located), and `include:` entries, depth first, through a caller-supplied reader. Nothing
 * here touches a file system, so it runs in a browser too.
 * @module
 */
import { LineCounter, parseDocument } from 'yaml'
import { isRec } from './entries.js'
import type { Problems, Source } from './problems.js'

/**
 * Reads an included file: `path` as written in `include:`, `from` the (resolved) name of the file
 * that includes it, so the caller resolves `path` against `from`'s directory. Returns the file's
 * text; a thrown error becomes a problem at the `include:` entry.
 */
export type IncludeReader = (path: string, from: string) => string

/**
 * A character YAML 1.2 does not allow (§5.1 "Character Set": C0 controls other than tab, line feed
 * and carriage return, DEL, C1 controls other than NEL), or U+FFFD, which is what a UTF-8 decoder
 * makes of bytes that are not UTF-8. Either means the file is not YAML text: most likely binary.
 */
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffd]/

/**
 * Parses YAML text into a {@link Source}, reporting syntax errors (the document is still used, so
 * schema problems are reported alongside). Text that cannot be YAML (see {@link NOT_TEXT}) gives
 * one problem at the first offending character, without echoing it, and no document.
 */
export function loadYaml(problems: Problems, text: string, file: string, order: number): Source {
  const lineCounter = new LineCounter()
  const binary = NOT_TEXT.exec(text)
  if (binary) {
    // One problem, and never the bytes themselves: echoing a binary file helps nobody.
    const source: Source = { file, order, doc: null, lineCounter: null, value: null, includes: [], binary: true }
    const code = binary[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
    const line = text.slice(0, binary.index).split('\n').length
    const col = binary.index - text.lastIndexOf('\n', binary.index - 1)
    const what = code === 'FFFD' ? 'bytes that are not UTF-8' : `the control character U+${code}, which YAML does not allow`
    problems.addAt(source, { line, col }, `not a YAML text file: it contains ${what} (is it a binary file?)`)
    return source
  }
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
export function stripExtensions(value: unknown): unknown {
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

/**
 * Reads `source`'s includes (and theirs, depth first) through `read`, appending them to
 * `source.includes` and `loaded`. A file already loaded is merged once; a cycle, a missing reader
 * and an unreadable file are problems at the `include:` entry.
 * @param stack the resolved names of the files being included, outermost first.
 */
export function loadIncludes(
  problems: Problems,
  source: Source,
  read: IncludeReader | undefined,
  stack: string[],
  loaded: Map<string, Source>,
): void {
  const list = isRec(source.value) ? source.value.include : undefined
  if (!Array.isArray(list)) return // not a list: the schema reports it
  list.forEach((item: unknown, i) => {
    if (typeof item !== 'string' || item === '') return // the schema reports it
    const loc = { source, path: ['include', i] }
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
