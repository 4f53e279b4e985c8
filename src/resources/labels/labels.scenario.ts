/**
 * The labels area's part of the scenario format: `labels:` of groups and projects, their
 * subscribers, and project label priorities; loaded into `labels`, `subscriptions` and
 * `label_priorities`. A label's `name` is its title: unique in its group or project and among the
 * ancestor groups' labels, with no commas. Source: STYLE.md §10; gitlab-behaviour.md §12.
 * @module
 */
import { z } from 'zod'
import { DEFAULT_LABEL_COLOR, isValidColor } from './label-basic.js'
import { normalizeColor } from './color.js'
import { items, list } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { idSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import type { LabelRecord } from './labels.tables.js'

/**
 * A label colour: `#RGB`, `#RRGGBB` or a CSS colour keyword; output is what GitLab stores
 * (`normalizeColor`: `orange` → `#FFA500`, hex kept as given). Quote hex colours in YAML: an
 * unquoted `#` starts a comment. `constructor` and its kin are no colour keywords (the
 * keyword table is a Map).
 */
const colorSchema = z
  .string()
  .transform(normalizeColor)
  .refine(isValidColor, {
    error: (issue) => `must be a valid color code (#RGB, #RRGGBB or a CSS colour name); got ${JSON.stringify(issue.input)}`,
  })

/**
 * A group label. `name` is the label's title (unique per group and its ancestors; no commas);
 * `color` defaults to `#428BCA`; `subscribers` are usernames (`subscriptions` rows).
 */
const groupLabelSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .refine((s) => !s.includes(','), { error: 'must not contain a comma' }).describe('The label\'s title: unique in its group or project and among its ancestor groups\' labels, no commas.'),
  color: colorSchema.default(DEFAULT_LABEL_COLOR).describe('#RGB, #RRGGBB or a CSS colour name (quote hex colours in YAML). Default #428BCA.'),
  description: z.string().nullable().default(null).describe('Description; absent or null = none.'),
  subscribers: z.array(pathSchema).default([]).describe('Usernames of the users subscribed to the label.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

/** A project label: a group label plus an optional `priority` (integer ≥ 0, a `label_priorities` row). */
const projectLabelSchema = groupLabelSchema.extend({
  priority: z.int().nonnegative().optional().describe('Label priority in the project (0 or more; lower is higher); absent = not prioritized.'),
})

/** A group or project label, as parsed (project labels may carry `priority`). */
export type ScenarioLabel = z.output<typeof projectLabelSchema>

const groupFields = { labels: z.array(groupLabelSchema).default([]).describe('Labels of this group (inherited by its subgroups and projects).') }
const projectFields = { labels: z.array(projectLabelSchema).default([]).describe('Labels of this project.') }

/** The `labels` field of groups, as parsed. */
export type GroupLabelFields = FieldsOutput<typeof groupFields>
/** The `labels` field of projects, as parsed. */
export type ProjectLabelFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends GroupLabelFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface ScenarioProject extends ProjectLabelFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

/** Stages the labels of one group or project and inserts their subscriptions. */
function loadLabels(ctx: LoadContext, parent: LoadParent, labels: readonly ScenarioLabel[]): void {
  for (const l of labels) {
    const f = ctx.fake(`label:${parent.key}:${l.name}`)
    const record: LabelRecord = {
      id: ctx.idOf(l),
      title: l.name,
      color: l.color,
      description: l.description,
      project_id: parent.type === 'project' ? parent.id : null,
      group_id: parent.type === 'group' ? parent.id : null,
      ...ctx.timestamps(f, l, parent.createdAt),
    }
    ctx.stage('labels', record)
    for (const subscriber of l.subscribers) {
      ctx.db.tables.subscriptions.insert({
        user_id: ctx.userId(subscriber),
        subscribable_type: 'Label',
        subscribable_id: record.id,
        project_id: parent.type === 'project' ? parent.id : null,
        subscribed: true,
      })
    }
  }
}

/** The labels fragment (see the module comment). */
export const labelFragment: ScenarioFragment = {
  fields: { group: groupFields, project: projectFields },
  collections: [{ table: 'labels', field: 'labels', on: ['group', 'project'] }],
  titles: [{ field: 'labels', key: 'name', noun: 'label', trim: true, uniqueWithAncestors: true }],
  nullHints: { color: 'is empty; quote hex colours ("#D9534F"): an unquoted # starts a YAML comment' },
  check(ctx) {
    for (const owner of [...ctx.index.groupsInOrder(), ...ctx.model.project]) {
      for (const label of items(owner, 'labels')) {
        for (const [subscriber, j] of list(label.value.subscribers)) ctx.checkUser(at(label, 'subscribers', j), subscriber)
      }
    }
  },
  load: {
    group: (ctx, group, parent) => loadLabels(ctx, parent, group.labels),
    project(ctx, project, parent) {
      loadLabels(ctx, parent, project.labels)
      for (const label of project.labels) {
        if (label.priority === undefined) continue
        ctx.db.tables.label_priorities.insert({ project_id: parent.id, label_id: ctx.idOf(label), priority: label.priority })
      }
    },
  },
}
