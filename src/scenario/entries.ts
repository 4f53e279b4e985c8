/**
 * Scenario records as the checks and the loader see them: each with its place (file and path), so
 * a problem found anywhere can be located. Reference checks read raw, possibly ill-typed values
 * (skipping what is of the wrong type: the schema reports that), so the readers here are defensive.
 * @module
 */
import type { Loc, Source } from './problems.js'

/** A plain mapping, as YAML gives it. */
export type Rec = Record<string, unknown>

/** The three kinds of top-level record; everything else in a scenario is nested inside one. */
export type RecordKind = 'user' | 'group' | 'project'

/** The top-level collection of each record kind, which is also its store table. */
export const KIND_COLLECTIONS = { user: 'users', group: 'groups', project: 'projects' } as const

/** Record kinds in loading order: projects live in groups or user namespaces. */
export const RECORD_KINDS: readonly RecordKind[] = ['user', 'group', 'project']

/** A record (top-level or nested) with its place. */
export interface Entry extends Loc {
  value: Rec
}

/**
 * Every top-level record of a scenario, by kind, in merge order (included files first), and the
 * top-level document of the scenario itself (`root`), whose fields fragments may add (`runners:`).
 */
export type Model = { readonly [K in RecordKind]: Entry[] } & {
  /** The including (top-level) file's document; set by {@link addEntries}, the last call wins. */
  root?: Entry
}

/** Whether `value` is a mapping. */
export function isRec(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `value` when it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The items of a list with their indexes; anything else yields nothing (the schema reports it). */
export function list(value: unknown): [unknown, number][] {
  return Array.isArray(value) ? value.map((item: unknown, i) => [item, i]) : []
}

/** The mapping items of a list field of `owner`, as entries (`projects[0].labels[2]`). */
export function items(owner: Entry, field: string): Entry[] {
  const out: Entry[] = []
  const value = owner.value[field]
  if (!Array.isArray(value)) return out
  // One entry and one path per item, nothing else: the checks and the loader list the 50,000 jobs
  // and 100,000 issues of a large scenario several times (issue 13).
  const { source, path } = owner
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i]
    if (isRec(item)) out.push({ source, path: [...path, field, i], value: item })
  }
  return out
}

/**
 * Appends the mapping items of `list` (a list field's value) to `out`, without places: for the
 * loader, which needs the records only (an entry and a path for each of 100,000 would be garbage).
 */
export function pushRecords(out: Rec[], list: unknown): void {
  if (!Array.isArray(list)) return
  for (const item of list as unknown[]) if (isRec(item)) out.push(item)
}

/** The entries of one source's top-level collections, appended to `model`. */
export function addEntries(model: Model, source: Source, value: unknown): void {
  if (!isRec(value)) return
  // Sources are added includes first, so the including file's document is the last one set.
  model.root = { source, path: [], value }
  for (const kind of RECORD_KINDS) {
    const collection = KIND_COLLECTIONS[kind]
    for (const [item, i] of list(value[collection])) {
      if (isRec(item)) model[kind].push({ source, path: [collection, i], value: item })
    }
  }
}

/** An empty {@link Model}. */
export function emptyModel(): Model {
  return { user: [], group: [], project: [] }
}
