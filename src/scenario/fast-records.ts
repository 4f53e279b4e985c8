/**
 * A second, faster way through the scenario schema for big lists of simple records (the 50,000
 * runner jobs of the scale scenario, issue 13): a plain checker per field that answers only when
 * the value is plainly valid, and otherwise gives up, so that zod parses the whole list as before
 * and reports exactly what it reports today. What a checker answers is what zod's parse gives
 * (same fields, same order, same defaults); `test/unit/scale-load-helpers.test.ts` compares them.
 * @module
 */
import type { z } from 'zod'
import { isRec, type Rec } from './entries.js'

/** A checker's "not plainly valid: ask zod". */
export const GIVE_UP: unique symbol = Symbol('give up')

/** A field value's checker: the parsed value, or {@link GIVE_UP}. */
export type FastValue = (value: unknown) => unknown

/**
 * How zod treats a field that is absent or undefined: `required` (zod: a plain schema), `optional`
 * (`.optional()`: kept when the key is there, even undefined) or a default (`.default(value)`,
 * primitive values only: zod hands the same one out).
 */
export type FastField = { kind: 'required' | 'optional'; check: FastValue } | { kind: 'default'; value: unknown; check: FastValue }

/** The checkers of the scalar schemas. */
export const fast = {
  string: (value: unknown): unknown => (typeof value === 'string' ? value : GIVE_UP),
  boolean: (value: unknown): unknown => (typeof value === 'boolean' ? value : GIVE_UP),
  /** `z.number()`: finite numbers only. */
  number: (value: unknown): unknown => (typeof value === 'number' && Number.isFinite(value) ? value : GIVE_UP),
  /** `z.int().positive()`. */
  positiveInt: (value: unknown): unknown => (Number.isSafeInteger(value) && (value as number) > 0 ? value : GIVE_UP),
  /** `z.enum(values)`. */
  oneOf(values: readonly string[]): FastValue {
    const allowed = new Set<unknown>(values)
    return (value) => (allowed.has(value) ? value : GIVE_UP)
  },
  /** A string refined by `accept` and transformed by `transform` (identity by default). */
  refined(accept: (s: string) => boolean, transform: (s: string) => unknown = (s) => s): FastValue {
    return (value) => (typeof value === 'string' && accept(value) ? transform(value) : GIVE_UP)
  },
  /** `.nullable()`. */
  nullable(inner: FastValue): FastValue {
    return (value) => (value === null ? null : inner(value))
  },
  required: (check: FastValue): FastField => ({ kind: 'required', check }),
  optional: (check: FastValue): FastField => ({ kind: 'optional', check }),
  withDefault: (value: unknown, check: FastValue): FastField => ({ kind: 'default', value, check }),
}

/**
 * The checker of a `z.strictObject` whose fields are `fields`, in the schema's order: a new object
 * with the fields zod's parse would give, in the same order, or {@link GIVE_UP} for anything but a
 * plain object holding only those keys with plainly valid values.
 */
export function fastObject(fields: Readonly<Record<string, FastField>>): (input: unknown) => Rec | typeof GIVE_UP {
  const names = Object.keys(fields)
  const known = new Set(names)
  const specs = names.map((name) => fields[name]!)
  return (input) => {
    if (!isRec(input) || Object.getPrototypeOf(input) !== Object.prototype) return GIVE_UP
    for (const key in input) if (!known.has(key)) return GIVE_UP
    const out: Rec = {}
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      const spec = specs[i]!
      const present = name in input
      const value = input[name]
      if (value === undefined) {
        if (spec.kind === 'default') out[name] = spec.value
        else if (spec.kind === 'optional') {
          if (present) out[name] = undefined
        } else return GIVE_UP
        continue
      }
      const parsed = spec.check(value)
      if (parsed === GIVE_UP) return GIVE_UP
      out[name] = parsed
    }
    return out
  }
}

/**
 * `array` (a `z.array(…)`), answering through `element` when it answers
 * for every item, else parsing as zod does. Returns the same schema object, so the JSON Schema and
 * every wrapper built on it stay as they were.
 */
export function withFastItems<S extends z.ZodArray>(array: S, element: (input: unknown) => unknown): S {
  const internals = array._zod
  const zodParse = internals.parse
  const parse: typeof zodParse = (payload, ctx) => {
    const input = payload.value
    if (Array.isArray(input) && payload.issues.length === 0) {
      const out = new Array<unknown>(input.length)
      let i = 0
      for (; i < input.length; i++) {
        const parsed = element(input[i])
        if (parsed === GIVE_UP) break
        out[i] = parsed
      }
      if (i === input.length) {
        payload.value = out
        return payload
      }
    }
    return zodParse(payload, ctx)
  }
  // zod runs a schema without checks through `run`, which it set to `parse` when it made it.
  if (internals.run === zodParse) internals.run = parse
  internals.parse = parse
  return array
}
