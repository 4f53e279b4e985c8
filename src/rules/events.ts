/**
 * The domain-event channel: one place where the areas announce facts (an issue was opened, a note
 * added, a branch pushed, a pipeline finished) and where whatever reacts to them subscribes: the
 * events API, webhooks and system hooks, resource events, system notes, to-dos. GitLab hangs the
 * same reactions off its services (`EventCreateService`, `execute_hooks`, `SystemNoteService`,
 * `ResourceEvents::*`); here the publishing area never imports a reacting one, so the arrows
 * between areas point one way (STYLE.md §4, "Areas announce facts; others subscribe"; issue 34).
 *
 * How it runs:
 * - `publish(db, name, fact)` is called by the service that changed state, inside the request's
 *   transaction. Every subscriber of that name runs at once, synchronously, in the same transaction
 *   and in subscription order, so what they write (an `events` row, a resource event, a system
 *   note, a hook delivery to make) commits or rolls back with the change that caused it: a failed
 *   request leaves neither the change nor its reactions.
 * - Work that must wait until the change is committed, such as an HTTP delivery of a webhook, is
 *   queued with `db.onCommit(task)` by the subscriber; the store runs it after the outermost
 *   transaction commits, and drops it on rollback (`db/db.ts`).
 *
 * The vocabulary of facts is open: an area that publishes a fact declares its name and shape by
 * declaration merging, as tables are declared (`db/schema.ts`):
 *
 * ```ts
 * declare module '../../rules/events.js' {
 *   interface DomainEvents { 'issue': IssueFact }
 * }
 * ```
 * and a subscriber names it without importing the publisher. Browser-safe; imports no area.
 * @module
 */
import type { Db } from '../db/db.js'
import type { UserRecord } from '../db/schema.js'

/**
 * The facts areas publish, by name; each area adds its own by declaration merging (see the module
 * comment). The name is the GitLab concept it reports, in GitLab's words: `issue`, `merge_request`,
 * `note`, `push`, `tag_push`, `pipeline`, `build`, `release`, `wiki_page`, `member`...
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

/** A published fact's name. */
export type DomainEventName = keyof DomainEvents

/** What every fact carries besides its own fields: who, when, and where GitLab was reached. */
export interface DomainEventHeader {
  /** The user who caused it (the acting user, the sudo target under `Sudo`); null for none (a scheduled move, a runner). */
  readonly actorId: number | null
  /** When it happened: the request's instant (ISO 8601, the clock's `now`). */
  readonly at: string
  /** `scheme://host[:port]` the causing request was served under: the base of the URLs a reaction writes (a hook payload's `url`). */
  readonly baseUrl: string
}

/**
 * A request-like context for a subscriber that presents records (a hook payload, a merge made on
 * someone's behalf): the shape of `entities/urls.ts`' `PresentCtx`, the actor as the current user.
 */
export interface EventCtx {
  readonly db: Db
  readonly baseUrl: string
  /** The event's UTC date, `YYYY-MM-DD`. */
  readonly today: string
  /** The event's instant (ISO 8601). */
  readonly now: string
  /** The actor, or null. */
  readonly currentUser: UserRecord | null
}

/** The {@link EventCtx} of an event: its store, base URL, instant and actor. */
export function eventCtx(db: Db, event: DomainEventHeader): EventCtx {
  return { db, baseUrl: event.baseUrl, today: event.at.slice(0, 10), now: event.at, currentUser: event.actorId === null ? null : (db.tables.users.get(event.actorId) ?? null) }
}

/** One published fact: its header and the fields its publisher declared for `K`. */
export type DomainEvent<K extends DomainEventName = DomainEventName> = DomainEventHeader & DomainEvents[K] & { readonly name: K }

/**
 * A subscriber: runs inside the publishing transaction, synchronously. It may read and write the
 * store (its own area's tables, or tables it declares in `Area.writes`) and queue work for after
 * the commit with `db.onCommit`. What it throws fails the request that published, as any write
 * there would (so a subscriber checks nothing a client could get wrong: it only reacts).
 */
export type Subscriber<K extends DomainEventName> = (db: Db, event: DomainEvent<K>) => void

type AnySubscriber = (db: Db, event: DomainEvent) => void

/** Subscribers by fact name, in subscription order; one process-wide list (subscribers keep no state). */
const SUBSCRIBERS = new Map<DomainEventName, AnySubscriber[]>()

/**
 * Subscribes to a fact: `subscribe('issue', (db, event) => …)`. An area subscribes from a module its
 * `index.ts` imports (so the subscription is there from the start, before any of its routes load);
 * keep that module small: it runs at every start.
 * @returns a function that removes the subscription (for tests).
 */
export function subscribe<K extends DomainEventName>(name: K, subscriber: Subscriber<K>): () => void {
  const list = SUBSCRIBERS.get(name) ?? []
  list.push(subscriber as unknown as AnySubscriber)
  SUBSCRIBERS.set(name, list)
  return () => {
    const at = list.indexOf(subscriber as unknown as AnySubscriber)
    if (at >= 0) list.splice(at, 1)
  }
}

/**
 * Publishes a fact: runs every subscriber of `name`, in subscription order, with the fact and its
 * name. Call it from the service that made the change, after the change is written and inside the
 * same transaction (every request runs in one).
 * @throws what a subscriber throws (the request's transaction then rolls back).
 * @example
 * publish(db, 'issue', { action: 'open', issue, before: null, actorId: user.id, at: ctx.now, baseUrl: ctx.baseUrl })
 */
export function publish<K extends DomainEventName>(db: Db, name: K, fact: DomainEventHeader & DomainEvents[K]): void {
  const list = SUBSCRIBERS.get(name)
  if (!list || list.length === 0) return
  const event = { ...(fact as object), name } as DomainEvent<K>
  for (const subscriber of [...list]) subscriber(db, event as unknown as DomainEvent)
}
