/**
 * The sharing area's part of the scenario format: `shared_with_groups:` of groups and projects,
 * each a group (by full path), the most its members get, and an optional end date; loaded as the
 * `group_group_links` and `project_group_links` rows the share routes write.
 * Source: gitlab: app/models/group_group_link.rb, app/models/project_group_link.rb.
 * @module
 */
import { z } from 'zod'
import type { ScenarioFragment, CheckContext, FieldsInput, FieldsOutput, LoadContext, LoadParent } from '../../scenario/fragment.js'
import { items, str, type Entry } from '../../scenario/entries.js'
import { at } from '../../scenario/problems.js'
import { dateSchema, fullPathSchema } from '../../scenario/scalars.js'

/** The levels a share may give: Guest to Maintainer (`Gitlab::Access.values`, what both link models take). */
const SHARE_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const

const shareSchema = z.strictObject({
  group: fullPathSchema.describe('The group shared with, by full path (acme/platform); its members, and its ancestors\' members, get access.'),
  group_access: z
    .union([z.literal([10, 20, 30, 40]), z.enum(['guest', 'reporter', 'developer', 'maintainer']).transform((name) => SHARE_LEVELS[name])])
    .describe('The most a member of that group gets: 10, 20, 30 or 40, or its name (guest, reporter, developer, maintainer).'),
  expires_at: dateSchema.nullable().optional().describe('YYYY-MM-DD: the share ends at the start of this day; absent or null = never.'),
})

const fields = {
  shared_with_groups: z
    .array(shareSchema)
    .default([])
    .describe('Groups this one is shared with (POST /groups/:id/share or /projects/:id/share): their members get access here, capped at group_access.'),
}

/** The `shared_with_groups` field of groups and projects, as parsed. */
export type SharingFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends SharingFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof fields> {}
  interface ScenarioProject extends SharingFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** Each share names a group of the scenario, once per group or project, and not the sharer itself. */
function checkShares(ctx: CheckContext, owners: readonly Entry[], kind: 'group' | 'project'): void {
  for (const owner of owners) {
    const seen = new Set<string>()
    for (const share of items(owner, 'shared_with_groups')) {
      const path = str(share.value.group)?.toLowerCase()
      if (path === undefined) continue
      const target = ctx.index.groups.get(path)
      if (!target) ctx.report(at(share, 'group'), `unknown group "${str(share.value.group)}"`)
      else if (seen.has(path)) ctx.report(at(share, 'group'), `already shared with group "${str(share.value.group)}"`)
      else if (kind === 'group' && target === owner) ctx.report(at(share, 'group'), 'a group cannot be shared with itself')
      seen.add(path)
    }
  }
}

function groupId(ctx: LoadContext, path: string): number {
  const entry = ctx.index.groups.get(path.toLowerCase())
  if (!entry) throw new Error(`scenario: unknown group "${path}"`)
  return ctx.row('group', entry).id
}

function createdAt(ctx: LoadContext, parent: LoadParent, path: string): string {
  return ctx.between(ctx.fake(`share:${parent.key}:${path.toLowerCase()}`), parent.createdAt)
}

/** The sharing fragment (see the module comment). */
export const sharingFragment: ScenarioFragment = {
  fields: { group: fields, project: fields },
  check(ctx) {
    checkShares(ctx, ctx.model.group, 'group')
    checkShares(ctx, ctx.model.project, 'project')
  },
  load: {
    group(ctx, group, parent) {
      for (const share of group.shared_with_groups) {
        ctx.db.tables.group_group_links.insert({
          shared_group_id: parent.id,
          shared_with_group_id: groupId(ctx, share.group),
          group_access: share.group_access,
          expires_at: share.expires_at ?? null,
          created_at: createdAt(ctx, parent, share.group),
        })
      }
    },
    project(ctx, project, parent) {
      for (const share of project.shared_with_groups) {
        ctx.db.tables.project_group_links.insert({
          project_id: parent.id,
          group_id: groupId(ctx, share.group),
          group_access: share.group_access,
          expires_at: share.expires_at ?? null,
          created_at: createdAt(ctx, parent, share.group),
        })
      }
    },
  },
}
