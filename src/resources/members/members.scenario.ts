/**
 * The members area's part of the scenario format: `members:` of groups and projects (a username and
 * an access level, as an integer or its name), and their `members` rows; `ldap_group_links:` of
 * groups (issue 23, item 3). A personal project's
 * owner is also a member of it, at Maintainer, as GitLab 13.x reports it.
 * Source: api-spec.md "Member" (access levels); STYLE.md §10.
 * @module
 */
import { z } from 'zod'
import { AccessLevel } from '../../rules/access.js'
import type { MemberRecord } from '../../db/schema.js'
import { items, str, type Entry } from '../../scenario/entries.js'
import type { CheckContext, FieldsInput, FieldsOutput, LoadContext, LoadParent, ScenarioFragment } from '../../scenario/fragment.js'
import { at, where, type Loc } from '../../scenario/problems.js'
import { dateSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'

/** Access level names accepted in place of the integers, mapped to GitLab's `Gitlab::Access`. */
const ACCESS_LEVEL_NAMES = {
  no_access: AccessLevel.NO_ACCESS,
  minimal_access: AccessLevel.MINIMAL_ACCESS,
  guest: AccessLevel.GUEST,
  reporter: AccessLevel.REPORTER,
  developer: AccessLevel.DEVELOPER,
  maintainer: AccessLevel.MAINTAINER,
  owner: AccessLevel.OWNER,
} as const

const ACCESS_LEVELS: readonly number[] = Object.values(ACCESS_LEVEL_NAMES)

/**
 * A member's access level: one of `0, 5, 10, 20, 30, 40, 50`, or its name (`developer`, any case).
 * Output: the integer. Names are looked up as own keys only: `constructor` or `__proto__` name no
 * access level, whatever every JavaScript object inherits.
 */
const accessLevelSchema = z.unknown().transform((value, ctx): number => {
  if (typeof value === 'number' && ACCESS_LEVELS.includes(value)) return value
  if (typeof value === 'string') {
    const name = value.trim().toLowerCase()
    if (Object.hasOwn(ACCESS_LEVEL_NAMES, name)) return ACCESS_LEVEL_NAMES[name as keyof typeof ACCESS_LEVEL_NAMES]
  }
  ctx.addIssue({
    code: 'custom',
    input: value,
    message:
      value === undefined
        ? 'is required'
        : `must be one of ${ACCESS_LEVELS.join(', ')} or ${Object.keys(ACCESS_LEVEL_NAMES).join(', ')}; got ${JSON.stringify(value)}`,
  })
  return z.NEVER
})

/** A group membership: `user` is a username; `access_level` an integer or a name (`developer`). */
const groupMemberSchema = z.strictObject({
  user: pathSchema.describe('The member\'s username.'),
  access_level: accessLevelSchema.describe('The role: 10, 20, 30, 40, 50 or its name (guest, reporter, developer, maintainer, owner).'),
  /** `YYYY-MM-DD`; absent or null = never expires. */
  expires_at: dateSchema.nullable().optional().describe('YYYY-MM-DD; absent or null = never expires.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

/** A project membership: as for groups, but `50` (owner) is not a project access level in 13.x. */
const projectMemberSchema = groupMemberSchema.extend({
  access_level: accessLevelSchema.refine((level) => level !== AccessLevel.OWNER, {
    error: 'must not be 50 (owner) for a project member; use 40 (maintainer)',
  }).describe('The role: 10, 20, 30 or 40, or its name (guest, reporter, developer, maintainer); 50 (owner) only for the owner of a personal project.'),
})

/** A group or project membership, as parsed. */
export type ScenarioMember = z.output<typeof groupMemberSchema>

/**
 * An LDAP group link (GitLab EE `LdapGroupLink`): `cn` the LDAP group, `group_access` the level its
 * members get (guest to owner, as `LdapGroupLink` validates), `provider` the LDAP server.
 */
const ldapGroupLinkSchema = z
  .strictObject({
    cn: z.string().min(1).describe('The LDAP group\'s common name.'),
    group_access: accessLevelSchema
      .refine((level) => level >= AccessLevel.GUEST, { error: 'must be 10 (guest) or more' })
      .describe('The access level its members get: 10, 20, 30, 40, 50 or the name (developer).'),
    provider: z.string().min(1).default('ldapmain').describe('The LDAP server (gitlab.yml key); default ldapmain.'),
  })
  .describe('An LDAP group link (GitLab EE ldap_group_links).')

const groupFields = {
  members: z.array(groupMemberSchema).default([]).describe('Direct members of this group (subgroups and projects inherit them).'),
  /** The group's LDAP group links; any makes it LDAP-synced (EE `Group#ldap_synced?`). */
  ldap_group_links: z
    .array(ldapGroupLinkSchema)
    .default([])
    .describe(
      'LDAP group links (GitLab EE). A group with any is LDAP-synced: its Owners and administrators may then ' +
        'override its members (POST/DELETE /groups/:id/members/:user_id/override). fakelab runs no LDAP sync.',
    ),
}
const projectFields = { members: z.array(projectMemberSchema).default([]).describe('Direct members of this project.') }

/** The `members` and `ldap_group_links` fields of groups, as parsed. */
export type GroupMemberFields = FieldsOutput<typeof groupFields>
/** The `members` field of projects, as parsed. */
export type ProjectMemberFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioGroup extends GroupMemberFields {}
  interface ScenarioGroupInput extends FieldsInput<typeof groupFields> {}
  interface ScenarioProject extends ProjectMemberFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

/** Each member names a user of the scenario, once per group or project. */
function checkMembers(ctx: CheckContext, owners: readonly Entry[]): void {
  for (const owner of owners) {
    const seen = new Map<string, Loc>()
    for (const member of items(owner, 'members')) {
      const username = str(member.value.user)
      if (username === undefined) continue
      const key = username.toLowerCase()
      const first = seen.get(key)
      if (!ctx.index.users.has(key)) ctx.report(at(member, 'user'), `unknown user "${username}"`)
      else if (first) ctx.report(at(member, 'user'), `user "${username}" is already a member (${where(first, member)})`)
      else seen.set(key, member)
    }
  }
}

function loadMembers(ctx: LoadContext, parent: LoadParent, members: readonly ScenarioMember[]): void {
  for (const m of members) {
    const f = ctx.fake(`member:${parent.key}:${m.user.toLowerCase()}`)
    const createdAt = m.created_at ?? ctx.between(f, parent.createdAt)
    ctx.db.tables.members.insert({
      source_type: parent.type,
      source_id: parent.id,
      user_id: ctx.userId(m.user),
      access_level: m.access_level,
      expires_at: m.expires_at ?? null,
      created_at: createdAt,
      updated_at: createdAt,
      created_by_id: null,
      override: false,
    } satisfies Omit<MemberRecord, 'id'>)
  }
}

/**
 * A `project_bot` user is the bot of one project access token: a member of exactly one project and
 * of no group (GitLab creates it for one project and adds it there as Maintainer).
 */
function checkBots(ctx: CheckContext): void {
  const projects = new Map<string, number>()
  const groups = new Set<string>()
  for (const [kind, owners] of [['project', ctx.model.project], ['group', ctx.model.group]] as const) {
    for (const owner of owners) {
      for (const member of items(owner, 'members')) {
        const name = str(member.value.user)?.toLowerCase()
        if (name === undefined) continue
        if (kind === 'group') groups.add(name)
        else projects.set(name, (projects.get(name) ?? 0) + 1)
      }
    }
  }
  for (const user of ctx.model.user) {
    const name = str(user.value.username)?.toLowerCase()
    if (name === undefined || user.value.user_type !== 'project_bot') continue
    if (groups.has(name) || projects.get(name) !== 1) {
      ctx.report(at(user, 'user_type'), `a project_bot user must be a member of exactly one project and of no group (the bot of one project access token)`)
    }
  }
}

/** The members fragment (see the module comment). */
export const memberFragment: ScenarioFragment = {
  need: { always: 'load.project makes a personal project\'s owner its maintainer member, with or without members:' },
  fields: { group: groupFields, project: projectFields },
  check(ctx) {
    checkMembers(ctx, ctx.model.group)
    checkMembers(ctx, ctx.model.project)
    checkBots(ctx)
  },
  load: {
    group(ctx, group, parent) {
      loadMembers(ctx, parent, group.members)
      for (const link of group.ldap_group_links) {
        ctx.db.tables.ldap_group_links.insert({ group_id: parent.id, cn: link.cn, group_access: link.group_access, provider: link.provider })
      }
    },
    project(ctx, project, parent) {
      const members = [...project.members]
      const owner = ctx.index.namespace(parent.entry)?.owner
      const ownerName = owner && str(owner.value.username)
      if (ownerName && !members.some((m) => m.user.toLowerCase() === ownerName.toLowerCase())) {
        // gitlab: a personal project's owner is a member at MAINTAINER (40) in 13.x, not OWNER
        members.unshift({ user: ownerName, access_level: AccessLevel.MAINTAINER, expires_at: null, created_at: parent.createdAt })
      }
      loadMembers(ctx, parent, members)
    },
  },
}
