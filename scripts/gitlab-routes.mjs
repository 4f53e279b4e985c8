#!/usr/bin/env node
/**
 * Turns Grape DSL source into GitLab's REST route list: `node scripts/gitlab-routes.mjs [--check]`.
 *
 * Reads data/gitlab-13.12-grape-excerpts.rb.txt (the route-bearing lines of GitLab's lib/api/*.rb,
 * copied verbatim with their indentation, one section per file naming its commit) and writes
 * src/reference/gitlab-13.12-routes.json: every route's method, path template (GitLab's own :param
 * names), file and tier, the files read and their commits, the files mounted by lib/api/api.rb that
 * were not read, and the routes left out because their text dates them after 13.12.
 * `--check` writes nothing and exits 1 when the JSON on disk differs from what the excerpts give.
 *
 * What it understands of Grape (enough for lib/api, not a Ruby interpreter):
 * - nesting by indentation: `resource`/`resources`/`namespace`/`segment`/`group`/`route_param`
 *   blocks add their first argument to the path; `version`, `params`, `if` and other blocks add nothing;
 * - routes `get`/`post`/`put`/`delete`/`patch`/`head` with a path argument (a string, a symbol or a
 *   variable), or none;
 * - loops `<collection>.each do |a, b|` over `%w[]`, array and hash literals, constants assigned in
 *   the section, with `a = <expr>` assignments inside; expressions are strings with `#{}`, symbols,
 *   variables, constants, `x[0]`, ternaries on `==`/`end_with?`, and the ActiveSupport methods
 *   pluralize, singularize, underscore, to_s, to_sym, downcase, name, demodulize, parent_class;
 * - concerns: a section `module X` with `included do` is inlined where a section says `include X`
 *   (with `name` bound to the including class, `class Y < ...`);
 * - `mount` lines of lib/api/api.rb name the route files; a mounted file without a section is listed
 *   as not read.
 * Lines of ours start with `#!`: `#! after 13.12: <why>` drops the next route (kept under `after`),
 * `#! 13.12 values: a b` gives the next loop's values in 13.12, `#! 13.12 when <var> in: a b` gates
 * the next `if` block. A `detail` line dating the next route after 13.12 drops it too.
 * Source: issue 40 item 1.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const SOURCE = 'data/gitlab-13.12-grape-excerpts.rb.txt'
const TARGET = 'src/reference/gitlab-13.12-routes.json'
const REFERENCE = [13, 12]

/** Sections of the excerpt file: file, commit, era and its lines (comments dropped, `#!` kept). */
function sections(text) {
  const out = []
  let current
  for (const raw of text.split('\n')) {
    const header = /^# (file|commit|era): (.*)$/.exec(raw)
    if (header) {
      if (header[1] === 'file') out.push((current = { file: header[2].trim(), commit: '', era: '', lines: [] }))
      else if (current) current[header[1]] = header[2].trim()
      continue
    }
    if (!current || raw.trim() === '' || (/^\s*#/.test(raw) && !/^\s*#!/.test(raw))) continue
    current.lines.push(raw)
  }
  return out
}

/** Joins a line whose brackets stay open with the lines that close them. */
function logicalLines(lines) {
  const out = []
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i]
    const indent = text.length - text.trimStart().length
    while (!text.trim().startsWith('#!') && depth(text) > 0 && i + 1 < lines.length) text += ' ' + lines[++i].trim()
    out.push({ indent, text: text.trim() })
  }
  return out
}

function depth(text) {
  let d = 0
  let quote = null
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = null
    } else if (c === '"' || c === "'") quote = c
    else if ('([{'.includes(c)) d++
    else if (')]}'.includes(c)) d--
  }
  return d
}

/** Lines into a tree by indentation: a line ending in `do` (or `do |x|`) owns the deeper lines after it. */
function tree(lines) {
  const rootNode = { text: '', indent: -1, children: [] }
  const stack = [rootNode]
  for (const line of lines) {
    while (stack.at(-1).indent >= line.indent) stack.pop()
    const node = { ...line, children: [] }
    stack.at(-1).children.push(node)
    // A route's block is its handler: routes own no lines (a `detail` line indented under the one
    // before it belongs to the next route).
    if (/\bdo(\s*\|[^|]*\|)?$/.test(line.text) && !ROUTE.test(line.text)) stack.push(node)
  }
  return rootNode.children
}

