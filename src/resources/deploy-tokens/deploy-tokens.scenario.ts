/**
 * The deploy tokens part of the scenario format: `deploy_tokens:` of groups and projects (a name,
 * the secret, scopes, an optional username, expiry and revocation), loaded into `deploy_tokens`.
 * gitlab: app/models/deploy_token.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { DEPLOY_TOKEN_SCOPES, type DeployTokenRecord } from './deploy-tokens.tables.js'

const deployTokenSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z.string().min(1).max(255).describe('The token\'s name.'),
  token: z.string().min(1).describe('The secret a client sends as the Deploy-Token header or as the password of HTTP basic auth.'),
  username: z.string().regex(/^[a-zA-Z0-9.+_-]+$/).max(255).optional().describe('The username of basic auth; gitlab+deploy-token-<id> when absent.'),
  scopes: z.array(z.enum(DEPLOY_TOKEN_SCOPES)).min(1).describe('Its scopes: read_repository, read_registry, write_registry, read_package_registry, write_package_registry.'),
  expires_at: timestampSchema.optional().describe('An ISO 8601 instant from which it no longer authenticates; never when absent.'),
  revoked: z.boolean().default(false).describe('A revoked token no longer authenticates. Default false.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const fields = { deploy_tokens: z.array(deployTokenSchema).default([]).describe('Deploy tokens held by this group or project (GET /groups/:id/deploy_tokens, /projects/:id/deploy_tokens).') }

/** The `deploy_tokens` field of groups and projects, as parsed. */
export type DeployTokenFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends DeployTokenFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof fields> {}
  interface ScenarioProject extends DeployTokenFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** Stages the deploy tokens of one group or project. */
function loadDeployTokens(ctx: LoadContext, parent: LoadParent, tokens: DeployTokenFields['deploy_tokens']): void {
  tokens.forEach((t, i) => {
    const f = ctx.fake(`deploy_token:${parent.key}:${i}`)
    const record: DeployTokenRecord = {
      id: ctx.idOf(t),
      name: t.name,
      username: t.username ?? null,
      token: t.token,
      scopes: DEPLOY_TOKEN_SCOPES.filter((s) => t.scopes.includes(s)),
      expires_at: t.expires_at ?? null,
      revoked: t.revoked,
      project_id: parent.type === 'project' ? parent.id : null,
      group_id: parent.type === 'group' ? parent.id : null,
      creator_id: null,
      created_at: ctx.timestamps(f, t, parent.createdAt).created_at,
    }
    ctx.stage('deploy_tokens', record)
  })
}

/** The deploy tokens fragment (see the module comment). */
export const deployTokenFragment: ScenarioFragment = {
  fields: { group: fields, project: fields },
  collections: [{ table: 'deploy_tokens', field: 'deploy_tokens', on: ['group', 'project'] }],
  load: {
    group: (ctx, group, parent) => loadDeployTokens(ctx, parent, group.deploy_tokens),
    project: (ctx, project, parent) => loadDeployTokens(ctx, parent, project.deploy_tokens),
  },
}
