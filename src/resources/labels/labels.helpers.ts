/**
 * Finders and permission checks shared by the project and group label routes: GitLab's
 * `LabelsFinder` (which labels a project or group "has available"), `find_label` (id first, then
 * title) and the `admin_label` ability.
 * Source: api-spec.md "### Labels"; gitlab-behaviour.md §12.2–12.3;
 * gitlab: lib/api/helpers/label_helpers.rb, lib/api/helpers.rb `available_labels_for`,
 * app/finders/labels_finder.rb.
 * @module
 */
import { rubyToI } from '../../core/ruby.js'
import { AccessLevel, canReadGroup, canReadProject, hasGroupAccess, hasProjectAccess } from '../../core/access.js'
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { fuzzySearch } from '../../core/fuzzy-search.js'
import { apiMessage, conflict, ErrorMessage, forbidden, notFound, notModified, unauthorized } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import type { LabelRecord } from './labels.tables.js'
import {
  createLabel,
  destroyLabel,
  prioritizeLabel,
  promoteLabel,
  setLabelSubscription,
  subscribedAtLevel,
  unprioritizeLabel,
  updateLabel,
  type CreateLabelInput,
  type UpdateLabelInput,
} from './labels.service.js'

/** What labels hang off: a project or a group (GitLab's `label_parent`). */
export type LabelParent =
  | { readonly type: 'project'; readonly project: ProjectRecord }
  | { readonly type: 'group'; readonly group: GroupRecord }

/** `LabelsFinder` params the API passes. Absent booleans are false, as nil is in Ruby. */
export interface LabelFinderOptions {
  /** Add the labels of the parent group's ancestors. */
  includeAncestorGroups?: boolean
  /** Add the labels of the group's descendants (group parent only). */
  includeDescendantGroups?: boolean
  /** Group parent: leave out the labels of the group's projects. */
  onlyGroupLabels?: boolean
  /** Fuzzy filter on title or description. */
  search?: string
}

/** `available_labels_for(parent)` without params: ancestors included, group labels only. */
export const DEFAULT_FINDER_OPTIONS: LabelFinderOptions = { includeAncestorGroups: true, onlyGroupLabels: true }

/**
 * `find_label(parent, id, include_ancestor_groups: false)`: what update, delete and promote use.
 * Through a project this still reaches the labels of the project's *direct* group (only ancestor
 * groups drop out), and a group parent also reaches the labels of its own projects
 * (`only_group_labels` is unset). // gitlab: app/finders/labels_finder.rb `groups_to_include`;
 * spec/requests/api/labels_spec.rb "with group label" (delete 204 / update 200 for a group member,
 * 403 otherwise; priority alone allowed)
 */
export const WRITE_FINDER_OPTIONS: LabelFinderOptions = { includeAncestorGroups: false }

/**
 * Orders labels like `LabelsFinder#sort` (`title ASC`), ties by id.
 * // spec-gap: PostgreSQL collation decides the real order; we compare code points (the `C`
 * collation GitLab's Omnibus database uses), which is deterministic across machines.
 */
export function compareLabels(a: LabelRecord, b: LabelRecord): number {
  if (a.title !== b.title) return a.title < b.title ? -1 : 1
  return a.id - b.id
}

/**
 * The labels available to a project or group, sorted by title, as `LabelsFinder` computes them
 * for the current user:
 * - project: labels of the project, plus labels of its group (always the direct group, its
 *   ancestors when `includeAncestorGroups`), only groups the user can read;
 * - group: labels of the group (plus ancestors / descendants as asked, readable ones only), plus,
 *   unless `onlyGroupLabels`, the labels of the non-archived projects the user can read that sit
 *   directly in the group (subgroups' projects are not included; GitLab passes no `include_subgroups`).
 */
