/**
 * The groups area's part of the scenario format: a group's own fields and its `groups` row.
 * `parent` (the full path of another group of the scenario, in any order) is part of the group's
 * identity; `name` defaults to a faker company name, `visibility` to `private`.
 * Source: STYLE.md §10.
 * @module
 */
import { z } from 'zod'
import { runnersRegistrationToken } from '../../rules/runners-token.js'
import type { GroupRecord } from '../../db/schema.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { timestampSchema, visibilitySchema } from '../../scenario/scalars.js'

/** The fields of a group besides `id`, `path` and `parent`. */
const groupFields = {
  name: z.string().min(1).optional().describe('Display name; faker (a company name) when absent.'),
  visibility: visibilitySchema.default('private').describe('private, internal or public. Default private.'),
  description: z.string().default('').describe('Description. Default empty.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  request_access_enabled: z.boolean().default(true).describe('Whether users may request access. Default true.'),
  lfs_enabled: z.boolean().default(true).describe('Whether Git LFS is enabled. Default true.'),
  /** Runner registration token; faker (`GR1348941…`) when absent. */
  runners_token: z.string().min(1).optional().describe('Runner registration token of the group; faker (GR1348941...) when absent.'),
}

/** A group's own fields as parsed. */
export type GroupFields = FieldsOutput<typeof groupFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends GroupFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
}

/** The groups fragment (see the module comment). */
export const groupFragment: ScenarioFragment = {
  need: { always: 'its build makes every group\'s row (groups are built by this fragment alone)' },
  fields: { group: groupFields },
  build: {
    group(ctx, g, entry) {
      const f = ctx.fake(`group:${ctx.index.fullPath(entry)!.toLowerCase()}`)
      const parent = g.parent ? ctx.index.groups.get(g.parent.toLowerCase()) : undefined
      const record: GroupRecord = {
        id: ctx.idOf(g),
        name: g.name ?? f.company.name(),
        path: g.path,
        description: g.description,
        visibility: g.visibility,
        parent_id: parent ? ctx.idOf(parent.value) : null,
        created_at: g.created_at ?? ctx.past(f),
        request_access_enabled: g.request_access_enabled,
        lfs_enabled: g.lfs_enabled,
        runners_token: g.runners_token ?? runnersRegistrationToken(f),
      }
      return record
    },
  },
}
