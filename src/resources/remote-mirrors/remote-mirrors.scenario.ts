/**
 * The remote mirrors part of the scenario format: `remote_mirrors:` of projects, loaded into
 * `remote_mirrors`. Source: STYLE.md §10; gitlab: app/models/remote_mirror.rb (13.12).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { mirrorUrlProblem } from './remote-mirrors.service.js'
import { UPDATE_STATUSES, type RemoteMirrorRecord } from './remote-mirrors.tables.js'

const urlSchema = z.string().refine((url) => mirrorUrlProblem(url) === undefined, {
  error: (issue) => `must be a public ssh, git, http or https URL (${mirrorUrlProblem(String(issue.input))})`,
})

/** A push mirror of the project. */
const remoteMirrorSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  url: urlSchema.describe('Where the mirror pushes ("https://user:token@example.com/group/repo.git"); credentials are masked in the API.'),
  enabled: z.boolean().default(false).describe('Whether the mirror is enabled. Default false.'),
  only_protected_branches: z.boolean().default(false).describe('Mirror protected branches only. Default false.'),
  keep_divergent_refs: z.boolean().default(false).describe('Keep refs that diverged on the target. Default false.'),
  update_status: z.enum(UPDATE_STATUSES).default('none').describe('The last update\'s state: none, scheduled, started, finished, failed, to_retry. Default none (fakelab never mirrors).'),
  last_update_at: timestampSchema.optional().describe('When the last update ended (ISO 8601); null when absent.'),
  last_update_started_at: timestampSchema.optional().describe('When the last update started (ISO 8601); null when absent.'),
  last_successful_update_at: timestampSchema.optional().describe('When the last successful update ended (ISO 8601); null when absent.'),
  last_error: z.string().optional().describe('The last update\'s error message; null when absent.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const fields = {
  remote_mirrors: z.array(remoteMirrorSchema).default([]).describe('Push mirrors of the project (GET /projects/:id/remote_mirrors); stored only, never pushed to.'),
}

/** The `remote_mirrors` field of projects, as parsed. */
export type RemoteMirrorFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends RemoteMirrorFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The remote mirrors fragment (see the module comment). */
export const remoteMirrorFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'remote_mirrors', field: 'remote_mirrors', on: ['project'] }],
  load: {
    project(ctx, project, parent) {
      project.remote_mirrors.forEach((mirror, i) => {
        const f = ctx.fake(`remote_mirror:${parent.key}:${i}`)
        const record: RemoteMirrorRecord = {
          id: ctx.idOf(mirror),
          project_id: parent.id,
          url: mirror.url,
          enabled: mirror.enabled,
          only_protected_branches: mirror.only_protected_branches,
          keep_divergent_refs: mirror.keep_divergent_refs,
          update_status: mirror.update_status,
          last_update_at: mirror.last_update_at ?? null,
          last_update_started_at: mirror.last_update_started_at ?? null,
          last_successful_update_at: mirror.last_successful_update_at ?? null,
          last_error: mirror.last_error ?? null,
          ...ctx.timestamps(f, mirror, parent.createdAt),
        }
        ctx.stage('remote_mirrors', record)
      })
    },
  },
}
