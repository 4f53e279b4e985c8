/**
 * Label state transitions: create and update with GitLab's model rules (sanitising, colour names,
 * validations), priorities, delete with its cascades, promotion to a group label, and subscriptions.
 * Functions take the store and return records; they throw `validationFailed` like
 * `render_validation_error!`. Callers run them inside the request transaction, so a throw undoes
 * every write made before it.
 * Source: gitlab-behaviour.md §12.3–12.5; gitlab: app/models/label.rb, app/services/labels/*.rb,
 * app/models/concerns/subscribable.rb.
 * @module
 */
import { sanitizeHtml } from '../../rules/sanitize.js'
import { isValidColor } from './label-basic.js'
import { normalizeColor } from './color.js'
import { ValidationMessage, validationFailed } from '../../core/errors.js'
import { blank, present, rubyStrip } from '../../core/ruby.js'
import type { Source } from '../../rules/source.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord, Timestamp } from '../../db/schema.js'
import { labelledKinds } from './labels.labelled.js'
import type { LabelRecord } from './labels.tables.js'

/** Longest label title (`validates :title, length: { maximum: 255 }`). */
export const MAX_TITLE_LENGTH = 255

/** The colour the label services store: a CSS keyword becomes its hex, anything else is kept (stripped). */
function storedColor(input: string): string {
  // gitlab: app/services/labels/base_service.rb `convert_color_name_to_hex` runs only for a
  // present value; the model then strips whitespace either way.
  return blank(input) ? '' : normalizeColor(input)
}

/** The fields a label's validations look at. */
interface LabelDraft {
  id?: number
  title: string | null
  color: string
  project_id: number | null
  group_id: number | null
}

/**
 * Label model validations, in GitLab's order (colour first, then title presence, format,
 * uniqueness within the same project or group, length).
 * @returns ActiveModel-style errors; empty when valid.
 */
export function labelErrors(db: Db, draft: LabelDraft): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  if (!isValidColor(draft.color)) errors.color = [ValidationMessage.invalidColor]
  const title = draft.title ?? ''
  const titleErrors: string[] = []
  if (blank(title)) titleErrors.push(ValidationMessage.blank)
  if (!/^[^,]+$/.test(title)) titleErrors.push(ValidationMessage.invalid)
  if (title !== '') {
    const siblings = draft.project_id !== null
      ? db.tables.labels.where('project_id', draft.project_id)
      : db.tables.labels.where('group_id', draft.group_id).filter((l) => l.project_id === null)
    if (siblings.some((l) => l.id !== draft.id && l.title === title)) titleErrors.push(ValidationMessage.taken)
  }
  if ([...title].length > MAX_TITLE_LENGTH) titleErrors.push(ValidationMessage.tooLong(MAX_TITLE_LENGTH))
  if (titleErrors.length > 0) errors.title = titleErrors
  return errors
}

/** Parameters of `POST …/labels`. */
export interface CreateLabelInput {
  name: string
  color: string
  description?: string | null
}

/**
 * `Labels::CreateService` then `parent.labels.create(params)`: title and description are sanitised
 * (a blank one is not written), the colour converted, everything validated.
 * @throws ApiError 400 `{message: {color: [...], title: [...]}}` for an invalid label.
 */
export function createLabel(db: Db, parent: Source, input: CreateLabelInput, now: Timestamp): LabelRecord {
  const draft: LabelDraft = {
    title: present(input.name) ? rubyStrip(sanitizeHtml(input.name)) : null,
    color: storedColor(input.color),
    project_id: parent.type === 'project' ? parent.project.id : null,
    group_id: parent.type === 'group' ? parent.group.id : null,
  }
  const errors = labelErrors(db, draft)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return db.tables.labels.insert({
    title: draft.title ?? '',
    color: draft.color,
    description: present(input.description) ? sanitizeHtml(input.description) : null,
    project_id: draft.project_id,
    group_id: draft.group_id,
    created_at: now,
    updated_at: now,
  })
}

