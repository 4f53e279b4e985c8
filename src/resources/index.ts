/**
 * Every resource area (from the mount list, `areas.ts`) and every route they serve. Order does
 * not decide matching: the router ranks by specificity.
 *
 * An area costs nothing until used (STYLE.md §4; issue 39 item 4): its routes are registered from
 * the static route table (`route-table.ts`, keys only), and its route modules load on the first
 * request that matches one of them ({@link loadRoute}). Nothing here runs an area's route modules
 * at start, nor its registrations ({@link loadRegistrations}: before the first request).
 * @module
 */
import { routeEntry, type Route, type RouteEntry, type RouteSource } from '../core/route.js'
import { hasSegments } from '../core/router.js'
import type { Area, AreaRoutes } from '../scenario/area.js'
import * as mounted from './areas.js'
import { ROUTE_TABLE } from './route-table.js'

export type * from './areas.js'

/**
 * The areas, ordered by name: a module namespace lists its exports sorted, and `areas.ts` exports
 * nothing but areas (the annotation below fails to compile otherwise). This order is also the
 * order in which the scenario loader visits their fragments.
 */
export const areas: readonly Area[] = Object.values(mounted)

/** A route of the static route table: its key, method and path, and the area serving it. */
export interface AreaRouteEntry extends RouteEntry {
  /** The area's name (`labels`). */
  readonly area: string
  /** Whether it is a web route (a path from the root) rather than an API route (below `/api/v4`). */
  readonly web: boolean
}

/**
 * The method a route key names before its space at `space` (one of `routeEntry`'s), as the
 * constant string rather than a copy cut from the key; `undefined` for none.
 */
function methodOf(key: string, space: number): RouteEntry['method'] | undefined {
  let method: RouteEntry['method'] | undefined
  switch (space) {
    case 3: method = key.charCodeAt(1) === 69 ? 'GET' : 'PUT'; break
    case 4: method = key.charCodeAt(0) === 72 ? 'HEAD' : 'POST'; break
    case 5: method = 'PATCH'; break
    case 6: method = 'DELETE'; break
  }
  return method !== undefined && key.startsWith(method) ? method : undefined
}

/**
 * A static table entry: what `routeEntry` gives for the key, with its area. Written out rather than
 * spread from `routeEntry`'s answer, and split at the space rather than by its expression: a start
 * makes one per route key (issue 39, cold start: 3 to 4.5 ms for 720 keys the other way), and
 * whatever it allocates for them is young garbage or a survivor a start's scavenges copy; a key
 * that does not split as a route key goes through `routeEntry`, which throws for it.
 */
function entryOf(key: string, area: string, web: boolean): AreaRouteEntry {
  const space = key.indexOf(' ')
  const method = methodOf(key, space)
  const path = key.slice(space + 1)
  if (method === undefined || path.charCodeAt(0) !== 47 || /\s/.test(path)) return { ...routeEntry(key), area, web }
  return { key, method, path, area, web }
}

/** Whether `key`'s path (after the space at `space`) has a wildcard segment or starts with a parameter. */
function isOther(key: string, space: number): boolean {
  return key.charCodeAt(space + 2) === 58 || key.includes('/*', space)
}

/**
 * Whether the first segment of `key`'s path (after the space at `space`) is `first` (lower-case):
 * as written, or lower-cased when the key spells it otherwise (path-to-regexp matches either).
 */
function firstSegmentIs(key: string, space: number, first: string): boolean {
  const start = space + 2
  const end = start + first.length
  if (end !== key.length && key.charCodeAt(end) !== 47) return false
  if (key.startsWith(first, start)) return true
  const segment = key.slice(start, end)
  return segment.length === first.length && !segment.includes('/') && segment.toLowerCase() === first
}

/**
 * The static route table's API or web routes as a {@link RouteSource}: an entry is made for a key
 * only when the router files a bucket that holds it, or when something asks for every entry (a
 * start makes none: issue 39, a start's growth with the routes). Each key's entry is made once.
 * The keys are unique across areas (test/unit/route-table.test.ts), so the router does not check.
 */
