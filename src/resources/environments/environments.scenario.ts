/**
 * The environments part of the scenario format: `environments:` of projects, loaded into
 * `environments` (the slug generated as GitLab does, unless written). Source: issue 36 item 3.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { generateSlug } from './environments.service.js'

const environmentSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z.string().min(1).describe('Environment name ("production", "review/fix-login").'),
  slug: z.string().min(1).optional().describe('Its slug; generated from the name as GitLab does when absent.'),
  external_url: z.string().nullable().default(null).describe('Where it is deployed ("https://example.com"); null = none. Default null.'),
  state: z.enum(['available', 'stopped']).default('available').describe('available (default) or stopped.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant; created_at when absent.'),
})

const fields = { environments: z.array(environmentSchema).default([]).describe('Deployment environments of the project (GET /projects/:id/environments).') }

/** The `environments` field of projects, as parsed. */
export type EnvironmentFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends EnvironmentFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The environments fragment (see the module comment). */
export const environmentFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'environments', field: 'environments', on: ['project'] }],
  load: {
    project(ctx, project, parent) {
      project.environments.forEach((env, i) => {
        const f = ctx.fake(`environment:${parent.key}:${i}`)
        const slug = env.slug ?? generateSlug(env.name, f.string.fromCharacters('abcdefghijklmnopqrstuvwxyz0123456789', 6))
        ctx.stage('environments', { id: ctx.idOf(env), project_id: parent.id, name: env.name, slug, external_url: env.external_url, state: env.state, ...ctx.timestamps(f, env, parent.createdAt) })
      })
    },
  },
}
