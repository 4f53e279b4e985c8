/**
 * The protected tags part of the scenario format: `protected_tags:` of projects, each a tag name
 * or `*` pattern and the role that may create matching tags, loaded into `protected_tags`.
 * Source: STYLE.md §10; gitlab: app/models/protected_tag.rb, lib/api/protected_tags.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { items } from '../../scenario/entries.js'
import { at } from '../../scenario/problems.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { TAG_CREATE_ACCESS_LEVELS } from './protected-tags.service.js'
import type { ProtectedTagRecord } from './protected-tags.tables.js'

const protectedTagSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z.string().min(1).describe('A tag name ("v1.0.0") or a pattern where `*` stands for any characters ("release-*").'),
  create_access_level: z
    .union(TAG_CREATE_ACCESS_LEVELS.map((level) => z.literal(level)) as [z.ZodLiteral<40>, z.ZodLiteral<30>, z.ZodLiteral<0>])
    .default(40)
    .describe('Who may create matching tags, through the API or a push: 40 Maintainers (the default), 30 Developers + Maintainers, 0 No one. Nobody may update or delete a matching tag.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const fields = {
  protected_tags: z.array(protectedTagSchema).default([]).describe('Protected tags of the project (GET /projects/:id/protected_tags): names or patterns only allowed roles may create, and nobody may move or delete.'),
}

/** The `protected_tags` field of projects, as parsed. */
export type ProtectedTagFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends ProtectedTagFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The protected tags fragment (see the module comment). */
export const protectedTagFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'protected_tags', field: 'protected_tags', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      const seen = new Set<string>()
      for (const tag of items(project, 'protected_tags')) {
        const name = tag.value.name
        if (typeof name !== 'string') continue
        if (seen.has(name)) ctx.report(at(tag, 'name'), `"${name}" is protected twice in this project (GitLab: Name has already been taken)`)
        seen.add(name)
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      project.protected_tags.forEach((tag, i) => {
        const f = ctx.fake(`protected_tag:${parent.key}:${i}`)
        const record: ProtectedTagRecord = {
          id: ctx.idOf(tag),
          project_id: parent.id,
          name: tag.name,
          create_access_levels: [{ access_level: tag.create_access_level }],
          ...ctx.timestamps(f, tag, parent.createdAt),
        }
        ctx.stage('protected_tags', record)
      })
    },
  },
}
