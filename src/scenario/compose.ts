/**
 * One scenario format from the fragments of every area: the zod schemas of a scenario file and of
 * an included fixture file, with each record kind's identity fields followed by the fields the
 * fragments add, plus the null-value hints they give.
 * @module
 */
import { z } from 'zod'
import { KIND_COLLECTIONS, RECORD_KINDS, type RecordKind } from './entries.js'
import type { Fields, ScenarioFragment } from './fragment.js'
import { GROUP_IDENTITY, PROJECT_IDENTITY, ROOT_FIELDS, USER_IDENTITY } from './records.js'

/** The composed schemas. */
export interface ComposedSchemas {
  /** A scenario file (version 1). Unknown keys are refused; top-level `x-…` keys are stripped before. */
  readonly scenario: z.ZodType
  /** An included fixture file: a scenario whose `version` may be left out (it is the includer's). */
  readonly fixture: z.ZodType
  /** Texts for null fields, by field name, from every fragment. */
  readonly nullHints: ReadonlyMap<string, string>
}

const IDENTITY: { readonly [K in RecordKind]: Fields } = { user: USER_IDENTITY, group: GROUP_IDENTITY, project: PROJECT_IDENTITY }

/**
 * Composes the fragments (in area order) into the schemas of a scenario.
 * @throws Error when two fragments add the same field to a record kind, or give two hints for one
 *   field name (a programming error, found at start-up).
 */
export function composeSchemas(fragments: readonly ScenarioFragment[]): ComposedSchemas {
  const records = {} as Record<RecordKind, z.ZodType>
  for (const kind of RECORD_KINDS) {
    const shape: Record<string, Fields[string]> = { ...IDENTITY[kind] }
    for (const fragment of fragments) {
      for (const [name, schema] of Object.entries(fragment.fields?.[kind] ?? {})) {
        if (Object.hasOwn(shape, name)) throw new Error(`scenario: two areas define ${KIND_COLLECTIONS[kind]}[].${name}`)
        shape[name] = schema
      }
    }
    records[kind] = z.strictObject(shape)
  }
  const nullHints = new Map<string, string>()
  for (const [name, text] of fragments.flatMap((fragment) => Object.entries(fragment.nullHints ?? {}))) {
    if (nullHints.has(name)) throw new Error(`scenario: two areas give a hint for null "${name}"`)
    nullHints.set(name, text)
  }
  const rootFields: Record<string, Fields[string]> = {}
  for (const [name, schema] of fragments.flatMap((fragment) => Object.entries(fragment.root ?? {}))) {
    if (Object.hasOwn(rootFields, name) || Object.hasOwn(ROOT_FIELDS, name) || ['users', 'groups', 'projects'].includes(name)) {
      throw new Error(`scenario: two areas define the top-level field ${name}`)
    }
    rootFields[name] = schema
  }
  const scenario = z.strictObject({
    ...ROOT_FIELDS,
    ...rootFields,
    users: z.array(records.user).default([]).describe('Users, each with what it holds (tokens, emails, snippets, ...).'),
    groups: z.array(records.group).default([]).describe('Groups (a subgroup names its parent), each with what it holds (members, labels, milestones, ...).'),
    projects: z.array(records.project).default([]).describe('Projects (in a group or a user namespace), each with what it holds (members, labels, issues, merge requests, ...).'),
  })
  // An included file may not set the areas' top-level fields: only the including file's count.
  const onlyTopLevel = z.unknown().refine(() => false, { error: 'is only allowed in the top-level scenario, not in an included file' })
  const fixtureOmit = Object.fromEntries(Object.keys(rootFields).map((name) => [name, onlyTopLevel.optional()]))
  return { scenario, fixture: scenario.extend({ version: z.literal(1).optional(), ...fixtureOmit }), nullHints }
}