export function availableLabels(ctx: Ctx<unknown>, parent: LabelParent, options: LabelFinderOptions): LabelRecord[] {
  const { db, currentUser: user, today } = ctx
  const labels: LabelRecord[] = []
  // A loop, not push(...spread): a spread of 150,000 labels overflows the call stack.
  const add = (rows: LabelRecord[]): void => {
    for (const row of rows) labels.push(row)
  }
  const groupLabels = (group: GroupRecord, descendants: boolean): void => {
    const chain = options.includeAncestorGroups ? db.groupSelfAndAncestors(group) : [group]
    const groups = descendants ? [...chain, ...db.groupDescendants(group)] : chain
    for (const g of groups) {
      if (canReadGroup(db, user, g, today)) add(db.tables.labels.where('group_id', g.id))
    }
  }
  if (parent.type === 'project') {
    const group = db.projectGroup(parent.project)
    if (group) groupLabels(group, false)
    add(db.tables.labels.where('project_id', parent.project.id))
  } else {
    groupLabels(parent.group, options.includeDescendantGroups === true)
    if (!options.onlyGroupLabels) {
      for (const project of db.tables.projects.where('namespace_id', parent.group.id)) {
        if (project.namespace_type !== 'group' || project.archived || !canReadProject(db, user, project, today)) continue
        add(db.tables.labels.where('project_id', project.id))
      }
    }
  }
  // `Label.search`: GitLab's fuzzy search over title and description, one-character terms included.
  const matches = options.search === undefined ? undefined : fuzzySearch(options.search, { useMinimumCharLimit: false })
  const found = matches ? labels.filter((label) => matches(label.title, label.description)) : labels
  return found.sort(compareLabels)
}

/**
 * `find_label(parent, id_or_title, params)`: the available label with that id, else the one with
 * that exact (case-sensitive) title.
 * @param ref the decoded `:label_id` segment, or the `label_id`/`name` parameter of the old forms.
 * @throws ApiError 404 `{"message":"404 Label Not Found"}`.
 */
export function findLabel(ctx: Ctx<unknown>, parent: LabelParent, ref: string | number, options: LabelFinderOptions): LabelRecord {
  const labels = availableLabels(ctx, parent, { ...options, search: undefined })
  const id = rubyToI(ref)
  const title = String(ref)
  const label = labels.find((l) => l.id === id) ?? labels.find((l) => l.title === title)
  if (!label) throw notFound('Label')
  return label
}

/** The project or group a label belongs to. */
export function labelOwner(ctx: Ctx<unknown>, label: LabelRecord): LabelParent | null {
  if (label.project_id !== null) {
    const project = ctx.db.tables.projects.get(label.project_id)
    return project ? { type: 'project', project } : null
  }
  const group = label.group_id === null ? undefined : ctx.db.tables.groups.get(label.group_id)
  return group ? { type: 'group', group } : null
}

/**
 * The `admin_label` ability on a project or group: Reporter or higher (administrators always).
 * An archived project is read-only, so nobody may change its labels.
 * // gitlab: app/policies/project_policy.rb (`reporter` enables `admin_label`; `archived` prevents
 * the label feature's write abilities), app/policies/group_policy.rb (`reporter` enables `admin_label`)
 */
export function canAdminLabels(ctx: Ctx<unknown>, parent: LabelParent): boolean {
  const { db, currentUser: user, today } = ctx
  if (parent.type === 'project') {
    return !parent.project.archived && hasProjectAccess(db, user, parent.project, AccessLevel.REPORTER, today)
  }
  return hasGroupAccess(db, user, parent.group, AccessLevel.REPORTER, today)
}

/**
 * `authorize! :admin_label, subject` for a parent or a label (a label is judged by its owner).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeAdminLabel(ctx: Ctx<unknown>, subject: LabelParent | LabelRecord): void {
  const parent = 'type' in subject ? subject : labelOwner(ctx, subject)
  if (!parent || !canAdminLabels(ctx, parent)) throw forbidden()
}

// ---- request flows shared by the project and group routes -------------------------------------

/** Parameters of `POST …/labels` (priority: project routes only). */
export interface CreateLabelParams extends CreateLabelInput {
  priority?: number
}

/**
 * `create_label`: `admin_label` on the parent, then 409 when a label with exactly that title is
 * already available to the parent (its own labels and those of its group and ancestor groups),
 * then the model rules, then the priority.
 * @throws ApiError 403, 409 `{"message":"Label already exists"}`, 400 validation errors.
 */
export function createLabelFor(ctx: Ctx<unknown>, parent: LabelParent, params: CreateLabelParams): LabelRecord {
  authorizeAdminLabel(ctx, parent)
  if (availableLabels(ctx, parent, DEFAULT_FINDER_OPTIONS).some((l) => l.title === params.name)) {
    throw conflict(ErrorMessage.labelExists)
  }
  const label = createLabel(ctx.db, parent, params, ctx.now)
  if (parent.type === 'project' && params.priority !== undefined) prioritizeLabel(ctx.db, label, parent.project, params.priority)
  return label
}

