/**
 * The kinds of to-do target (`Todo#target`, polymorphic: issues and merge requests): how the to-do
 * code finds one, who may read it, how a to-do touches it, and how the `Todo` entity presents it.
 * The area owning each model registers its kind here as it loads (`registerTodoTargetKind`), so
 * this area names no issue or merge request code and those areas import it without a cycle.
 * gitlab: app/models/todo.rb, lib/api/todos.rb (`todo_target_class`, `batch_load_issuable_metadata`),
 * lib/api/entities/todo.rb (13.x).
 * @module
 */
import { KindRegistry } from '../../rules/kinds.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { TodoTargetType } from './todos.tables.js'

/** Who is asking (the read checks of the `…/todo` routes). */
export interface TodoReadCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
}

/** What the to-do code reads of an issue or a merge request. */
export interface TodoTargetFacts {
  readonly id: number
  readonly title: string
}

/**
 * One kind of to-do target, as the area owning its model registers it. `R` is that area's record,
 * `F` what presenting a page of them needs, computed once for the page.
 */
export interface TodoTargetKind<R extends TodoTargetFacts = TodoTargetFacts, F = unknown> {
  readonly type: TodoTargetType
  /** `project.<targets>.find_by(iid:)`: the one with that iid in the project, readable or not. */
  byIid(db: Db, projectId: number, iid: number): R | undefined
  /** The one with that global id, if it is still there. */
  byId(db: Db, id: number): R | undefined
  /** `read_issue`/`read_merge_request` on one of the (readable) project's targets. */
  canRead(ctx: TodoReadCtx, project: ProjectRecord, record: R): boolean
  /** Moves its `updated_at` (`belongs_to :target, polymorphic: true, touch: true`). */
  touch(db: Db, id: number, now: string): void
  /** Its web page (`target_url`). */
  webUrl(ctx: PresentCtx, record: R): string
  /** The facts a page of such targets needs (`batch_load_issuable_metadata`), from the page's targets. */
  pageFacts(ctx: PresentCtx, records: readonly R[]): F
  /**
   * The `target` of the `Todo` entity (`todo_target_class(type).represent`).
   * @param inList whether this is `GET /todos` (the list).
   */
  present(record: R, ctx: PresentCtx, facts: F, inList: boolean): object
}

const kinds = new KindRegistry<TodoTargetType, TodoTargetKind>('to-do target')

/** Registers a kind of to-do target (its area calls this once, as it loads). */
export function registerTodoTargetKind<R extends TodoTargetFacts, F>(kind: TodoTargetKind<R, F>): void {
  kinds.register(kind as unknown as TodoTargetKind)
}

/**
 * The registered kind of that type.
 * @throws Error when no area registered it (a composition bug, not a request error).
 */
export function todoTargetKind(type: TodoTargetType): TodoTargetKind {
  return kinds.get(type)
}

/** The registered kinds, in registration order. */
export function todoTargetKinds(): readonly TodoTargetKind[] {
  return kinds.all()
}
