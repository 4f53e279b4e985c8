/**
 * The project-actions part of the scenario format: `starred_projects:` of users (the projects a
 * user has starred, by full path, with when), loaded into `users_star_projects`; the projects'
 * `star_count` and `GET /projects/:id/starrers` read them. Source: STYLE.md §10; gitlab:
 * db/structure.sql `users_star_projects` (13.12).
 * @module
 */
import { z } from 'zod'
import { list, str } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { fullPathSchema, timestampSchema } from '../../scenario/scalars.js'

/** A star: the project's full path, or the path with the instant the star was given. */
const starSchema = z.union([
  fullPathSchema.describe('The starred project\'s full path ("acme/website").'),
  z.strictObject({
    project: fullPathSchema.describe('The starred project\'s full path ("acme/website").'),
    created_at: timestampSchema.optional().describe('When the star was given (ISO 8601); faker when absent.'),
  }),
])

const fields = {
  starred_projects: z.array(starSchema).default([]).describe('Projects the user has starred, by full path ("acme/website"); each at most once.'),
}

/** The `starred_projects` field of users, as parsed. */
export type StarFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioUser extends StarFields {}
  interface ScenarioUserInput extends FieldsInput<typeof fields> {}
}

/** The stars fragment (see the module comment). */
export const starFragment: ScenarioFragment = {
  fields: { user: fields },
  check(ctx) {
    for (const user of ctx.model.user) {
      const seen = new Set<string>()
      for (const [star, i] of list(user.value.starred_projects)) {
        const path = typeof star === 'string' ? star : star !== null && typeof star === 'object' ? str((star as Record<string, unknown>).project) : undefined
        if (path === undefined) continue
        const loc = typeof star === 'string' ? at(user, 'starred_projects', i) : at(user, 'starred_projects', i, 'project')
        if (!ctx.index.projects.has(path.toLowerCase())) ctx.report(loc, `unknown project "${path}"`)
        else if (seen.has(path.toLowerCase())) ctx.report(loc, `project "${path}" is starred twice`)
        seen.add(path.toLowerCase())
      }
    }
  },
  load: {
    user(ctx, user, row) {
      const f = ctx.fake(`starred_projects:${row.username.toLowerCase()}`)
      for (const star of user.starred_projects) {
        const { project, created_at } = typeof star === 'string' ? { project: star, created_at: undefined } : star
        const entry = ctx.index.projects.get(project.toLowerCase())!
        ctx.db.tables.users_star_projects.insert({ project_id: ctx.idOf(entry.value), user_id: row.id, created_at: created_at ?? ctx.between(f, row.created_at) })
      }
    },
  },
}