/** Whether a parameter was sent at all (even as `null` or an empty string). */
export function paramGiven(ctx: Ctx<unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(ctx.raw, name) && ctx.raw[name] !== undefined
}

/**
 * `update_label`: `admin_label` on the parent (403), the label among the parent's own labels
 * (for a project: its labels and its group's, no ancestors; 404), `admin_label` on the label when
 * a field of the label itself changes (a group label's priority in a project only needs the
 * project), the model rules (400), then the priority: a blank or null `priority` removes it.
 * // gitlab: lib/api/helpers/label_helpers.rb `update_label`
 */
export function updateLabelFor(
  ctx: Ctx<unknown>,
  parent: LabelParent,
  ref: string | number,
  params: UpdateLabelInput & { priority?: number | null },
): LabelRecord {
  authorizeAdminLabel(ctx, parent)
  let label = findLabel(ctx, parent, ref, WRITE_FINDER_OPTIONS)
  const changes: UpdateLabelInput = {}
  if (paramGiven(ctx, 'new_name')) changes.new_name = params.new_name ?? null
  if (paramGiven(ctx, 'color')) changes.color = params.color ?? null
  if (paramGiven(ctx, 'description')) changes.description = params.description ?? null
  if (Object.keys(changes).length > 0) {
    authorizeAdminLabel(ctx, label)
    label = updateLabel(ctx.db, label, changes, ctx.now)
  }
  if (parent.type === 'project' && paramGiven(ctx, 'priority')) {
    if (params.priority === undefined || params.priority === null) unprioritizeLabel(ctx.db, label, parent.project)
    else prioritizeLabel(ctx.db, label, parent.project, params.priority)
  }
  return label
}

/**
 * `delete_label`: the label among the parent's own labels (404), `admin_label` on it (403),
 * `If-Unmodified-Since` (412, `destroy_conditionally!`), then the delete with its cascades.
 */
export function deleteLabelFor(ctx: Ctx<unknown>, parent: LabelParent, ref: string | number): void {
  const label = findLabel(ctx, parent, ref, WRITE_FINDER_OPTIONS)
  authorizeAdminLabel(ctx, label)
  checkUnmodifiedSince(ctx, label.updated_at)
  destroyLabel(ctx.db, label)
}

/**
 * Subscribe (`subscribe` true) or unsubscribe the current user. Project routes work on the
 * project-level subscription, group routes on the global one; 304 when that level is already in
 * the requested state. // gitlab: lib/api/subscriptions.rb
 * @throws ApiError 404 `{"message":"404 Label Not Found"}`, 304 (no body).
 */
export function subscriptionFor(ctx: Ctx<unknown>, parent: LabelParent, ref: string, subscribe: boolean): LabelRecord {
  const label = findLabel(ctx, parent, ref, DEFAULT_FINDER_OPTIONS)
  const user = ctx.currentUser
  if (!user) throw unauthorized()
  const projectId = parent.type === 'project' ? parent.project.id : null
  if (subscribedAtLevel(ctx.db, label, user.id, projectId) === subscribe) throw notModified()
  setLabelSubscription(ctx.db, label, user.id, projectId, subscribe)
  return label
}

/**
 * `promote_label`: 400 when the project has no group, `admin_label` on the group (403), the label
 * among the project's own labels and its group's (404), 400 when it is not a project label, then
 * the promotion. // gitlab: lib/api/helpers/label_helpers.rb `promote_label`
 * @returns the group label and the group.
 */
export function promoteLabelFor(ctx: Ctx<unknown>, project: ProjectRecord, ref: string): { label: LabelRecord; group: GroupRecord } {
  const group = ctx.db.projectGroup(project)
  if (!group) throw apiMessage(400, ErrorMessage.promoteLabelFailed)
  authorizeAdminLabel(ctx, { type: 'group', group })
  const label = findLabel(ctx, { type: 'project', project }, ref, WRITE_FINDER_OPTIONS)
  if (label.project_id === null) throw apiMessage(400, ErrorMessage.promoteLabelFailed)
  return { label: promoteLabel(ctx.db, group, label, ctx.now), group }
}