/** Parameters of `PUT …/labels/:label_id` that change the label itself. */
export interface UpdateLabelInput {
  new_name?: string | null
  color?: string | null
  description?: string | null
}

/**
 * `Labels::UpdateService` then `label.update(params)`. A blank `new_name` or `description` is
 * ignored (the model's setters skip blank values), a blank `color` is stored and fails validation.
 * `updated_at` moves only when something changed.
 * @throws ApiError 400 `{message: {...}}` for an invalid result.
 */
export function updateLabel(db: Db, label: LabelRecord, input: UpdateLabelInput, now: Timestamp): LabelRecord {
  const title = present(input.new_name) ? rubyStrip(sanitizeHtml(input.new_name)) : label.title
  const color = input.color === undefined || input.color === null ? label.color : storedColor(input.color)
  const description = present(input.description) ? sanitizeHtml(input.description) : label.description
  const errors = labelErrors(db, { id: label.id, title, color, project_id: label.project_id, group_id: label.group_id })
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  if (title === label.title && color === label.color && description === label.description) return label
  return db.tables.labels.update(label.id, { title, color, description, updated_at: now })
}

/**
 * `label.prioritize!(project, priority)`: sets (or replaces) the project's priority for the label.
 * @throws ApiError 400 `{message: {priority: ["must be greater than or equal to 0"]}}` for a negative value.
 */
export function prioritizeLabel(db: Db, label: LabelRecord, project: ProjectRecord, priority: number): void {
  // spec-gap: GitLab 13.x validates this only inside `prioritize!`, after the label is saved, and
  // answers 500; we refuse it as a validation error and keep the store unchanged.
  if (priority < 0) throw validationFailed({ priority: [ValidationMessage.greaterThanOrEqualTo(0)] })
  const existing = db.tables.label_priorities.where('project_id', project.id).find((p) => p.label_id === label.id)
  if (existing) db.tables.label_priorities.update(existing.id, { priority })
  else db.tables.label_priorities.insert({ project_id: project.id, label_id: label.id, priority })
}

/** `label.unprioritize!(project)`: removes the project's priority for the label, if any. */
export function unprioritizeLabel(db: Db, label: LabelRecord, project: ProjectRecord): void {
  for (const row of db.tables.label_priorities.where('project_id', project.id)) {
    if (row.label_id === label.id) db.tables.label_priorities.delete(row.id)
  }
}

/** Replaces label ids on issues and merge requests (`LabelLink`s), keeping each id once. */
function relabel(db: Db, from: Set<number>, to: number | null): void {
  const rewrite = (ids: number[]): number[] | null => {
    if (!ids.some((id) => from.has(id))) return null
    const out: number[] = []
    for (const id of ids) {
      const next = from.has(id) ? to : id
      if (next !== null && !out.includes(next)) out.push(next)
    }
    return out
  }
  for (const kind of labelledKinds()) kind.relabel(db, rewrite)
}

/**
 * Deletes a label with what depends on it: its links on issues and merge requests, its priorities
 * and its subscriptions. // gitlab: app/models/label.rb (`label_links` dependent destroy,
 * `label_priorities` foreign key cascade), app/models/concerns/subscribable.rb
 */
export function destroyLabel(db: Db, label: LabelRecord): void {
  relabel(db, new Set([label.id]), null)
  for (const row of db.tables.label_priorities.filter((p) => p.label_id === label.id)) db.tables.label_priorities.delete(row.id)
  for (const row of db.tables.subscriptions.where('subscribable_id', label.id)) {
    if (row.subscribable_type === 'Label') db.tables.subscriptions.delete(row.id)
  }
  db.tables.labels.delete(label.id)
}

/**
 * `Labels::PromoteService`: turns a project label into a label of the project's group.
 * - If the group already has a label with that title, that label is kept (with its colour and
 *   description) and the project label merges into it; otherwise the project label itself becomes
 *   the group label and keeps its id (GitLab 13.6+).
 * - Every other label with the same title in the group's own projects merges in too: issues and
 *   merge requests are relabelled, priorities move (one per project), and each user keeps one
 *   subscription (their newest); the merged labels are deleted.
 * @returns the group label.
 */