/** Splits on a separator at bracket depth 0, outside strings. */
function splitTop(text, separator) {
  const parts = []
  let d = 0
  let quote = null
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = null
      continue
    }
    if (c === '"' || c === "'") quote = c
    else if ('([{'.includes(c)) d++
    else if (')]}'.includes(c)) d--
    else if (d === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i).trim())
      start = i + separator.length
      i += separator.length - 1
    }
  }
  parts.push(text.slice(start).trim())
  return parts.filter((p) => p !== '')
}

/** A Ruby constant as a value (`Issue`, `Project`). */
const konst = (name) => ({ const: name })
const isConst = (v) => typeof v === 'object' && v !== null && 'const' in v && !Array.isArray(v)
const PARENT = { Issue: 'Project', MergeRequest: 'Project', Snippet: 'Project', Commit: 'Project', Epic: 'Group' }

const underscore = (s) => s.replace(/::/g, '/').replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase()
const pluralize = (s) => (s.endsWith('s') ? s : s.endsWith('y') ? `${s.slice(0, -1)}ies` : `${s}s`)
const singularize = (s) => (s.endsWith('ies') ? `${s.slice(0, -3)}y` : s.endsWith('s') ? s.slice(0, -1) : s)
const str = (v) => (isConst(v) ? v.const : String(v))

/** Applies one method of a chain. */
function call(value, method) {
  switch (method) {
    case 'pluralize': return pluralize(str(value))
    case 'singularize': return singularize(str(value))
    case 'underscore': return underscore(str(value))
    case 'to_s': case 'name': return str(value)
    case 'to_sym': case 'freeze': return value
    case 'downcase': return str(value).toLowerCase()
    case 'demodulize': return str(value).split('::').at(-1)
    case 'parent_class': {
      const parent = PARENT[str(value)]
      if (!parent) throw new Error(`parent_class of ${str(value)} unknown`)
      return konst(parent)
    }
    default: throw new Error(`method .${method} not understood`)
  }
}

/** Evaluates the small expression language the excerpts use. */
function evaluate(expr, env) {
  expr = expr.trim().replace(/\.freeze$/, '')
  const ternary = /^(.+?)\s+\?\s+(.+?)\s+:\s+(.+)$/.exec(expr)
  if (ternary && !/^["']/.test(expr)) {
    const [, cond, yes, no] = ternary
    return evaluate(test(cond, env) ? yes : no, env)
  }
  if (/^%w\[(.*)\]$/.test(expr)) return /^%w\[(.*)\]$/.exec(expr)[1].split(/\s+/).filter(Boolean)
  if (expr.startsWith('[') && expr.endsWith(']')) return splitTop(expr.slice(1, -1), ',').map((e) => evaluateLoose(e, env))
  if (expr.startsWith('{') && expr.endsWith('}')) {
    return splitTop(expr.slice(1, -1), ',').map((pair) => {
      const [k, v] = splitTop(pair, '=>')
      return [evaluateLoose(k, env), v]
    })
  }
  if (/^'[^']*'$/.test(expr)) return expr.slice(1, -1)
  const dq = /^"((?:[^"\\]|\\.)*)"(.*)$/.exec(expr)
  if (dq) {
    const value = interpolate(dq[1], env)
    return dq[2] ? chain(value, dq[2]) : value
  }
  if (/^:"(.*)"$/.test(expr)) return interpolate(/^:"(.*)"$/.exec(expr)[1], env)
  if (/^:\w+$/.test(expr)) return expr.slice(1)
  const head = /^([A-Za-z_]\w*(?:::\w+)*)(\[\d+\])?(.*)$/.exec(expr)
  if (head) {
    let value
    if (head[1] in env) value = env[head[1]]
    else if (/^[A-Z]/.test(head[1])) value = konst(head[1])
    else throw new Error(`unbound ${head[1]}`)
    if (head[2]) value = value[Number(head[2].slice(1, -1))]
    return chain(value, head[3])
  }
  throw new Error(`expression not understood: ${expr}`)
}

/** Like evaluate, but keeps what it cannot read (a proc in a loop's array) as raw text. */
function evaluateLoose(expr, env) {
  try {
    return evaluate(expr, env)
  } catch {
    return { raw: expr }
  }
}

function chain(value, rest) {
  for (const m of rest.matchAll(/\.(\w+[?!]?)(\([^)]*\))?/g)) value = call(value, m[1])
  return value
}

