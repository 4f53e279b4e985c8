/**
 * Project and group labels from one definition, looped over the source type as GitLab's
 * members.rb does: list, get, create, update, delete, subscribe and unsubscribe, plus the
 * deprecated forms that name the label in the parameters (`PUT`/`DELETE …/labels`). Promotion,
 * which only project labels have, comes after the loop. Every route needs a signed-in user
 * (`before { authenticate! }`).
 * Source: api-spec.md "### Labels", "Label (project and group)", "Label subscription";
 * gitlab-behaviour.md §12; gitlab: lib/api/labels.rb, lib/api/group_labels.rb, lib/api/subscriptions.rb.
 * @module
 */
import { findProject } from '../../rules/finders.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { SOURCE_TYPES, SOURCES, type Source } from '../../rules/source.js'
import { GroupLabel, presentLabel } from './labels.entities.js'
import { labelFacts } from './labels.facts.js'
import { availableLabels, findLabel, type LabelFinderOptions } from './labels.finder.js'
import { createLabelFor, deleteLabelFor, promoteLabelFor, subscriptionFor, updateLabelFor } from './labels.helpers.js'
import type { LabelRecord } from './labels.tables.js'

const id = p.string({ required: true })
const labelId = p.string({ required: true })

/** What differs between the project and the group routes, by source type. */
const TWIN = {
  project: {
    /** No finder switches besides `include_ancestor_groups`. */
    scope: {},
    /** `priority` on create (a `label_priorities` row). */
    create: { priority: p.integer() },
    /** `project_label_update_params`: a blank or null `priority` (`allow_blank`) removes the priority. */
    update: { new_name: p.string(), color: p.string(), description: p.string(), priority: p.integer({ nullable: true }) },
    /** Deprecated `DELETE`: the label by `label_id` or `name`. */
    deleteByName: { params: { label_id: p.integer(), name: p.string() }, rules: { exactlyOneOf: ['label_id', 'name'] } },
  },
  group: {
    /** The finder switches of the group reads (13.6+). */
    scope: { include_descendant_groups: p.boolean({ default: false }), only_group_labels: p.boolean({ default: true }) },
    create: {},
    /** `group_label_update_params`. */
    update: { new_name: p.string(), color: p.string(), description: p.string() },
    /** Deprecated `DELETE`: only `name` (no `label_id`, unlike the project form). */
    deleteByName: { params: { name: p.string({ required: true }) }, rules: {} },
  },
}

/** The `LabelsFinder` options a read's declared params ask for. */
function finderOptions(params: {
  include_ancestor_groups: boolean
  include_descendant_groups?: boolean
  only_group_labels?: boolean
  search?: string
}): LabelFinderOptions {
  return {
    includeAncestorGroups: params.include_ancestor_groups,
    includeDescendantGroups: params.include_descendant_groups,
    onlyGroupLabels: params.only_group_labels,
    search: params.search,
  }
}

/** The label a deprecated form names: `label_id`, else `name`. */
function labelRef(params: { label_id?: number; name?: string }): string | number {
  return params.label_id ?? params.name ?? ''
}

/** One label as a route answers with it, seen through `parent`. */
function present(ctx: Ctx<unknown>, parent: Source, label: LabelRecord) {
  return presentLabel(label, ctx, parent, labelFacts(ctx, parent, [label]))
}

/** Every label route. */
export const labelRoutes: Route[] = []

for (const sourceType of SOURCE_TYPES) {
  const source = SOURCES[sourceType]
  const twin = TWIN[sourceType]
  const labels = `${source.prefix}/labels`

  labelRoutes.push(
    route(`GET ${labels}`, {
      params: {
        id,
        with_counts: p.boolean({ default: false }),
        include_ancestor_groups: p.boolean({ default: true }),
        ...twin.scope,
        search: p.string(),
        ...paginationParams,
      },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        const page = paginate(ctx, availableLabels(ctx, parent, finderOptions(ctx.params)))
        // The facts (subscriptions, priorities, counts) of the whole page at once.
        const facts = labelFacts(ctx, parent, page.rows, ctx.params.with_counts)
        return ok(page.rows.map((label) => presentLabel(label, ctx, parent, facts)), page.headers)
      },
    }),

    route(`GET ${labels}/:label_id`, {
      params: { id, label_id: labelId, include_ancestor_groups: p.boolean({ default: true }), ...twin.scope },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return ok(present(ctx, parent, findLabel(ctx, parent, ctx.params.label_id, finderOptions(ctx.params))))
      },
    }),

    route(`POST ${labels}`, {
      params: { id, name: p.string({ required: true }), color: p.string({ required: true }), description: p.string(), ...twin.create },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return created(present(ctx, parent, createLabelFor(ctx, parent, ctx.params)))
      },
    }),

    route(`PUT ${labels}/:label_id`, {
      params: { id, label_id: labelId, ...twin.update },
      rules: { atLeastOneOf: Object.keys(twin.update) },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return ok(present(ctx, parent, updateLabelFor(ctx, parent, ctx.params.label_id, ctx.params)))
      },
    }),

    // Deprecated since 12.4: the label is named by `label_id` or `name` in the parameters.
    route(`PUT ${labels}`, {
      params: { id, label_id: p.integer(), name: p.string(), ...twin.update },
      rules: { exactlyOneOf: ['label_id', 'name'], atLeastOneOf: Object.keys(twin.update) },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return ok(present(ctx, parent, updateLabelFor(ctx, parent, labelRef(ctx.params), ctx.params)))
      },
    }),

    route(`DELETE ${labels}/:label_id`, {
      params: { id, label_id: labelId },
      handler(ctx) {
        deleteLabelFor(ctx, source.find(ctx, ctx.params.id), ctx.params.label_id)
        return noContent()
      },
    }),

    // Deprecated since 12.4.
    route(`DELETE ${labels}`, {
      params: { id, ...twin.deleteByName.params },
      rules: twin.deleteByName.rules,
      handler(ctx) {
        deleteLabelFor(ctx, source.find(ctx, ctx.params.id), labelRef(ctx.params))
        return noContent()
      },
    }),

    route(`POST ${labels}/:label_id/subscribe`, {
      params: { id, label_id: labelId },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return created(present(ctx, parent, subscriptionFor(ctx, parent, ctx.params.label_id, true)))
      },
    }),

    route(`POST ${labels}/:label_id/unsubscribe`, {
      params: { id, label_id: labelId },
      handler(ctx) {
        const parent = source.find(ctx, ctx.params.id)
        return created(present(ctx, parent, subscriptionFor(ctx, parent, ctx.params.label_id, false)))
      },
    }),
  )
}

// Project labels only: promotion to a label of the project's group, answered as a GroupLabel.
labelRoutes.push(
  route('PUT /projects/:id/labels/:label_id/promote', {
    params: { id, label_id: labelId },
    handler(ctx) {
      const { label, group } = promoteLabelFor(ctx, findProject(ctx, ctx.params.id), ctx.params.label_id)
      const parent: Source = { type: 'group', group }
      return ok(GroupLabel(label, ctx, labelFacts(ctx, parent, [label])))
    },
  }),

  // Deprecated since 12.4: the label's title in `name`.
  route('PUT /projects/:id/labels/promote', {
    params: { id, name: p.string({ required: true }) },
    handler(ctx) {
      const { label, group } = promoteLabelFor(ctx, findProject(ctx, ctx.params.id), ctx.params.name)
      const parent: Source = { type: 'group', group }
      return ok(GroupLabel(label, ctx, labelFacts(ctx, parent, [label])))
    },
  }),
)