export function promoteLabel(db: Db, group: GroupRecord, label: LabelRecord, now: Timestamp): LabelRecord {
  const existing = db.tables.labels.where('group_id', group.id).find((l) => l.project_id === null && l.title === label.title)
  // spec-gap: api-spec.md "promotes to a group label, keeping its ID (since 13.6)"; the stored
  // GitLab services create a new label instead, so the in-place change follows the spec.
  const target = existing ?? db.tables.labels.update(label.id, { project_id: null, group_id: group.id, updated_at: now })
  const groupProjects = new Set(
    db.tables.projects.where('namespace_id', group.id).filter((p) => p.namespace_type === 'group').map((p) => p.id),
  )
  const merged = db.tables.labels.filter(
    (l) => l.id !== target.id && l.title === target.title && l.project_id !== null && groupProjects.has(l.project_id),
  )
  if (merged.length === 0) return target
  const mergedIds = new Set(merged.map((l) => l.id))
  relabel(db, mergedIds, target.id)

  const targetPriorities = db.tables.label_priorities.filter((p) => p.label_id === target.id)
  for (const row of db.tables.label_priorities.filter((p) => mergedIds.has(p.label_id))) {
    if (targetPriorities.some((p) => p.project_id === row.project_id)) db.tables.label_priorities.delete(row.id)
    else targetPriorities.push(db.tables.label_priorities.update(row.id, { label_id: target.id }))
  }

  const newest = new Map<number, number>()
  const mergedSubscriptions = db.tables.subscriptions.filter((s) => s.subscribable_type === 'Label' && mergedIds.has(s.subscribable_id))
  for (const row of mergedSubscriptions) newest.set(row.user_id, Math.max(newest.get(row.user_id) ?? 0, row.id))
  const targetSubscriptions = db.tables.subscriptions.where('subscribable_id', target.id).filter((s) => s.subscribable_type === 'Label')
  for (const row of mergedSubscriptions) {
    const keep = newest.get(row.user_id) === row.id &&
      !targetSubscriptions.some((s) => s.user_id === row.user_id && s.project_id === row.project_id)
    if (keep) db.tables.subscriptions.update(row.id, { subscribable_id: target.id })
    else db.tables.subscriptions.delete(row.id)
  }
  for (const l of merged) db.tables.labels.delete(l.id)
  return target
}

/**
 * `subscribed?(user, project)` at exactly one level: the user's subscription row for the label
 * with that `project_id` (null = global), false when there is none.
 */
export function subscribedAtLevel(db: Db, label: LabelRecord, userId: number, projectId: number | null): boolean {
  return db.tables.subscriptions
    .where('subscribable_id', label.id)
    .some((s) => s.subscribable_type === 'Label' && s.user_id === userId && s.project_id === projectId && s.subscribed)
}

/**
 * `subscribe` / `unsubscribe(user, project)`: first switches off the user's subscriptions at the
 * other level (project-level ones for a global change, the global one for a project change), then
 * creates or updates the row for this level. // gitlab: app/models/concerns/subscribable.rb
 */
export function setLabelSubscription(db: Db, label: LabelRecord, userId: number, projectId: number | null, subscribed: boolean): void {
  const rows = db.tables.subscriptions
    .where('subscribable_id', label.id)
    .filter((s) => s.subscribable_type === 'Label' && s.user_id === userId)
  for (const row of rows) {
    const otherLevel = projectId === null ? row.project_id !== null : row.project_id === null
    if (otherLevel && row.subscribed) db.tables.subscriptions.update(row.id, { subscribed: false })
  }
  const own = rows.find((s) => s.project_id === projectId)
  if (own) db.tables.subscriptions.update(own.id, { subscribed })
  else db.tables.subscriptions.insert({ user_id: userId, subscribable_type: 'Label', subscribable_id: label.id, project_id: projectId, subscribed })
}
