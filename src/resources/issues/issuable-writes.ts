/**
 * The issuable write rules issues and merge requests share, as GitLab's `IssuableBaseService`
 * serves both: labels found or created by title, `remove_labels` lookups, the milestone filter and
 * the assignee filter. Issue writes use them here; merge request writes through `issues.public.ts`.
 * gitlab: app/services/issuable_base_service.rb, app/services/labels/{available_labels,find_or_create}_service.rb.
 * @module
 */
import { AccessLevel, canReadProject, projectAccessLevel } from '../../rules/access.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import { milestoneById } from '../milestones/milestones.public.js'
import { DEFAULT_LABEL_COLOR, createProjectLabel, labelsOfGroup, labelsOfProject } from '../labels/labels.public.js'
import type { ServiceCtx } from './issues.service.js'

type LabelRecord = Tables['labels']

/** What the assignee filter reads of the params: the list form and the legacy single id. */
export interface AssigneeParams {
  assignee_id?: number
  assignee_ids?: number[]
}

/** `can?(user, :admin_issue, project)`: Reporter+ or administrator. */
export function canAdminIssue(db: Db, user: UserRecord, project: ProjectRecord, today: string): boolean {
  return user.admin || projectAccessLevel(db, user, project, today) >= AccessLevel.REPORTER
}

// ---- labels and milestones --------------------------------------------------------------------

/** The labels available to a project: its own, then those of its group and the group's ancestors. */
export function availableLabels(db: Db, project: ProjectRecord): LabelRecord[] {
  const labels = labelsOfProject(db, project.id)
  const group = db.projectGroup(project)
  if (group) for (const g of db.groupSelfAndAncestors(group)) labels.push(...labelsOfGroup(db, g.id))
  return labels
}

/**
 * `Labels::AvailableLabelsService#find_or_create_by_titles`: each title (stripped) is looked up among
 * the project's available labels; a missing one is created as a project label (colour
 * `#428BCA`) when the user may `admin_label` (Reporter+), else skipped.
 * gitlab: app/services/labels/find_or_create_service.rb.
 */
export function findOrCreateLabelIds(ctx: ServiceCtx, user: UserRecord, project: ProjectRecord, titles: readonly string[]): number[] {
  const { db } = ctx
  const available = availableLabels(db, project)
  const ids: number[] = []
  for (const raw of titles) {
    const title = raw.trim()
    if (title === '') continue
    let label = available.find((l) => l.title === title)
    if (!label && canAdminIssue(db, user, project, ctx.today)) {
      label = createProjectLabel(db, project.id, title, DEFAULT_LABEL_COLOR, ctx.now)
      available.push(label)
    }
    if (label && !ids.includes(label.id)) ids.push(label.id)
  }
  return ids
}

/** Ids of the available labels with these titles (never created: `remove_labels` finds only). */
export function findLabelIds(db: Db, project: ProjectRecord, titles: readonly string[]): number[] {
  const wanted = new Set(titles.map((t) => t.trim()))
  return availableLabels(db, project).filter((l) => wanted.has(l.title)).map((l) => l.id)
}

/**
 * `filter_milestone`: a milestone of the project or of its groups, else none (an unknown id, `0`
 * and `None` all unset it, silently). gitlab: app/services/issuable_base_service.rb.
 */
export function milestoneIdFor(db: Db, project: ProjectRecord, id: number): number | null {
  const milestone = milestoneById(db, id)
  if (!milestone) return null
  if (milestone.project_id === project.id) return milestone.id
  const group = db.projectGroup(project)
  if (group && milestone.group_id !== null && db.groupSelfAndAncestors(group).some((g) => g.id === milestone.group_id)) return milestone.id
  return null
}

/**
 * `filter_assignee`: the community edition keeps the first id only; ids of users who cannot read
 * the project are dropped; `[0]` (or `assignee_id: 0`) means "unassign"; nothing left means "leave
 * as is". `assignee_id` is the legacy form (`convert_parameters_from_legacy_format`).
 * @returns the new assignee ids, or undefined for no change.
 */
export function assigneeIdsFor(ctx: ServiceCtx, project: ProjectRecord, params: AssigneeParams): number[] | undefined {
  const given = params.assignee_ids ?? (params.assignee_id !== undefined ? [params.assignee_id] : undefined)
  if (given === undefined) return undefined
  if (given.length === 0) return []
  const first = given.slice(0, 1)
  if (first[0] === 0) return []
  const readable = first.filter((id) => {
    const user = ctx.db.tables.users.get(id)
    return user !== undefined && canReadProject(ctx.db, user, project, ctx.today)
  })
  return readable.length > 0 ? readable : undefined
}

