/**
 * The kinds of labelled record (GitLab's `LabelLink` targets: issues and merge requests): where the
 * label code finds a project's ones for the `with_counts` numbers, which of them the caller sees,
 * and how a label merge or deletion rewrites their `label_ids`. The area owning each model
 * registers its kind here as it loads (`registerLabelledKind`), so this area names no issue or
 * merge request code and those areas import it without a cycle.
 * gitlab: app/models/label.rb (`open_issues_count`, `closed_issues_count`, `open_merge_requests_count`),
 * app/models/label_link.rb.
 * @module
 */
import { KindRegistry } from '../../rules/kinds.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'

/** What the label code reads of an issue or a merge request. */
export interface LabelledFacts {
  readonly state: string
  readonly label_ids: readonly number[]
}

/** The labelled record types (`LabelLink#target_type`). */
export type LabelledType = 'Issue' | 'MergeRequest'

/** One kind of labelled record, as the area owning its model registers it. `R` is that area's record. */
export interface LabelledKind<R extends LabelledFacts = LabelledFacts> {
  readonly type: LabelledType
  /** A project's records of this kind, in id order. */
  ofProject(db: Db, projectId: number): readonly R[]
  /** Which of a readable project's records the user sees (worked out once per project). */
  visibleIn(db: Db, user: UserRecord | null, project: ProjectRecord, today: string): (record: R) => boolean
  /** Rewrites every record's `label_ids` with `rewrite` (null: unchanged). */
  relabel(db: Db, rewrite: (ids: number[]) => number[] | null): void
}

const kinds = new KindRegistry<LabelledType, LabelledKind>('labelled')

/** Registers a kind of labelled record (its area calls this once, as it loads). */
export function registerLabelledKind<R extends LabelledFacts>(kind: LabelledKind<R>): void {
  kinds.register(kind as unknown as LabelledKind)
}

/**
 * The registered kind of that type.
 * @throws Error when no area registered it (a composition bug, not a request error).
 */
export function labelledKind(type: LabelledType): LabelledKind {
  return kinds.get(type)
}

/** The registered kinds, in registration order. */
export function labelledKinds(): readonly LabelledKind[] {
  return kinds.all()
}