class StaticRoutes implements RouteSource {
  readonly #web: boolean
  /** The entries made so far, by the key's position in the table (a list of the table's length, made on first need). */
  #made?: (AreaRouteEntry | undefined)[]
  readonly #count: number
  #all?: readonly AreaRouteEntry[]
  #others?: readonly AreaRouteEntry[]
  readonly hasHead: boolean

  constructor(web: boolean) {
    this.#web = web
    let head = false
    let count = 0
    this.#each((key) => {
      if (key.startsWith('HEAD ')) head = true
      count++
    })
    this.hasHead = head
    this.#count = count
  }

  /** Calls `visit` with every key of the table, its area, the index of its space and its position, in table order. */
  #each(visit: (key: string, area: string, space: number, at: number) => void): void {
    // Indexed loops: a start runs this once (for `hasHead`), in the interpreter, where `for...of`
    // allocates an iterator result per key.
    const kind = this.#web ? 'web' : 'api'
    let at = 0
    for (let a = 0; a < areas.length; a++) {
      const name = areas[a]!.name
      const keys = ROUTE_TABLE[name]?.[kind]
      if (keys === undefined) continue
      for (let k = 0; k < keys.length; k++) visit(keys[k]!, name, keys[k]!.indexOf(' '), at++)
    }
  }

  /** The entry of the key at position `at`, made once. */
  #entry(key: string, area: string, at: number): AreaRouteEntry {
    const made = (this.#made ??= new Array<AreaRouteEntry | undefined>(this.#count))
    return (made[at] ??= entryOf(key, area, this.#web))
  }

  all(): readonly AreaRouteEntry[] {
    if (this.#all) return this.#all
    const entries: AreaRouteEntry[] = []
    this.#each((key, area, _space, at) => entries.push(this.#entry(key, area, at)))
    return (this.#all = entries)
  }

  withFirstSegment(first: string, segments: number): readonly AreaRouteEntry[] {
    const entries: AreaRouteEntry[] = []
    this.#each((key, area, space, at) => {
      if (firstSegmentIs(key, space, first) && hasSegments(key, segments, space + 1) && !key.includes('/*', space)) entries.push(this.#entry(key, area, at))
    })
    return entries
  }

  others(): readonly AreaRouteEntry[] {
    if (this.#others) return this.#others
    const entries: AreaRouteEntry[] = []
    this.#each((key, area, space, at) => {
      if (isOther(key, space)) entries.push(this.#entry(key, area, at))
    })
    return (this.#others = entries)
  }
}

/** The API routes fakelab serves, as the engine takes them: entries made as requests need them. */
export const apiRouteSource: RouteSource = new StaticRoutes(false)

/** The web routes (outside `/api/v4`) fakelab serves, what API entities link to: as {@link apiRouteSource}. */
export const webRouteSource: RouteSource = new StaticRoutes(true)

/** Every API route fakelab serves, in area order and each area's own order (from the static table). */
export function allRoutes(): readonly AreaRouteEntry[] {
  return apiRouteSource.all() as readonly AreaRouteEntry[]
}

/** Every web route (outside `/api/v4`) fakelab serves: what API entities link to. */
export function allWebRoutes(): readonly AreaRouteEntry[] {
  return webRouteSource.all() as readonly AreaRouteEntry[]
}

const AREAS_BY_NAME = new Map(areas.map((area) => [area.name, area]))

/** An area's loaded routes, by key, API and web apart. */
interface LoadedArea {
  readonly api: ReadonlyMap<string, Route>
  readonly web: ReadonlyMap<string, Route>
}

/** The areas loaded so far in this process (route modules are stateless: every simulator shares them). */
const LOADED = new Map<string, LoadedArea>()
const LOADING = new Map<string, Promise<LoadedArea>>()

/**
 * Loads an area's routes once and checks them against the static table.
 * @throws Error when the area is not mounted, has no loader, or its routes differ from its table
 *   entries (a stale `route-table.ts`: run `npm run route-table`); programming errors.
 */
function loadArea(name: string): LoadedArea | Promise<LoadedArea> {
  const done = LOADED.get(name)
  if (done) return done
  let pending = LOADING.get(name)
  if (!pending) {
    const area = AREAS_BY_NAME.get(name)
    if (!area?.load) throw new Error(`area ${name} has no routes to load`)
    pending = area.load().then((routes) => {
      const loaded = checkedArea(name, routes)
      LOADED.set(name, loaded)
      LOADING.delete(name)
      return loaded
    })
    LOADING.set(name, pending)
  }
  return pending
}

function checkedArea(name: string, routes: AreaRoutes): LoadedArea {
  const table: { readonly api?: readonly string[]; readonly web?: readonly string[] } = ROUTE_TABLE[name] ?? {}
  const check = (kind: 'api' | 'web', list: readonly Route[]): Map<string, Route> => {
    const keys = list.map((route) => route.key)
    const listed = table[kind] ?? []
    if (keys.length !== listed.length || keys.some((key, i) => key !== listed[i])) {
      throw new Error(`the static route table of area ${name} (${kind}) is stale: run \`npm run route-table\``)
    }
    return new Map(list.map((route) => [route.key, route]))
  }
  return { api: check('api', routes.api), web: check('web', routes.web ?? []) }
}

/**
 * The whole route of a static table entry: at once when its area is loaded, else a promise that
 * settles when its area's modules have loaded (the first request of an area waits for it once).
 * The engine's `loadRoute` (`createSimulator` passes it).
 * @throws Error for an entry that is not in the table, or a stale table (programming errors).
 */
export function loadRoute(entry: RouteEntry): Route | Promise<Route> {
  const { area, web } = entry as AreaRouteEntry
  const pick = (loaded: LoadedArea): Route => {
    const route = (web ? loaded.web : loaded.api).get(entry.key)
    if (!route) throw new Error(`route ${entry.key} is not in area ${area}'s routes`)
    return route
  }
  const loaded = loadArea(area)
  return loaded instanceof Promise ? loaded.then(pick) : pick(loaded)
}

/** Whether every area's registrations have run; the promise while they load. */
let registered = false
let registering: Promise<void> | undefined

/**
 * Runs every area's registrations ({@link Area.register}: domain-event subscribers, kinds and
 * lookups it adds to other areas' registries) once per process, one area after the other in area
 * order, which is the order a start ran them in before they were lazy (subscribers run in
 * subscription order). What the engine awaits before it answers its first request
 * (`EngineOptions.prepare`, passed by `createSimulator`), whatever the door.
 * @returns `undefined` once they have run (every later request goes on in the same turn), else the
 *   promise of their loading.
 */
export function loadRegistrations(): Promise<void> | undefined {
  if (registered) return undefined
  registering ??= (async () => {
    for (const area of areas) if (area.register) await area.register()
    registered = true
  })()
  return registering
}

/**
 * Every area's routes, loaded: what tools and tests that read a route's policy or params need
 * (the authorization matrix, the credential checks, the generated docs). A server never calls it.
 * @returns the API and web routes in the static table's order.
 */
export async function loadAllRoutes(): Promise<{ api: Route[]; web: Route[] }> {
  // Registrations first, as a request would: a route module may import a subscriber's module.
  await loadRegistrations()
  const loaded = await Promise.all(areas.filter((area) => area.load).map(async (area) => ({ area, routes: await loadArea(area.name) })))
  return {
    api: loaded.flatMap(({ routes }) => [...routes.api.values()]),
    web: loaded.flatMap(({ routes }) => [...routes.web.values()]),
  }
}

/**
 * The static route table as the loaded areas give it: what `npm run route-table` writes into
 * `route-table.ts` (areas in mount order, each area's routes in its own order; areas without routes left out).
 */
export async function currentRouteTable(): Promise<Record<string, { api: string[]; web?: string[] }>> {
  await loadRegistrations()
  const table: Record<string, { api: string[]; web?: string[] }> = {}
  for (const area of areas) {
    if (!area.load) continue
    const routes = await area.load()
    table[area.name] = { api: routes.api.map((route) => route.key), ...(routes.web?.length ? { web: routes.web.map((route) => route.key) } : {}) }
  }
  return table
}
