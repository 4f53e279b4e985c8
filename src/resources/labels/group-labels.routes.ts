/**
 * Group labels: list, get, create, update, delete, subscribe and unsubscribe, plus the deprecated
 * forms that name the label in the parameters (`PUT`/`DELETE /groups/:id/labels`). Every route
 * needs a signed-in user (`before { authenticate! }`).
 * Source: api-spec.md "### Labels", "Label (project and group)", "Label subscription";
 * gitlab-behaviour.md §12; gitlab: lib/api/group_labels.rb, lib/api/subscriptions.rb.
 * @module
 */
import { findGroup } from '../../core/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { GroupLabel } from '../../entities/label.js'
import {
  availableLabels,
  createLabelFor,
  deleteLabelFor,
  findLabel,
  subscriptionFor,
  updateLabelFor,
  type LabelParent,
} from './labels.helpers.js'

const id = p.string({ required: true })
const labelId = p.string({ required: true })

/** The fields a group label update may change (`group_label_update_params`). */
const updateParams = { new_name: p.string(), color: p.string(), description: p.string() }
const updateRule = ['new_name', 'color', 'description']

/** The finder switches of the group reads (13.6+). */
const scopeParams = {
  include_ancestor_groups: p.boolean({ default: true }),
  include_descendant_groups: p.boolean({ default: false }),
  only_group_labels: p.boolean({ default: true }),
}

function groupParent(ctx: Ctx<unknown>, groupId: string): LabelParent {
  return { type: 'group', group: findGroup(ctx, groupId) }
}

/** Group label routes. */
export const groupLabelRoutes: Route[] = [
  route('GET /groups/:id/labels', {
    params: { id, with_counts: p.boolean({ default: false }), ...scopeParams, search: p.string(), ...paginationParams },
    handler(ctx) {
      const parent = groupParent(ctx, ctx.params.id)
      const labels = availableLabels(ctx, parent, {
        includeAncestorGroups: ctx.params.include_ancestor_groups,
        includeDescendantGroups: ctx.params.include_descendant_groups,
        onlyGroupLabels: ctx.params.only_group_labels,
        search: ctx.params.search,
      })
      return paginated(ctx, labels, (label) => GroupLabel(label, ctx, { withCounts: ctx.params.with_counts }))
    },
  }),

  route('GET /groups/:id/labels/:label_id', {
    params: { id, label_id: labelId, ...scopeParams },
    handler(ctx) {
      const parent = groupParent(ctx, ctx.params.id)
      const label = findLabel(ctx, parent, ctx.params.label_id, {
        includeAncestorGroups: ctx.params.include_ancestor_groups,
        includeDescendantGroups: ctx.params.include_descendant_groups,
        onlyGroupLabels: ctx.params.only_group_labels,
      })
      return ok(GroupLabel(label, ctx))
    },
  }),

  route('POST /groups/:id/labels', {
    params: { id, name: p.string({ required: true }), color: p.string({ required: true }), description: p.string() },
    handler(ctx) {
      const label = createLabelFor(ctx, groupParent(ctx, ctx.params.id), ctx.params)
      return created(GroupLabel(label, ctx))
    },
  }),

  route('PUT /groups/:id/labels/:label_id', {
    params: { id, label_id: labelId, ...updateParams },
    rules: { atLeastOneOf: updateRule },
    handler(ctx) {
      const label = updateLabelFor(ctx, groupParent(ctx, ctx.params.id), ctx.params.label_id, ctx.params)
      return ok(GroupLabel(label, ctx))
    },
  }),

  // Deprecated since 12.4: the label is named by `label_id` or `name` in the parameters.
  route('PUT /groups/:id/labels', {
    params: { id, label_id: p.integer(), name: p.string(), ...updateParams },
    rules: { exactlyOneOf: ['label_id', 'name'], atLeastOneOf: updateRule },
    handler(ctx) {
      const ref = ctx.params.label_id ?? ctx.params.name ?? ''
      const label = updateLabelFor(ctx, groupParent(ctx, ctx.params.id), ref, ctx.params)
      return ok(GroupLabel(label, ctx))
    },
  }),

  route('DELETE /groups/:id/labels/:label_id', {
    params: { id, label_id: labelId },
    handler(ctx) {
      deleteLabelFor(ctx, groupParent(ctx, ctx.params.id), ctx.params.label_id)
      return noContent()
    },
  }),

  // Deprecated since 12.4: only `name` (unlike the project form, no `label_id`).
  route('DELETE /groups/:id/labels', {
    params: { id, name: p.string({ required: true }) },
    handler(ctx) {
      deleteLabelFor(ctx, groupParent(ctx, ctx.params.id), ctx.params.name)
      return noContent()
    },
  }),

  route('POST /groups/:id/labels/:label_id/subscribe', {
    params: { id, label_id: labelId },
    handler(ctx) {
      return created(GroupLabel(subscriptionFor(ctx, groupParent(ctx, ctx.params.id), ctx.params.label_id, true), ctx))
    },
  }),

  route('POST /groups/:id/labels/:label_id/unsubscribe', {
    params: { id, label_id: labelId },
    handler(ctx) {
      return created(GroupLabel(subscriptionFor(ctx, groupParent(ctx, ctx.params.id), ctx.params.label_id, false), ctx))
    },
  }),
]
