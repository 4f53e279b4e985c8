/**
 * Milestone writes, for groups and projects alike: create, update and delete with GitLab's model validations and its
 * `Failed to … milestone {…}` messages.
 * Sources: gitlab-behaviour.md §9; gitlab: app/models/milestone.rb, app/models/concerns/timebox.rb,
 * app/services/milestones/{create,update,destroy}_service.rb, lib/api/milestone_responses.rb.
 * @module
 */
import { ValidationMessage } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import { castDate } from '../../rules/dates.js'
import { failedTo, ModelErrors } from '../../rules/model-errors.js'
import { sanitizeHtml } from '../../rules/sanitize.js'
import type { Db } from '../../db/db.js'
import type { Source } from '../../rules/source.js'
import { MilestoneValidationMessage } from './milestones.messages.js'
import type { MilestoneRecord } from './milestones.tables.js'

// ---- Rails value semantics ----------------------------------------------------------------------

/**
 * A timebox title as stored: HTML removed and entities decoded, then surrounding whitespace
 * stripped (`strip_attributes`). gitlab: app/models/concerns/timebox.rb (`title=`, `sanitize_title`).
 */
export function sanitizeTitle(value: string): string {
  return sanitizeHtml(value).trim()
}

// ---- create / update / delete ------------------------------------------------------------------

/** A param as Grape hands it over: absent (undefined), JSON null, or a string. */
export type StringInput = string | null | undefined

/** Input of {@link createMilestone}: the declared params as received. */
export interface MilestoneCreateInput {
  title: string
  description: StringInput
  due_date: StringInput
  start_date: StringInput
}

/** Input of {@link updateMilestone}: only the params the client sent (`include_missing: false`). */
export interface MilestoneUpdateInput {
  title?: string
  state_event?: 'close' | 'activate'
  description: StringInput
  due_date: StringInput
  start_date: StringInput
}

interface MilestoneAttributes {
  title: string | null
  due_date: string | null
  start_date: string | null
}

const MAX_DATE = '9999-12-31'

function afterMaxDate(date: string): boolean {
  return date.length > MAX_DATE.length || date > MAX_DATE
}

/**
 * The milestones a new title must not repeat (`uniqueness_of_title`): for a group, its own and
 * those of the projects directly in it; for a project, its own and its group's (not ancestors').
 */
function titleTaken(db: Db, parent: Source, title: string): boolean {
  if (parent.type === 'project') {
    const { project } = parent
    const groupId = project.namespace_type === 'group' ? project.namespace_id : null
    return db.tables.milestones.find((m) => m.title === title && (m.project_id === project.id || (groupId !== null && m.group_id === groupId))) !== undefined
  }
  const { group } = parent
  const projectIds = new Set(
    db.tables.projects.where('namespace_id', group.id).filter((p) => p.namespace_type === 'group').map((p) => p.id),
  )
  return db.tables.milestones.find(
    (m) => m.title === title && (m.group_id === group.id || (m.project_id !== null && projectIds.has(m.project_id))),
  ) !== undefined
}

/**
 * Milestone validations in GitLab's order: title presence, due date after start date, dates within
 * four-digit years, then title uniqueness among the parent's milestones and its neighbours' (see
 * {@link titleTaken}; only when the title changed).
 * gitlab: app/models/concerns/timebox.rb, app/models/milestone.rb (`uniqueness_of_title`).
 */
function validateMilestone(db: Db, parent: Source, attrs: MilestoneAttributes, titleChanged: boolean): ModelErrors {
  const errors = new ModelErrors()
  if (attrs.title === null || blank(attrs.title)) errors.add('title', ValidationMessage.blank)
  if (attrs.start_date !== null && attrs.due_date !== null) {
    const due = attrs.due_date.padStart(10, '0')
    const start = attrs.start_date.padStart(10, '0')
    if (due.length < start.length || (due.length === start.length && due <= start)) {
      errors.add('due_date', MilestoneValidationMessage.dueDateBeforeStartDate)
    }
  }
  if (attrs.start_date !== null && afterMaxDate(attrs.start_date)) errors.add('start_date', MilestoneValidationMessage.dateAfterMaximum)
  if (attrs.due_date !== null && afterMaxDate(attrs.due_date)) errors.add('due_date', MilestoneValidationMessage.dateAfterMaximum)
  if (titleChanged && attrs.title !== null && titleTaken(db, parent, attrs.title)) {
    errors.add('title', MilestoneValidationMessage.titleTaken)
  }
  return errors
}

