/**
 * The deployments part of the scenario format: `deployments:` of projects, each to one of the
 * project's `environments:` by name, loaded into `deployments` (iids per project, as GitLab's
 * `has_internal_id`; made through the API: no job). Source: issue 36 item 3.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { items } from '../../scenario/entries.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { DEPLOYMENT_STATUSES } from './deployments.tables.js'

const deploymentSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  iid: z.number().int().positive().optional().describe("Per-project number (`iid`); the project's next one when absent."),
  environment: z.string().min(1).describe("Name of one of the project's `environments:` it deploys to (\"production\")."),
  ref: z.string().min(1).describe('Branch or tag deployed ("main").'),
  tag: z.boolean().default(false).describe('Whether `ref` is a tag. Default false.'),
  sha: z.string().min(1).describe('Commit deployed (40 hex digits; GitLab 13.12 does not check that it exists).'),
  user: z.string().nullable().default(null).describe('Username of who deployed; null = nobody. Default null.'),
  status: z.enum(DEPLOYMENT_STATUSES as [string, ...string[]]).default('success').describe('created, running, success (default), failed, canceled or skipped.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant; created_at when absent.'),
})

const fields = { deployments: z.array(deploymentSchema).default([]).describe('Deployments of the project made through the API (GET /projects/:id/deployments); each to one of its environments.') }

/** The `deployments` field of projects, as parsed. */
export type DeploymentFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends DeploymentFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The deployments fragment (see the module comment). */
export const deploymentFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'deployments', field: 'deployments', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      const envs = new Set(items(project, 'environments').map((e) => (e.value as { name?: unknown }).name))
      for (const deployment of items(project, 'deployments')) {
        const { environment, user } = deployment.value as { environment?: unknown; user?: unknown }
        if (typeof environment === 'string' && !envs.has(environment)) ctx.report(at(deployment, 'environment'), `unknown environment "${environment}" (not one of the project's environments)`)
        if (user !== undefined && user !== null) ctx.checkUser(at(deployment, 'user'), user)
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      let iid = 0
      project.deployments.forEach((d, i) => {
        const env = project.environments.find((e) => e.name === d.environment)
        if (!env) return
        iid = d.iid ?? iid + 1
        const f = ctx.fake(`deployment:${parent.key}:${i}`)
        const times = ctx.timestamps(f, d, parent.createdAt)
        const finished = d.status === 'success' || d.status === 'failed' || d.status === 'canceled'
        ctx.stage('deployments', {
          id: ctx.idOf(d), iid, project_id: parent.id, environment_id: ctx.idOf(env), ref: d.ref, tag: d.tag, sha: d.sha,
          user_id: d.user === null ? null : ctx.userId(d.user), deployable_id: null, status: d.status as never, ...times, finished_at: finished ? times.updated_at : null,
        })
      })
    },
  },
}
