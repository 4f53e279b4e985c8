/**
 * The deploy keys part of the scenario format: `deploy_keys:` of projects (a title, an OpenSSH
 * public key line, `can_push`), loaded into `keys` (type `DeployKey`) and `deploy_keys_projects`;
 * the same key line in two projects is one key enabled in both.
 * gitlab: app/models/deploy_key.rb, app/models/deploy_keys_project.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { items } from '../../scenario/entries.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { parseSshPublicKey } from '../../rules/ssh-public-key.js'

const deployKeySchema = z.strictObject({
  id: idSchema.optional().describe('The key\'s record id (GET /projects/:id/deploy_keys/:key_id); the next free one when absent.'),
  title: z.string().min(1).max(255).describe('The key\'s title.'),
  key: z.string().min(1).describe('An OpenSSH public key line: ssh-rsa, ssh-dss, ecdsa-sha2-nistp256/384/521 or ssh-ed25519, its base64 blob and a comment.'),
  can_push: z.boolean().default(false).describe('Whether the key may push to this project\'s repository. Default false.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const fields = { deploy_keys: z.array(deployKeySchema).default([]).describe('Deploy keys enabled in this project (GET /projects/:id/deploy_keys).') }

/** The `deploy_keys` field of projects, as parsed. */
export type DeployKeyFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends DeployKeyFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The deploy keys fragment (see the module comment). */
export const deployKeyFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'keys', field: 'deploy_keys', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      for (const key of items(project, 'deploy_keys')) {
        if (typeof key.value.key === 'string' && !parseSshPublicKey(key.value.key)) ctx.report(at(key, 'key'), 'is no valid OpenSSH public key (ssh-rsa, ssh-dss, ecdsa-sha2-*, ssh-ed25519)')
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      project.deploy_keys.forEach((k, i) => {
        const parsed = parseSshPublicKey(k.key)!
        const text = k.key.trim().split(/\s+/).slice(0, 3).join(' ')
        const f = ctx.fake(`deploy_key:${parent.key}:${i}`)
        const { created_at } = ctx.timestamps(f, k, parent.createdAt)
        const existing = ctx.db.tables.keys.where('fingerprint', parsed.fingerprint)[0]
        const key = existing ?? ctx.db.tables.keys.insert({
          id: ctx.idOf(k),
          user_id: null,
          type: 'DeployKey',
          title: k.title,
          key: text,
          fingerprint: parsed.fingerprint,
          fingerprint_sha256: parsed.fingerprintSha256,
          public: false,
          expires_at: null,
          created_at,
          updated_at: created_at,
        })
        ctx.db.tables.deploy_keys_projects.insert({ deploy_key_id: key.id, project_id: parent.id, can_push: k.can_push, created_at, updated_at: created_at })
      })
    },
  },
}
