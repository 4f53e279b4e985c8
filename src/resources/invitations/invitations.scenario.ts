/**
 * The invitations part of the scenario format: `invitations:` of groups and projects (pending
 * invitations by email, listed by `GET …/invitations`), loaded into `member_invitations`.
 * Source: STYLE.md §10; gitlab: app/models/member.rb (an invite: `invite_email`, `invite_token`).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { dateSchema, idSchema, timestampSchema } from '../../scenario/scalars.js'
import type { MemberInvitationRecord } from './invitations.tables.js'
import { validEmailList } from './invitations.email.js'

const LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const

/** The role an invitation grants: 10–50 or its name (`developer`, any case). Output: the integer. */
const levelSchema = z.unknown().transform((value, ctx): number => {
  if (typeof value === 'number' && Object.values(LEVELS).includes(value as 10)) return value
  if (typeof value === 'string' && Object.hasOwn(LEVELS, value.trim().toLowerCase())) return LEVELS[value.trim().toLowerCase() as keyof typeof LEVELS]
  ctx.addIssue({ code: 'custom', input: value, message: value === undefined ? 'is required' : `must be one of 10, 20, 30, 40, 50 or ${Object.keys(LEVELS).join(', ')}; got ${JSON.stringify(value)}` })
  return z.NEVER
})

/** A pending invitation. */
const invitationSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  email: z.string().refine((email) => !email.includes(',') && validEmailList(email), {
    error: (issue) => `must be one email address; got ${JSON.stringify(issue.input)}`,
  }).describe('The address invited (no user of the scenario should have it: an existing user\'s address is a membership).'),
  access_level: levelSchema.describe('The role granted on acceptance: 10, 20, 30, 40, 50 or its name (guest … owner).'),
  expires_at: dateSchema.nullable().optional().describe('YYYY-MM-DD; absent or null = the membership would never expire.'),
  invite_token: z.string().regex(/^[0-9a-f]{64}$/).optional().describe('The stored token (64 hex digits); faker when absent.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const groupFields = { invitations: z.array(invitationSchema).default([]).describe('Pending invitations by email to this group (GET /groups/:id/invitations).') }
const projectFields = { invitations: z.array(invitationSchema).default([]).describe('Pending invitations by email to this project (GET /projects/:id/invitations).') }

/** The `invitations` field of groups and projects, as parsed. */
export type InvitationFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends InvitationFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface ScenarioProject extends InvitationFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

function loadInvitations(ctx: LoadContext, parent: LoadParent, invitations: InvitationFields['invitations']): void {
  invitations.forEach((invitation, i) => {
    const f = ctx.fake(`invitation:${parent.key}:${i}`)
    const record: MemberInvitationRecord = {
      id: ctx.idOf(invitation),
      source_type: parent.type,
      source_id: parent.id,
      invite_email: invitation.email,
      invite_token: invitation.invite_token ?? f.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }),
      access_level: invitation.access_level,
      expires_at: invitation.expires_at ?? null,
      created_by_id: null,
      ...ctx.timestamps(f, invitation, parent.createdAt),
    }
    ctx.stage('member_invitations', record)
  })
}

/** The invitations fragment (see the module comment). */
export const invitationFragment: ScenarioFragment = {
  fields: { group: groupFields, project: projectFields },
  collections: [{ table: 'member_invitations', field: 'invitations', on: ['group', 'project'] }],
  load: {
    group: (ctx, group, parent) => loadInvitations(ctx, parent, group.invitations),
    project: (ctx, project, parent) => loadInvitations(ctx, parent, project.invitations),
  },
}
