/**
 * The hooks part of the scenario format: `hooks:` of projects (project webhooks: URL, secret
 * token, the events they fire on, the push branch filter), loaded into `project_hooks`, and the
 * top-level `webhook_delivery:` (`live` or `paused`: held deliveries are logged, not sent, until
 * `PUT /-/fakelab/hooks/delivery {"paused": false}`). Source: issue 34 item 5;
 * gitlab: db/structure.sql `web_hooks` (column defaults).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { PROJECT_HOOK_EVENT_FLAGS, type ProjectHookFlag, type ProjectHookRecord } from './hooks.tables.js'

const flagSchemas = Object.fromEntries(PROJECT_HOOK_EVENT_FLAGS.map((flag) => [
  flag,
  z.boolean().default(flag === 'push_events').describe(`Fire on ${flag.replace(/_events$/, '').replace(/_/g, ' ')} events. Default ${flag === 'push_events'}.`),
])) as Record<ProjectHookFlag, z.ZodDefault<z.ZodBoolean>>

/** A project webhook. */
const hookSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  url: z.url({ protocol: /^https?$/ }).describe('Where events are POSTed (http or https), e.g. http://127.0.0.1:8080/hook.'),
  token: z.string().optional().describe('Secret token sent as X-Gitlab-Token; never shown by the API.'),
  enable_ssl_verification: z.boolean().default(true).describe('Verify the receiver\'s TLS certificate (stored and shown; fakelab\'s fetch always verifies). Default true.'),
  push_events_branch_filter: z.string().optional().describe('Branch name or wildcard (release/*) push events are limited to.'),
  ...flagSchemas,
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const fields = { hooks: z.array(hookSchema).default([]).describe('Project webhooks (GET /projects/:id/hooks); fakelab POSTs their events.') }

const rootFields = {
  webhook_delivery: z.enum(['live', 'paused']).default('live').describe('live: webhook events are POSTed after the request that caused them; paused: they are logged (GET /-/fakelab/hooks/deliveries) and held until delivery resumes.'),
}

/** The `hooks` field of projects, as parsed. */
export type HookFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends HookFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The hooks fragment (see the module comment). */
export const hookFragment: ScenarioFragment = {
  root: rootFields,
  fields: { project: fields },
  collections: [{ table: 'project_hooks', field: 'hooks', on: ['project'] }],
  load: {
    project(ctx, project, parent) {
      project.hooks.forEach((hook, i) => {
        const f = ctx.fake(`project_hook:${parent.key}:${i}`)
        const { created_at } = ctx.timestamps(f, hook, parent.createdAt)
        const record: ProjectHookRecord = {
          id: ctx.idOf(hook),
          project_id: parent.id,
          url: hook.url,
          token: hook.token ?? null,
          enable_ssl_verification: hook.enable_ssl_verification,
          repository_update_events: false,
          push_events_branch_filter: hook.push_events_branch_filter ?? null,
          ...Object.fromEntries(PROJECT_HOOK_EVENT_FLAGS.map((flag) => [flag, hook[flag]])) as Record<ProjectHookFlag, boolean>,
          created_at,
          updated_at: created_at,
        }
        ctx.stage('project_hooks', record)
      })
    },
    root(ctx, scenario) {
      if ((scenario as { webhook_delivery?: string }).webhook_delivery === 'paused') ctx.db.tables.web_hook_delivery.insert({ id: 1, paused: true })
    },
  },
}
