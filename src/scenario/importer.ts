/**
 * The cassette-import hook an area declares (`Area.importer`): which recorded answers it reads and
 * what it adds to the imported scenario. `verify/import.ts` is the driver: it parses the recorded
 * exchanges, collects users, groups and projects (core's records, and the tokens), hands every
 * successful GET to the areas' importers, then lets each build its section into the groups and
 * projects of the scenario, in rank order. Also the small JSON helpers the importers share.
 * Browser-safe. Source: issue 11 ("Cassette to scenario").
 * @module
 */

/** A JSON object as recorded. */
export type Json = Record<string, unknown>

/** One recorded exchange as the importers see it. */
export interface ImportExchange {
  /** Upper-case method. */
  readonly method: string
  /** The path below `/api/v4` (`/projects/20/labels`). */
  readonly path: string
  /** The path with ids as `:id` (`/projects/:id/labels`), see `routeTemplate`. */
  readonly template: string
  /** The path's segments, percent-decoded (`['projects', '20', 'labels']`). */
  readonly segments: readonly string[]
  readonly status: number
  /** The credential the request sent (a redaction placeholder), if any. */
  readonly token: string | undefined
  /** Whether the request used `sudo`. */
  readonly sudo: boolean
  /** The parsed JSON answer, or undefined. */
  readonly body: unknown
}

/** What an importer's {@link AreaImport.collect} gets besides the exchange. */
export interface ImportCollectContext {
  /** The group a `/groups/:id/…` path names, as seen so far (by id or full path), if known. */
  readonly group: Json | undefined
  /** The project a `/projects/:id/…` path names, as seen so far, if known. */
  readonly project: Json | undefined
  /** The id of the user the request's token belongs to (from a recorded `GET /user`), if known. */
  readonly userId: number | undefined
  /** The username of a seen user. */
  username(id: number): string | undefined
  /** Records a user embedded in an answer (a member, an author), first sight first. */
  noteUser(value: unknown): void
  /** Whether the session itself created the record (a `201` to a POST on its collection). */
  created(kind: string, id: number): boolean
}

/** What an importer's {@link AreaImport.build} gets: the scenario's groups and projects so far. */
export interface ImportBuildContext {
  /** Every recorded exchange, in order. */
  readonly exchanges: readonly ImportExchange[]
  /** The scenario group of a full path, if imported. */
  group(fullPath: string): Json | undefined
  /** The full path of an imported group id. */
  groupPath(id: number): string | undefined
  /** The scenario project of an id, if imported. */
  project(id: number): Json | undefined
  /** The `namespace/path` of an imported project id. */
  projectPath(id: number): string | undefined
  /** The username of a seen user. */
  username(id: number): string | undefined
  /**
   * Appends `value` to the list `key` of a scenario group or project.
   * @returns false (and nothing added) when `into` is undefined.
   */
  push(into: Json | undefined, key: string, value: Json): boolean
  /** Adds one to the count of `kind` (one of the importer's {@link AreaImporter.counts}). */
  count(kind: string): void
  /** Adds a "not reproduced" note. */
  note(text: string): void
}

/** One import run's state of an area: made fresh by {@link AreaImporter.start} for each cassette. */
export interface AreaImport {
  /**
   * Looks at one successful GET (2xx, with a JSON body), in recorded order, after the users, groups
   * and projects of the whole cassette are known.
   * @returns true when the area took the answer in (else it is listed as not in the scenario format).
   */
  collect?(exchange: ImportExchange, ctx: ImportCollectContext): boolean
  /** Adds the area's records to the scenario's groups and projects. */
  build?(ctx: ImportBuildContext): void
}

/**
 * An area's cassette-import hook.
 * @example
 * importer: { rank: 30, collections: { freeze_periods: 'freeze_period' }, counts: ['freeze_periods'], start: () => ({ collect, build }) }
 */
export interface AreaImporter {
  /**
   * Where its sections go among the other areas' (lower first; default 100, ties in area order):
   * a section that refers to another's (issues to labels by title) comes after it.
   */
  readonly rank?: number
  /** Collection segments whose POST `201` creates one record of a kind (`{ labels: 'label' }`). */
  readonly collections?: Readonly<Record<string, string>>
  /** The counts it reports (`ImportResult.counts` keys), in order. */
  readonly counts?: readonly string[]
  /** Fields of a recorded group answer that the area's scenario fields take as they are. */
  readonly groupFields?: readonly string[]
  /** Fields of a recorded project answer that the area's scenario fields take as they are. */
  readonly projectFields?: readonly string[]
  /** A fresh run. */
  start?(): AreaImport
}

/** Whether `value` is a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)
/** `value` when it is a string. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
/** `value` when it is a number. */
export const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined)
/** An answer as a list: a list as it is, one object as a list of one, nothing as none. */
export const list = (body: unknown): unknown[] => (Array.isArray(body) ? body : body === undefined ? [] : [body])

/** Copies the keys of `from` that `into` lacks: first sight wins, later sights fill gaps. */
export function fill(into: Json, from: Json): void {
  for (const [key, value] of Object.entries(from)) if (!(key in into) && value !== undefined) into[key] = value
}

/** Copies `keys` of `from` that hold a value (dropping nulls the schema refuses, unless in `allowNull`). */
export function pick(from: Json, keys: readonly string[], allowNull: readonly string[] = []): Json {
  const out: Json = {}
  for (const key of keys) {
    const value = from[key]
    if (value === undefined || (value === null && !allowNull.includes(key))) continue
    out[key] = value
  }
  return out
}

/**
 * Notes a recorded record of `kind` by id in `map` (first sight first, later sights fill gaps),
 * unless the session created it.
 * @returns the collected record, or undefined when it was left out.
 */
export function noteRecord(map: Map<number, Json>, ctx: Pick<ImportCollectContext, 'created'>, kind: string, value: unknown): Json | undefined {
  if (!isObject(value) || num(value.id) === undefined) return undefined
  if (ctx.created(kind, value.id as number)) return undefined
  const entity = map.get(value.id as number) ?? {}
  fill(entity, value)
  map.set(value.id as number, entity)
  return entity
}

/** The `username` of an embedded user object. */
export function usernameIn(value: unknown): string | undefined {
  return isObject(value) ? str(value.username) : undefined
}

/** The `title` of an embedded object. */
export function titleIn(value: unknown): string | undefined {
  return isObject(value) ? str(value.title) : undefined
}
