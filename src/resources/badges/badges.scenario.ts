/**
 * The badges part of the scenario format: `badges:` of groups and projects (a link and an image
 * URL, http or https, which may hold `%{project_path}`, `%{project_id}`, `%{default_branch}` and
 * `%{commit_sha}`), loaded into `badges`. Source: STYLE.md §10; gitlab: app/models/badge.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import type { BadgeRecord } from './badges.tables.js'
import { badgeErrors } from './badges.validate.js'

const urlSchema = (what: string) => z.string().refine((url) => Object.keys(badgeErrors({ link_url: url, image_url: url })).length === 0, {
  error: (issue) => `must be an http or https URL; got ${JSON.stringify(issue.input)}`,
}).describe(what)

/** A badge of a group or project. */
const badgeSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z.string().optional().describe('The badge\'s name (GET …/badges?name= filters by it).'),
  link_url: urlSchema('Where the badge links to (http or https); placeholders %{project_path}, %{project_id}, %{default_branch}, %{commit_sha} are rendered per project.'),
  image_url: urlSchema('The badge image (http or https), e.g. https://example.com/%{project_path}/badges/%{default_branch}/pipeline.svg.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const groupFields = { badges: z.array(badgeSchema).default([]).describe('Badges of this group, shown on its projects too (GET /groups/:id/badges).') }
const projectFields = { badges: z.array(badgeSchema).default([]).describe('Badges of this project (GET /projects/:id/badges, which adds its groups\').') }

/** The `badges` field of groups and projects, as parsed. */
export type BadgeFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends BadgeFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface ScenarioProject extends BadgeFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

function loadBadges(ctx: LoadContext, parent: LoadParent, badges: BadgeFields['badges']): void {
  badges.forEach((badge, i) => {
    const f = ctx.fake(`badge:${parent.key}:${i}`)
    const record: BadgeRecord = {
      id: ctx.idOf(badge),
      type: parent.type === 'project' ? 'ProjectBadge' : 'GroupBadge',
      project_id: parent.type === 'project' ? parent.id : null,
      group_id: parent.type === 'group' ? parent.id : null,
      name: badge.name ?? null,
      link_url: badge.link_url,
      image_url: badge.image_url,
      ...ctx.timestamps(f, badge, parent.createdAt),
    }
    ctx.stage('badges', record)
  })
}

/** The badges fragment (see the module comment). */
export const badgeFragment: ScenarioFragment = {
  fields: { group: groupFields, project: projectFields },
  collections: [{ table: 'badges', field: 'badges', on: ['group', 'project'] }],
  load: {
    group: (ctx, group, parent) => loadBadges(ctx, parent, group.badges),
    project: (ctx, project, parent) => loadBadges(ctx, parent, project.badges),
  },
}
