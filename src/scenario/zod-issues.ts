/**
 * zod issues → scenario problems: each issue becomes a short text in the scenario's words
 * ("must be a list; got a mapping", "unknown key \"userz\"") at the path of the offending value,
 * so the caller can locate it at `file:line:col`.
 * @module
 */
import type { z } from 'zod'
import { didYouMean } from '../core/did-you-mean.js'
import type { Path } from './problems.js'

/** One located problem text from a zod issue. */
export interface IssueText {
  path: Path
  text: string
  /** Point at this key of the map at `path` (unknown keys). */
  key?: string
}

/**
 * Texts for a field that is null, by field name: what to tell an author whose value vanished.
 * An area adds one when a YAML pitfall empties its field (labels: an unquoted `#` colour).
 */
export type NullHints = ReadonlyMap<string, string>

/** The value at `path` inside `value`, and whether it is there at all. */
function valueAt(value: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let current = value
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return { found: false, value: undefined }
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

const EXPECTED = new Map<string, string>([
  ['string', 'a string'],
  ['number', 'a number'],
  ['int', 'an integer'],
  ['boolean', 'true or false'],
  ['object', 'a mapping'],
  ['array', 'a list'],
])

/** The parts of a zod schema's definition the key walk reads (zod 4's `_zod.def`). */
interface SchemaDef {
  type: string
  innerType?: SchemaLike
  in?: SchemaLike
  getter?: () => SchemaLike
  shape?: Record<string, SchemaLike>
  element?: SchemaLike
  valueType?: SchemaLike
  options?: readonly SchemaLike[]
  left?: SchemaLike
  right?: SchemaLike
}
interface SchemaLike {
  _zod: { def: SchemaDef }
}

/** Wrappers whose inner schema validates the value (`optional`, `default`, a pipe's input, ...). */
function unwrap(schema: SchemaLike): SchemaLike {
  let current = schema
  for (let depth = 0; depth < 20; depth++) {
    const def = current._zod.def
    const next = def.innerType ?? (def.type === 'pipe' ? def.in : undefined) ?? (def.type === 'lazy' ? def.getter?.() : undefined)
    if (!next) return current
    current = next
  }
  return current
}

/**
 * The keys a mapping at `path` may have, by walking `schema` along it (objects, lists, records,
 * unions and intersections); `[]` when the walk finds no object there.
 */
function keysAt(schema: SchemaLike, path: readonly (string | number)[]): string[] {
  const def = unwrap(schema)._zod.def
  const branches = (): SchemaLike[] => [...(def.options ?? []), ...(def.left ? [def.left] : []), ...(def.right ? [def.right] : [])]
  if (path.length === 0) {
    if (def.shape) return Object.keys(def.shape)
    return [...new Set(branches().flatMap((branch) => keysAt(branch, [])))]
  }
  const [segment, ...rest] = path
  if (def.shape) return def.shape[String(segment)] ? keysAt(def.shape[String(segment)]!, rest) : []
  if (def.element) return keysAt(def.element, rest)
  if (def.valueType) return keysAt(def.valueType, rest)
  return [...new Set(branches().flatMap((branch) => keysAt(branch, path)))]
}

/**
 * Turns a zod issue into located problem texts (one per unknown key, else one), with a
 * did-you-mean for an unknown key (the keys the schema has there; issue 38 item 6). A value not
 * among the allowed ones gets its did-you-mean from `Problems.add`, as every `must be one of`.
 * @param input the document the schema ran on, to show the offending value.
 * @param nullHints texts for named fields that are null (see {@link NullHints}).
 * @param schema the schema that ran, for the keys an unknown key could have meant.
 */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown, nullHints: NullHints, schema?: z.ZodType): IssueText[] {
  const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol')
  const got = valueAt(input, issue.path)
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = schema ? keysAt(schema as unknown as SchemaLike, path) : []
      return issue.keys.map((key) => ({ path, key, text: `unknown key "${key}"${didYouMean(key, known)}` }))
    }
    case 'invalid_type': {
      if (!got.found || got.value === undefined) return [{ path, text: 'is required' }]
      const expected = EXPECTED.get(issue.expected) ?? issue.expected
      const field = path[path.length - 1]
      const hint = got.value === null && typeof field === 'string' ? nullHints.get(field) : undefined
      if (hint !== undefined) return [{ path, text: hint }]
      const quote =
        issue.expected === 'string' && (typeof got.value === 'number' || typeof got.value === 'boolean')
          ? ' (quote it to make it a string)'
          : ''
      return [{ path, text: `must be ${expected}; got ${show(got.value)}${quote}` }]
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
