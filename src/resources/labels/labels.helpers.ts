/**
 * The request flows the project and group label routes share, in GitLab's order of checks:
 * create, update, delete, subscribe and promote (GitLab's label_helpers.rb).
 * Source: api-spec.md "### Labels", "Label subscription"; gitlab-behaviour.md §12.3–12.5;
 * gitlab: lib/api/helpers/label_helpers.rb, lib/api/subscriptions.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { apiMessage, conflict, notModified, unauthorized } from '../../core/errors.js'
import { LabelMessage } from './labels.messages.js'
import type { Ctx } from '../../core/route.js'
import type { Source } from '../../rules/source.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { availableLabels, DEFAULT_FINDER_OPTIONS, findLabel, WRITE_FINDER_OPTIONS } from './labels.finder.js'
import { authorizeAdminLabel } from './labels.policy.js'
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
import type { LabelRecord } from './labels.tables.js'

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
export function createLabelFor(ctx: Ctx<unknown>, parent: Source, params: CreateLabelParams): LabelRecord {
  authorizeAdminLabel(ctx, parent)
  if (availableLabels(ctx, parent, DEFAULT_FINDER_OPTIONS).some((l) => l.title === params.name)) {
    throw conflict(LabelMessage.exists)
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
  parent: Source,
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
export function deleteLabelFor(ctx: Ctx<unknown>, parent: Source, ref: string | number): void {
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
export function subscriptionFor(ctx: Ctx<unknown>, parent: Source, ref: string, subscribe: boolean): LabelRecord {
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
  if (!group) throw apiMessage(400, LabelMessage.promoteFailed)
  authorizeAdminLabel(ctx, { type: 'group', group })
  const label = findLabel(ctx, { type: 'project', project }, ref, WRITE_FINDER_OPTIONS)
  if (label.project_id === null) throw apiMessage(400, LabelMessage.promoteFailed)
  return { label: promoteLabel(ctx.db, group, label, ctx.now), group }
}
