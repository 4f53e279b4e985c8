/**
 * The milestones part of the scenario format: `milestones:` of groups and projects, loaded into
 * `milestones`. A milestone's `title` is unique per parent; `iid` is allocated per parent when
 * absent; `start_date` must not be after `due_date`. Source: STYLE.md §10; gitlab-behaviour.md §9.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { dateSchema, idSchema, iidSchema, timestampSchema } from '../../scenario/scalars.js'
import type { MilestoneRecord } from './milestones.tables.js'

/** A milestone of a group or project. */
const milestoneSchema = z
  .strictObject({
    id: idSchema.optional(),
    iid: iidSchema.optional(),
    title: z.string().min(1, { error: 'must not be empty' }),
    description: z.string().default(''),
    /** Default `active`. */
    state: z.enum(['active', 'closed']).default('active'),
    due_date: dateSchema.nullable().optional(),
    start_date: dateSchema.nullable().optional(),
    created_at: timestampSchema.optional(),
    updated_at: timestampSchema.optional(),
  })
  .refine((m) => !m.start_date || !m.due_date || m.start_date <= m.due_date, {
    path: ['due_date'],
    error: 'must not be before start_date',
  })

/** A group or project milestone, as parsed. */
export type ScenarioMilestone = z.output<typeof milestoneSchema>

const fields = { milestones: z.array(milestoneSchema).default([]) }

/** The `milestones` field of groups and projects, as parsed. */
export type MilestoneFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends MilestoneFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof fields> {}
  interface ScenarioProject extends MilestoneFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

function loadMilestones(ctx: LoadContext, parent: LoadParent, milestones: readonly ScenarioMilestone[]): void {
  const iids = ctx.iids('milestones', parent, milestones)
  milestones.forEach((m, i) => {
    const f = ctx.fake(`milestone:${parent.key}:${m.title}`)
    const record: MilestoneRecord = {
      id: ctx.idOf(m),
      iid: iids[i]!,
      title: m.title,
      description: m.description,
      state: m.state,
      due_date: m.due_date ?? null,
      start_date: m.start_date ?? null,
      group_id: parent.type === 'group' ? parent.id : null,
      project_id: parent.type === 'project' ? parent.id : null,
      ...ctx.timestamps(f, m, parent.createdAt),
    }
    ctx.stage('milestones', record)
  })
}

/** The milestones fragment (see the module comment). */
export const milestoneFragment: ScenarioFragment = {
  fields: { group: fields, project: fields },
  collections: [{ table: 'milestones', field: 'milestones', on: ['group', 'project'], iid: 'milestones' }],
  titles: [{ field: 'milestones', key: 'title', noun: 'milestone' }],
  load: {
    group: (ctx, group, parent) => loadMilestones(ctx, parent, group.milestones),
    project: (ctx, project, parent) => loadMilestones(ctx, parent, project.milestones),
  },
}