function interpolate(body, env) {
  return body.replace(/#\{([^}]*)\}/g, (_, inner) => str(evaluate(inner, env)))
}

function test(cond, env) {
  const eq = /^(.+?)\s*==\s*(.+)$/.exec(cond)
  if (eq) return str(evaluate(eq[1], env)) === str(evaluate(eq[2], env))
  const ends = /^(.+?)\.end_with\?\((.+)\)$/.exec(cond)
  if (ends) return str(evaluate(ends[1], env)).endsWith(str(evaluate(ends[2], env)))
  throw new Error(`condition not understood: ${cond}`)
}

/** The first argument of a DSL call, or undefined when it has none (or only options). */
function firstArgument(rest, env) {
  rest = rest.replace(/\s*\bdo(\s*\|[^|]*\|)?$/, '').trim()
  if (rest === '') return undefined
  const first = splitTop(rest, ',')[0]
  if (/^\w+:\s/.test(first) || /^\w+:$/.test(first)) return undefined // options only: `get feature_category: :x`
  if (/^[a-z_]\w*(\s|$)/.test(first) && !(first.split(/\s/)[0] in env)) return undefined // `get feature_category :x`
  return str(evaluate(first, env))
}

const ROUTE = /^(get|post|put|delete|patch|head)\b(.*)$/
const SCOPE = /^(resource|resources|namespace|segment|group|route_param)\b(.*)$/

/** Parses `introduced in GitLab 14.2` / `added in GitLab 13.6` into [14, 2]. */
function datedVersion(text) {
  const m = /(?:introduced|added) in GitLab (\d+)\.(\d+)/i.exec(text)
  return m ? [Number(m[1]), Number(m[2])] : undefined
}
const later = (v) => v[0] > REFERENCE[0] || (v[0] === REFERENCE[0] && v[1] > REFERENCE[1])

function joinPath(parts) {
  const segments = parts.flatMap((p) => String(p).split('/')).filter((s) => s !== '')
  return `/${segments.join('/')}`
}

/**
 * Walks one section's tree, collecting routes.
 * @param ctx { file, routes, after, concerns, warnings, className }
 */
function walk(nodes, env, prefix, ctx) {
  let pending = null
  let values = null
  let gate = null
  for (const node of nodes) {
    const t = node.text
    let m
    if (t.startsWith('#!')) {
      if ((m = /^#! after 13\.12: (.*)$/.exec(t))) pending = m[1]
      else if ((m = /^#! 13\.12 values: (.*)$/.exec(t))) values = m[1].trim().split(/\s+/)
      else if ((m = /^#! 13\.12 when (\w+) in: (.*)$/.exec(t))) gate = { name: m[1], values: m[2].trim().split(/\s+/) }
      else ctx.warnings.push(`${ctx.file}: annotation not understood: ${t}`)
      continue
    }
    if (/^detail\b/.test(t)) {
      const v = datedVersion(t)
      if (v && later(v)) pending = `its desc dates it GitLab ${v.join('.')}`
      continue
    }
    if ((m = /^class (\w+)/.exec(t))) {
      ctx.className = `API::${m[1]}`
      continue
    }
    if ((m = /^module (\w+)$/.exec(t))) continue
    if (/^included do$/.test(t)) {
      walk(node.children, env, prefix, ctx)
      continue
    }
    if ((m = /^include (\w+)$/.exec(t))) {
      const concern = ctx.concerns.get(m[1])
      if (!concern) ctx.warnings.push(`${ctx.file}: include ${m[1]}: no such concern section`)
      else walk(concern.nodes, { ...env, name: ctx.className }, prefix, { ...ctx, file: ctx.file, includedFrom: concern.file })
      continue
    }
    if ((m = /^([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(t)) && !/^(get|post|put|delete|patch|head)\b/.test(t)) {
      env = { ...env, [m[1]]: evaluate(m[2], env) }
      continue
    }
    if ((m = /^(.+)\.each do \|([^|]*)\|$/.exec(t))) {
      const names = m[2].split(',').map((s) => s.trim())
      let items = values ? values.map((v) => (/^[A-Z]/.test(v) ? konst(v) : v)) : evaluate(m[1], env)
      values = null
      if (!Array.isArray(items)) throw new Error(`${ctx.file}: cannot loop over ${m[1]}`)
      for (const item of items) {
        const bound = { ...env }
        // `|a|` takes the item; `|a, b|` destructures a pair (a hash's key and value) or takes the item as `a`.
        if (names.length === 1 || !Array.isArray(item)) bound[names[0]] = item
        else names.forEach((n, i) => { bound[n] = item[i] })
        walk(node.children, bound, prefix, ctx)
      }
      continue
    }
    if ((m = /^if (.*)$/.exec(t))) {
      if (gate) {
        const value = str(env[gate.name])
        if (gate.values.includes(value)) walk(node.children, env, prefix, ctx)
        gate = null
      } else {
        ctx.warnings.push(`${ctx.file}: if without a 13.12 gate, walked: ${t}`)
        walk(node.children, env, prefix, ctx)
      }
      continue
    }
    if ((m = SCOPE.exec(t))) {
      const arg = firstArgument(m[2], env)
      walk(node.children, env, [...prefix, arg ?? ''], ctx)
      continue
    }
    if ((m = ROUTE.exec(t))) {
      const arg = firstArgument(m[2], env)
      const route = { method: m[1].toUpperCase(), path: joinPath([...prefix, arg ?? '']), file: ctx.includedFrom ?? ctx.file }
      if (ctx.includedFrom) route.includedIn = ctx.file
      if (pending) ctx.after.push({ ...route, why: pending })
      else ctx.routes.push(route)
      pending = null
      continue
    }
    if ((m = /^mount (\S+)/.exec(t))) {
      ctx.mounts.push(m[1])
      continue
    }
    // version, params, helpers and the like add nothing to the path.
    walk(node.children, env, prefix, ctx)
  }
}

/** `::API::Admin::Ci::Variables` → `lib/api/admin/ci/variables.rb`. */
function mountedFile(constant) {
  const parts = constant.replace(/^::API::/, '').split('::').map(underscore)
  return `lib/api/${parts.join('/')}.rb`
}

function build() {
  const all = sections(readFileSync(join(root, SOURCE), 'utf8'))
  const concerns = new Map()
  for (const s of all) {
    const m = s.lines.map((l) => l.trim()).find((l) => /^module \w+$/.test(l))
    if (m) concerns.set(m.slice(7), { file: s.file, nodes: tree(logicalLines(s.lines)) })
  }
  const routes = []
  const after = []
  const warnings = []
  const mounts = []
  const files = []
  for (const s of all) {
    const ctx = { file: s.file, routes: [], after: [], concerns, warnings, className: '', mounts }
    if (!concerns.has(s.lines.map((l) => l.trim()).find((l) => /^module \w+$/.test(l))?.slice(7) ?? '')) {
      walk(tree(logicalLines(s.lines)), {}, [], ctx)
    }
    routes.push(...ctx.routes)
    after.push(...ctx.after)
    files.push({ file: s.file, commit: s.commit, era: s.era })
  }
  // One row per method and path: a route two files declare (GitLab mounts both) counts once, the first file's.
  const seen = new Set()
  const unique = []
  for (const r of routes) {
    const key = `${r.method} ${r.path}`
    if (seen.has(key)) continue
    seen.add(key)
    unique.push({ method: r.method, path: r.path, file: r.file, tier: 'free' })
  }
  const read = new Set(files.map((f) => f.file))
  const notRead = mounts.map(mountedFile).filter((f) => !read.has(f))
  return {
    gitlab: {
      version: '13.12 CE',
      repository: 'gitlabhq/gitlabhq',
      source: SOURCE,
      extractor: 'scripts/gitlab-routes.mjs',
      note: 'Read through the stored index of public GitHub files, which keeps one or a few versions of each file and cannot list them by date: '
        + "each file names the version read and its era. Where only a later text was to be had, routes its text dates after 13.12 are left out (see `after`); "
        + "undated later routes may remain. lib/api of GitLab CE has no paid-tier routes (those live in ee/, which CE does not ship), so every route is `free`. "
        + 'Files that lib/api/api.rb mounts but that were not read are listed in `notRead`: their routes are not in `routes`.',
    },
    files,
    notRead,
    routes: unique,
    after: after.map((r) => ({ method: r.method, path: r.path, file: r.file, why: r.why })),
    warnings,
  }
}

const out = `${JSON.stringify(build(), null, 2)}\n`
if (process.argv.includes('--check')) {
  const current = readFileSync(join(root, TARGET), 'utf8')
  if (current !== out) {
    process.stderr.write(`${TARGET} is stale: run node scripts/gitlab-routes.mjs\n`)
    process.exit(1)
  }
} else {
  writeFileSync(join(root, TARGET), out)
  const data = JSON.parse(out)
  process.stdout.write(`${data.routes.length} routes from ${data.files.length} files, ${data.after.length} left out as after 13.12, ${data.notRead.length} mounted files not read, ${data.warnings.length} warnings\n`)
}
