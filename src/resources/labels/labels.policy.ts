/**
 * The `admin_label` ability: who may create, change, delete and promote labels of a project or a
 * group. Source: gitlab-behaviour.md §12.3; gitlab: app/policies/project_policy.rb,
 * app/policies/group_policy.rb.
 * @module
 */
import { AccessLevel } from '../../rules/access.js'
import { forbidden } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import { hasSourceAccess, type Source } from '../../rules/source.js'
import type { LabelRecord } from './labels.tables.js'

/** The project or group a label belongs to. */
export function labelOwner(ctx: Ctx<unknown>, label: LabelRecord): Source | null {
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
export function canAdminLabels(ctx: Ctx<unknown>, parent: Source): boolean {
  if (parent.type === 'project' && parent.project.archived) return false
  return hasSourceAccess(ctx, parent, AccessLevel.REPORTER)
}

/**
 * `authorize! :admin_label, subject` for a parent or a label (a label is judged by its owner).
 * @throws ApiError 403 `{"message":"403 Forbidden"}`.
 */
export function authorizeAdminLabel(ctx: Ctx<unknown>, subject: Source | LabelRecord): void {
  const parent = 'type' in subject ? subject : labelOwner(ctx, subject)
  if (!parent || !canAdminLabels(ctx, parent)) throw forbidden()
}
