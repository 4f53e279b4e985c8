/**
 * The projects area's part of the scenario format: a project's own fields and its `projects` row.
 * `namespace` (a group full path or a username) is part of the project's identity; `name` defaults
 * to the path titleized (`good-stuff` → `Good Stuff`).
 * Source: STYLE.md §10.
 * @module
 */
import { z } from 'zod'
import { AccessLevel } from '../../rules/access.js'
import { runnersRegistrationToken } from '../../rules/runners-token.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { Entry } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { timestampSchema, visibilitySchema } from '../../scenario/scalars.js'

/** The fields of a project besides `id`, `path` and `namespace`. */
const projectFields = {
  name: z.string().min(1).optional(),
  visibility: visibilitySchema.default('private'),
  description: z.string().default(''),
  default_branch: z.string().min(1).default('main'),
  archived: z.boolean().default(false),
  created_at: timestampSchema.optional(),
  last_activity_at: timestampSchema.optional(),
  repository_storage: z.string().min(1).default('default'),
  /** Runner registration token; faker (`GR1348941…`) when absent. */
  runners_token: z.string().min(1).optional(),
}

/** A project's own fields as parsed. */
export type ProjectFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends ProjectFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

/** `good-first_issue` → `Good First Issue` (GitLab's default name from a path). */
function titleize(path: string): string {
  return path
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
}

/**
 * Who created a group project: the first owner or maintainer walking up the namespace's group
 * chain (groups' members are loaded by then), else user 1, or the lowest user id when there is no
 * user 1.
 */
function groupProjectCreator(ctx: LoadContext, groups: readonly Entry[]): number {
  for (const group of groups) {
    const groupId = ctx.idOf(group.value)
    const member = ctx.db.tables.members
      .where('source_id', groupId)
      .find((m) => m.source_type === 'group' && m.access_level >= AccessLevel.MAINTAINER)
    if (member) return member.user_id
  }
  const ids = [...ctx.index.users.values()].map((user) => ctx.idOf(user.value))
  return ids.includes(1) || ids.length === 0 ? 1 : Math.min(...ids)
}

/** The projects fragment (see the module comment). */
export const projectFragment: ScenarioFragment = {
  fields: { project: projectFields },
  build: {
    project(ctx, p, entry) {
      const f = ctx.fake(`project:${ctx.index.fullPath(entry)!.toLowerCase()}`)
      const namespace = ctx.index.namespace(entry)!
      const owner = namespace.owner ? ctx.row('user', namespace.owner) : undefined
      const group = namespace.groups[0] ? ctx.row('group', namespace.groups[0]) : undefined
      const created_at = p.created_at ?? ctx.between(f, owner ? owner.created_at : group!.created_at)
      const record: ProjectRecord = {
        id: ctx.idOf(p),
        name: p.name ?? titleize(p.path),
        path: p.path,
        description: p.description,
        visibility: p.visibility,
        namespace_type: owner ? 'user' : 'group',
        namespace_id: owner ? owner.id : group!.id,
        creator_id: owner ? owner.id : groupProjectCreator(ctx, namespace.groups),
        created_at,
        last_activity_at: p.last_activity_at ?? ctx.between(f, created_at),
        default_branch: p.default_branch,
        archived: p.archived,
        repository_storage: p.repository_storage,
        runners_token: p.runners_token ?? runnersRegistrationToken(f),
      }
      return record
    },
  },
}
