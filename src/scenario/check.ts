/**
 * Reference checks over a whole scenario: names (through the {@link NameIndex}), ids unique per
 * table, iids unique per parent, then each fragment's own checks. They read raw values, skipping
 * whatever is of the wrong type (the schema reports that), so reference problems are found even
 * when unrelated schema problems exist. The loader runs the same checks on a parsed scenario.
 * @module
 */
import { items, KIND_COLLECTIONS, RECORD_KINDS, str, type Entry, type Model } from './entries.js'
import type { CheckContext, NestedCollection, ScenarioFragment } from './fragment.js'
import { NameIndex } from './names.js'
import { at, where, type Loc, type Report } from './problems.js'

/**
 * Checks `model` and returns its name index.
 * @param fragments every area's fragment, in area order.
 * @param report receives every problem, located.
 */
export function checkScenario(model: Model, fragments: readonly ScenarioFragment[], report: Report): NameIndex {
  const index = NameIndex.build(model, report)
  checkIds(model, index, fragments, report)
  defineTitles(model, index, fragments)
  const ctx: CheckContext = {
    model,
    index,
    report,
    root: model.root,
    checkUser(loc, value) {
      const username = str(value)
      if (username !== undefined && !index.users.has(username.toLowerCase())) report(loc, `unknown user "${username}"`)
    },
  }
  for (const fragment of fragments) fragment.check?.(ctx)
  return index
}

/** The records of a nested collection, in the order their ids are claimed. */
function nestedEntries(model: Model, index: NameIndex, spec: NestedCollection): Entry[][] {
  return spec.on.map((kind) => (kind === 'group' ? index.groupsInOrder() : model[kind]).map((owner) => items(owner, spec.field))).flat()
}

/** Explicit ids unique per table; iids unique per parent. */
function checkIds(model: Model, index: NameIndex, fragments: readonly ScenarioFragment[], report: Report): void {
  const ids = new Map<string, Loc>()
  const claim = (table: string, owner: Entry): void => {
    const value = owner.value.id
    if (typeof value !== 'number' || !Number.isInteger(value)) return
    const key = `${table}#${value}`
    const first = ids.get(key)
    if (first) report(at(owner, 'id'), `duplicate ${table} id ${value} (first used by ${where(first, owner)})`)
    else ids.set(key, owner)
  }
  for (const kind of RECORD_KINDS) for (const entry of model[kind]) claim(KIND_COLLECTIONS[kind], entry)
  for (const spec of fragments.flatMap((fragment) => fragment.collections ?? [])) {
    for (const siblings of nestedEntries(model, index, spec)) {
      const iids = new Map<number, Loc>()
      for (const entry of siblings) {
        claim(spec.table, entry)
        const iid = entry.value.iid
        if (!spec.iid || typeof iid !== 'number' || !Number.isInteger(iid)) continue
        const first = iids.get(iid)
        if (first) report(at(entry, 'iid'), `duplicate iid ${iid} (first used by ${where(first, entry)})`)
        else iids.set(iid, entry)
      }
    }
  }
}

/**
 * The name index of `model` without the reference checks, for a scenario that passed them when it
 * was parsed: what loading needs (names, namespaces, titles). Problems of the names themselves are
 * still reported to `report` (none, for a checked scenario).
 */
export function indexScenario(model: Model, fragments: readonly ScenarioFragment[], report: Report): NameIndex {
  const index = NameIndex.build(model, report)
  defineTitles(model, index, fragments)
  return index
}

function defineTitles(model: Model, index: NameIndex, fragments: readonly ScenarioFragment[]): void {
  for (const fragment of fragments) {
    for (const spec of fragment.titles ?? []) index.defineTitles(spec, index.groupsInOrder(), model.project)
  }
}