/** `title=`: a blank value is ignored; anything else is sanitised and stripped. */
function assignTitle(current: string | null, value: string | null | undefined): string | null {
  if (value === undefined || value === null || blank(value)) return current
  return sanitizeTitle(value)
}

/** The value GitLab keeps for a description that was not sent. */
const NO_DESCRIPTION = null

/**
 * `Milestones::CreateService` for a group or a project: a new active milestone with the parent's
 * next iid. With `validate: false` it is saved unvalidated, as `Milestones::PromoteService` saves
 * the group milestone it clones (`save(validate: false)`).
 * @param now the creation timestamp.
 * @throws ApiError 400 `{"message":"Failed to create milestone {:title=>[\"...\"]}"}` on a
 *   validation failure (blank or taken title, due date not after start date, year after 9999).
 */
export function createMilestone(db: Db, parent: Source, input: MilestoneCreateInput, now: string, options: { validate?: boolean } = {}): MilestoneRecord {
  const attrs: MilestoneAttributes = {
    title: assignTitle(null, input.title),
    due_date: castDate(input.due_date ?? null),
    start_date: castDate(input.start_date ?? null),
  }
  if (options.validate !== false) {
    const errors = validateMilestone(db, parent, attrs, attrs.title !== null)
    if (errors.size > 0) throw failedTo('create milestone', errors)
  }
  const parentId = parent.type === 'group' ? parent.group.id : parent.project.id
  return db.tables.milestones.insert({
    iid: db.nextIid('milestones', parent.type, parentId),
    title: attrs.title!,
    description: input.description === undefined ? NO_DESCRIPTION : (input.description as string),
    state: 'active',
    due_date: attrs.due_date,
    start_date: attrs.start_date,
    group_id: parent.type === 'group' ? parentId : null,
    project_id: parent.type === 'project' ? parentId : null,
    created_at: now,
    updated_at: now,
  })
}

/**
 * `Milestones::UpdateService`: applies `state_event` (`close` only from active, `activate` only
 * from closed; otherwise no change), then the attributes that were sent (a blank `title` is
 * ignored; null clears `description` and dates; an unparsable date clears it too). `updated_at`
 * moves only when something changed.
 * spec-gap: GitLab saves the state change before validating the other attributes, so a failed
 * update can still close or reopen the milestone; here a failed update changes nothing.
 * @throws ApiError 400 `{"message":"Failed to update milestone {...}"}` on a validation failure.
 */
export function updateMilestone(
  db: Db,
  parent: Source,
  milestone: MilestoneRecord,
  input: MilestoneUpdateInput,
  now: string,
): MilestoneRecord {
  let state = milestone.state
  if (input.state_event === 'close' && state === 'active') state = 'closed'
  if (input.state_event === 'activate' && state === 'closed') state = 'active'
  const title = assignTitle(milestone.title, input.title)
  const description = input.description === undefined ? milestone.description : (input.description as string)
  const attrs: MilestoneAttributes = {
    title,
    due_date: input.due_date === undefined ? milestone.due_date : castDate(input.due_date),
    start_date: input.start_date === undefined ? milestone.start_date : castDate(input.start_date),
  }
  const errors = validateMilestone(db, parent, attrs, title !== milestone.title)
  if (errors.size > 0) throw failedTo('update milestone', errors)
  const changed =
    state !== milestone.state ||
    title !== milestone.title ||
    description !== milestone.description ||
    attrs.due_date !== milestone.due_date ||
    attrs.start_date !== milestone.start_date
  if (!changed) return milestone
  return db.tables.milestones.update(milestone.id, {
    state,
    title: title ?? milestone.title,
    description,
    due_date: attrs.due_date,
    start_date: attrs.start_date,
    updated_at: now,
  })
}

/**
 * `Milestones::DestroyService`'s delete: the milestone goes (its iid is not reused). Unassigning
 * it from every issue and merge request that has it (their `updated_at` moves) is the issues and
 * merge requests areas' part: they subscribe to the `milestone` fact's `destroy`, which the route
 * publishes in the same transaction.
 */
export function destroyMilestone(db: Db, milestone: MilestoneRecord): void {
  db.tables.milestones.delete(milestone.id)
}

