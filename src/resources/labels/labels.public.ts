/**
 * What other areas may use of the labels area (its public module; besides `index.ts`, the only
 * file of this folder another area imports): `LabelBasic` and the colour rules, and finders over
 * the `labels` and `label_priorities` tables, as GitLab's `LabelsFinder` and associations serve
 * other models; and the registration of a kind of labelled record (issues, merge requests) by the
 * area that owns it (labels.labelled.ts). Nothing here imports another area, so any area may import
 * it without a cycle.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { LabelPriorityRecord, LabelRecord } from './labels.tables.js'

export { DEFAULT_LABEL_COLOR, LabelBasic } from './label-basic.js'
export { registerLabelledKind } from './labels.labelled.js'

/** The label with this id, if any. */
export function labelById(db: Db, id: number): LabelRecord | undefined {
  return db.tables.labels.get(id)
}

/** Every label of every project and group, in id order. */
export function allLabels(db: Db): LabelRecord[] {
  return db.tables.labels.all()
}

/** A project's own labels, in id order (a new array: the caller may add to it). */
export function labelsOfProject(db: Db, projectId: number): LabelRecord[] {
  return db.tables.labels.where('project_id', projectId)
}

/** A group's own labels (not its ancestors'), in id order (a new array). */
export function labelsOfGroup(db: Db, groupId: number): LabelRecord[] {
  return db.tables.labels.where('group_id', groupId)
}

/**
 * `Labels::FindOrCreateService` creating a missing label: a project label with this title and
 * colour, no description. gitlab: app/services/labels/find_or_create_service.rb.
 */
export function createProjectLabel(db: Db, projectId: number, title: string, color: string, now: string): LabelRecord {
  return db.tables.labels.insert({ title, color, description: null, project_id: projectId, group_id: null, created_at: now, updated_at: now })
}

/** A project's label priorities (`label_priorities`), in id order. */
export function labelPrioritiesOfProject(db: Db, projectId: number): LabelPriorityRecord[] {
  return db.tables.label_priorities.where('project_id', projectId)
}

/** The write counter of `label_priorities` (`Collection.version`), for caches of priority orders. */
export function labelPrioritiesVersion(db: Db): number {
  return db.tables.label_priorities.version
}

/** The labels of an issuable, sorted by title (Ruby string order), unknown ids skipped. */
export function issuableLabels(ctx: PresentCtx, labelIds: readonly number[]): LabelRecord[] {
  const labels: LabelRecord[] = []
  // Insertion sort, stable as Array#sort is: an issuable has a handful of labels, and Array#sort's
  // set-up allocates more than the sort itself costs (20 sorts on every issue list page).
  for (const id of labelIds) {
    const label = ctx.db.tables.labels.get(id)
    if (!label) continue
    let at = labels.length
    while (at > 0 && labels[at - 1]!.title > label.title) {
      labels[at] = labels[at - 1]!
      at--
    }
    labels[at] = label
  }
  return labels
}
