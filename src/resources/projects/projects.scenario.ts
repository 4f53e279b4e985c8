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
  name: z.string().min(1).optional().describe('Display name; faker when absent.'),
  visibility: visibilitySchema.default('private').describe('private, internal or public. Default private.'),
  description: z.string().default('').describe('Description. Default empty.'),
  default_branch: z.string().min(1).default('main').describe('The default branch. Default main.'),
  archived: z.boolean().default(false).describe('Archived (read-only). Default false.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  last_activity_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  merge_method: z
    .enum(['merge', 'rebase_merge', 'ff'])
    .optional()
    .describe('How its merge requests merge: merge (a merge commit), rebase_merge (a merge commit, only when the source is rebased on the target) or ff (fast-forward only). Default merge.'),
  repository_storage: z.string().min(1).default('default').describe('Name of the repository storage (top-level repository_storages) holding it. Default default.'),
  /** Runner registration token; faker (`GR1348941…`) when absent. */
  runners_token: z.string().min(1).optional().describe('Runner registration token of the project; faker (GR1348941...) when absent.'),
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
  need: { always: 'its build makes every project\'s row (projects are built by this fragment alone)' },
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
        // Kept only when set: rows without it read merge (state exports stay as they were).
        ...(p.merge_method !== undefined ? { merge_method: p.merge_method } : {}),
      }
      return record
    },
  },
}
