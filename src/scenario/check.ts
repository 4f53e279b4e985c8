/**
 * Reference checks over a whole scenario: names (through the {@link NameIndex}), ids unique per
 * table, iids unique per parent, then each fragment's own checks. They read raw values, skipping
 * whatever is of the wrong type (the schema reports that), so reference problems are found even
 * when unrelated schema problems exist. The loader runs the same checks on a parsed scenario.
 * @module
 */
import { items, KIND_COLLECTIONS, RECORD_KINDS, str, type Entry, type Model } from './entries.js'
import type { CheckContext, NestedCollection, ScenarioFragment } from './fragment.js'
import { didYouMean } from '../core/did-you-mean.js'
import { NameIndex } from './names.js'
import { at, where, type Loc, type Report } from './problems.js'

/**
 * Checks `model` and returns its name index.
 * @param fragments every area's fragment, in area order.
 * @param report receives every problem, located.
 */
export function checkScenario(model: Model, fragments: readonly ScenarioFragment[], reportAs: Report): NameIndex {
  const report = suggestingNames(model, reportAs)
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

/** What an `unknown <kind> "x"` problem names, by kind. */
type NameKind = 'user' | 'group' | 'project' | 'namespace' | 'parent group'

/**
 * `report`, with a did-you-mean after the name of every `unknown user "x"`, `unknown group "x"`,
 * `unknown project "x"`, `unknown namespace "x"` and `unknown parent group "x"` (issue 38 item 6),
 * whichever area reports it: the candidates are the scenario's usernames and full paths as written.
 */
function suggestingNames(model: Model, report: Report): Report {
  let names: Record<NameKind, string[]> | undefined
  const candidates = (kind: NameKind): string[] => {
    names ??= (() => {
      const users = model.user.map((u) => str(u.value.username)).filter((n): n is string => n !== undefined)
      const groups = model.group.flatMap((g) => {
        const path = str(g.value.path)
        const parent = str(g.value.parent)
        return path === undefined ? [] : [parent ? `${parent}/${path}` : path]
      })
      const projects = model.project.flatMap((p) => {
        const path = str(p.value.path)
        const namespace = str(p.value.namespace)
        return path === undefined || namespace === undefined ? [] : [`${namespace}/${path}`]
      })
      return { user: users, group: groups, project: projects, namespace: [...groups, ...users], 'parent group': groups }
    })()
    return names[kind]
  }
  return (loc, message, key) => {
    const m = /^unknown (user|group|project|namespace|parent group) ("(?:[^"\\]|\\.)*")/.exec(message)
    if (!m || message.includes('(did you mean')) return report(loc, message, key)
    const given = JSON.parse(m[2]!) as string
    // A group below the unknown parent is no parent it could have meant.
    const names = candidates(m[1] as NameKind).filter((name) => !name.toLowerCase().startsWith(`${given.toLowerCase()}/`))
    report(loc, `${m[0]}${didYouMean(given, names)}${message.slice(m[0].length)}`, key)
  }
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
