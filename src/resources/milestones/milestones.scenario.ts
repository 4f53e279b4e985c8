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
    id: idSchema.optional().describe('Record id; the next free one when absent.'),
    iid: iidSchema.optional().describe('Number within the group or project; the next free one when absent.'),
    title: z.string().min(1, { error: 'must not be empty' }).describe('Title, unique within the group or project; issues and merge requests name it in milestone:.'),
    description: z.string().default('').describe('Description (Markdown). Default empty.'),
    /** Default `active`. */
    state: z.enum(['active', 'closed']).default('active').describe('active or closed. Default active.'),
    due_date: dateSchema.nullable().optional().describe('YYYY-MM-DD, not before start_date; absent or null = none.'),
    start_date: dateSchema.nullable().optional().describe('YYYY-MM-DD; absent or null = none.'),
    created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
    updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  })
  .refine((m) => !m.start_date || !m.due_date || m.start_date <= m.due_date, {
    path: ['due_date'],
    error: 'must not be before start_date',
  })

/** A group or project milestone, as parsed. */
export type ScenarioMilestone = z.output<typeof milestoneSchema>

const fields = { milestones: z.array(milestoneSchema).default([]).describe('Milestones of this group or project.') }

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
