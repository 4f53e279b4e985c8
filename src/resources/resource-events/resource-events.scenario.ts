/**
 * The resource events part of the scenario format: `resource_events:` of projects, the history of
 * an issue's or a merge request's labels, milestone and state before the simulation starts (what
 * the API writes from then on is recorded by the writes themselves). Each entry names its issuable
 * (`issue: <iid>` or `merge_request: <iid>` of this project) and exactly one change: `label:` a
 * title (of the project or its groups), `milestone:` a title, with `action` `add` (default) or
 * `remove`; or `state:` `closed`, `reopened` or `merged`. `user` defaults to the issuable's author,
 * `created_at` to a faker instant after the issuable's creation. A milestone event records the
 * issuable's current state.
 * Source: STYLE.md §10; issue 25 item 5; gitlab: app/models/resource_{label,milestone,state}_event.rb.
 * @module
 */
import { z } from 'zod'
import { items } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { issuableLabelIds, issuableMilestoneId } from '../../scenario/issuable.js'
import { at } from '../../scenario/problems.js'
import { iidSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import type { MilestoneEventState } from './resource-events.tables.js'

/** One past change of an issuable of the enclosing project. */
const eventSchema = z
  .strictObject({
    issue: iidSchema.optional().describe('The iid of an issue of this project (give issue or merge_request).'),
    merge_request: iidSchema.optional().describe('The iid of a merge request of this project (give issue or merge_request).'),
    label: z.string().min(1).optional().describe('A label event: the title of a label of this project or its groups (give one of label, milestone, state).'),
    milestone: z.string().min(1).optional().describe('A milestone event: the title of a milestone of this project or its groups.'),
    state: z.enum(['closed', 'reopened', 'merged']).optional().describe('A state event: closed, reopened or merged.'),
    action: z.enum(['add', 'remove']).default('add').describe('For label and milestone events: add or remove. Default add.'),
    user: pathSchema.optional().describe('Who made the change (username); the issuable\'s author when absent.'),
    created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker, after the issuable was created, when absent.'),
  })
  .refine((e) => (e.issue === undefined) !== (e.merge_request === undefined), { error: 'needs exactly one issuable: issue: <iid> or merge_request: <iid>' })
  .refine((e) => [e.label, e.milestone, e.state].filter((v) => v !== undefined).length === 1, { error: 'needs exactly one change: label, milestone or state' })

const fields = {
  resource_events: z.array(eventSchema).default([]).describe('Past label, milestone and state changes of this project\'s issues and merge requests, oldest first.'),
}

/** The `resource_events` field of projects, as parsed. */
export type ResourceEventFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends ResourceEventFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The iids a project's `field` records get: written ones, then the others numbered on past the highest. */
function allocatedIids(records: readonly { value: Record<string, unknown> }[]): Set<number> {
  const written = records.map((r) => r.value.iid).filter((iid): iid is number => typeof iid === 'number')
  let next = Math.max(0, ...written)
  return new Set([...written, ...records.filter((r) => typeof r.value.iid !== 'number').map(() => ++next)])
}

/** The resource events fragment (see the module comment). */
export const resourceEventFragment: ScenarioFragment = {
  fields: { project: fields },
  check(ctx) {
    for (const project of ctx.model.project) {
      const iids = { issue: allocatedIids(items(project, 'issues')), merge_request: allocatedIids(items(project, 'merge_requests')) }
      const namespace = ctx.index.namespace(project)
      const scopes = namespace ? [project, ...namespace.groups] : undefined
      for (const event of items(project, 'resource_events')) {
        ctx.checkUser(at(event, 'user'), event.value.user)
        for (const kind of ['issue', 'merge_request'] as const) {
          const iid = event.value[kind]
          if (typeof iid === 'number' && !iids[kind].has(iid)) ctx.report(at(event, kind), `unknown ${kind.replace('_', ' ')} ${kind === 'issue' ? '#' : '!'}${iid} (not in this project)`)
        }
        if (!scopes) continue
        for (const field of ['label', 'milestone'] as const) {
          const title = event.value[field]
          if (typeof title === 'string' && !ctx.index.findTitle(`${field}s`, scopes, title.trim())) ctx.report(at(event, field), `unknown ${field} "${title}" (not a ${field} of this project or its groups)`)
        }
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      if (project.resource_events.length === 0) return
      // Issues and merge requests are staged before this area loads (areas load in name order).
      const issues = ctx.stagedRows('issues').filter((row) => row.project_id === parent.id)
      const mergeRequests = ctx.stagedRows('merge_requests').filter((row) => row.project_id === parent.id)
      project.resource_events.forEach((event, i) => {
        const target = event.issue !== undefined ? issues.find((row) => row.iid === event.issue) : mergeRequests.find((row) => row.iid === event.merge_request)
        if (!target) throw new Error(`scenario: resource event target not found in ${parent.key}`)
        const f = ctx.fake(`resource_event:${parent.key}:${i}`)
        const owner = event.issue !== undefined ? { issue_id: target.id, merge_request_id: null } : { issue_id: null, merge_request_id: target.id }
        const common = { ...owner, user_id: event.user !== undefined ? ctx.userId(event.user) : target.author_id, created_at: event.created_at ?? ctx.between(f, target.created_at) }
        if (event.label !== undefined) {
          ctx.db.tables.resource_label_events.insert({ ...common, label_id: issuableLabelIds(ctx, parent, [event.label])[0]!, action: event.action })
        } else if (event.milestone !== undefined) {
          ctx.db.tables.resource_milestone_events.insert({ ...common, milestone_id: issuableMilestoneId(ctx, parent, event.milestone)!, action: event.action, state: target.state as MilestoneEventState })
        } else {
          ctx.db.tables.resource_state_events.insert({ ...common, state: event.state! })
        }
      })
    },
  },
}
