/**
 * Project labels: list, get, create, update, delete, promote, subscribe and unsubscribe, plus the
 * deprecated forms that name the label in the parameters (`PUT`/`DELETE /projects/:id/labels`,
 * `PUT /projects/:id/labels/promote`). Every route needs a signed-in user (`before { authenticate! }`).
 * Source: api-spec.md "### Labels", "Label (project and group)", "Label subscription";
 * gitlab-behaviour.md §12; gitlab: lib/api/labels.rb, lib/api/subscriptions.rb.
 * @module
 */
import { findProject } from '../../core/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { GroupLabel, ProjectLabel } from '../../entities/label.js'
import {
  availableLabels,
  createLabelFor,
  deleteLabelFor,
  findLabel,
  promoteLabelFor,
  subscriptionFor,
  updateLabelFor,
  type LabelParent,
} from './labels.helpers.js'

const id = p.string({ required: true })
const labelId = p.string({ required: true })

/** The fields a project label update may change (`project_label_update_params`). */
const updateParams = {
  new_name: p.string(),
  color: p.string(),
  description: p.string(),
  // `allow_blank: true`: a blank or null priority reaches the handler and removes the priority.
  priority: p.integer({ nullable: true }),
}
const updateRule = ['new_name', 'color', 'description', 'priority']

function projectParent(ctx: Ctx<unknown>, projectId: string): { project: ProjectRecord; parent: LabelParent } {
  const project = findProject(ctx, projectId)
  return { project, parent: { type: 'project', project } }
}

/** Project label routes. */
export const projectLabelRoutes: Route[] = [
  route('GET /projects/:id/labels', {
    params: {
      id,
      with_counts: p.boolean({ default: false }),
      include_ancestor_groups: p.boolean({ default: true }),
      search: p.string(),
      ...paginationParams,
    },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      const labels = availableLabels(ctx, parent, {
        includeAncestorGroups: ctx.params.include_ancestor_groups,
        search: ctx.params.search,
      })
      return paginated(ctx, labels, (label) => ProjectLabel(label, ctx, project, { withCounts: ctx.params.with_counts }))
    },
  }),

  route('GET /projects/:id/labels/:label_id', {
    params: { id, label_id: labelId, include_ancestor_groups: p.boolean({ default: true }) },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      const label = findLabel(ctx, parent, ctx.params.label_id, { includeAncestorGroups: ctx.params.include_ancestor_groups })
      return ok(ProjectLabel(label, ctx, project))
    },
  }),

  route('POST /projects/:id/labels', {
    params: {
      id,
      name: p.string({ required: true }),
      color: p.string({ required: true }),
      description: p.string(),
      priority: p.integer(),
    },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      const label = createLabelFor(ctx, parent, ctx.params)
      return created(ProjectLabel(label, ctx, project))
    },
  }),

  route('PUT /projects/:id/labels/:label_id', {
    params: { id, label_id: labelId, ...updateParams },
    rules: { atLeastOneOf: updateRule },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      const label = updateLabelFor(ctx, parent, ctx.params.label_id, ctx.params)
      return ok(ProjectLabel(label, ctx, project))
    },
  }),

  // Deprecated since 12.4: the label is named by `label_id` or `name` in the parameters.
  route('PUT /projects/:id/labels', {
    params: { id, label_id: p.integer(), name: p.string(), ...updateParams },
    rules: { exactlyOneOf: ['label_id', 'name'], atLeastOneOf: updateRule },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      const label = updateLabelFor(ctx, parent, ctx.params.label_id ?? ctx.params.name ?? '', ctx.params)
      return ok(ProjectLabel(label, ctx, project))
    },
  }),

  route('DELETE /projects/:id/labels/:label_id', {
    params: { id, label_id: labelId },
    handler(ctx) {
      const { parent } = projectParent(ctx, ctx.params.id)
      deleteLabelFor(ctx, parent, ctx.params.label_id)
      return noContent()
    },
  }),

  // Deprecated since 12.4.
  route('DELETE /projects/:id/labels', {
    params: { id, label_id: p.integer(), name: p.string() },
    rules: { exactlyOneOf: ['label_id', 'name'] },
    handler(ctx) {
      const { parent } = projectParent(ctx, ctx.params.id)
      deleteLabelFor(ctx, parent, ctx.params.label_id ?? ctx.params.name ?? '')
      return noContent()
    },
  }),

  route('PUT /projects/:id/labels/:label_id/promote', {
    params: { id, label_id: labelId },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const { label } = promoteLabelFor(ctx, project, ctx.params.label_id)
      return ok(GroupLabel(label, ctx))
    },
  }),

  // Deprecated since 12.4: the label's title in `name`.
  route('PUT /projects/:id/labels/promote', {
    params: { id, name: p.string({ required: true }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const { label } = promoteLabelFor(ctx, project, ctx.params.name)
      return ok(GroupLabel(label, ctx))
    },
  }),

  route('POST /projects/:id/labels/:label_id/subscribe', {
    params: { id, label_id: labelId },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      return created(ProjectLabel(subscriptionFor(ctx, parent, ctx.params.label_id, true), ctx, project))
    },
  }),

  route('POST /projects/:id/labels/:label_id/unsubscribe', {
    params: { id, label_id: labelId },
    handler(ctx) {
      const { project, parent } = projectParent(ctx, ctx.params.id)
      return created(ProjectLabel(subscriptionFor(ctx, parent, ctx.params.label_id, false), ctx, project))
    },
  }),
]
