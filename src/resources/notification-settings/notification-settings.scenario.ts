/**
 * The notification settings part of the scenario format, on users:
 * - `emails:` secondary addresses, each a string (confirmed) or `{email, confirmed}`; the primary
 *   `email` and the confirmed ones are what `notification_email` may be set to;
 * - `notification_settings:` the user's settings: one without `group`/`project` is the global one
 *   (`level`, `notification_email`), the others name a `group` or `project` by full path. `events`
 *   are flags written as the API's `custom` level uses them; flags left out stay never-set (null).
 * Loaded into `emails` and `notification_settings`. Source: STYLE.md §10; gitlab-behaviour.md §10.
 * @module
 */
import { z } from 'zod'
import { isRec, items, list, str } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { fullPathSchema, timestampSchema } from '../../scenario/scalars.js'
import type { UserRecord } from '../../db/schema.js'
import { emailEvents, initialSetting, type SettingSource } from './notification-settings.service.js'
import { EMAIL_EVENTS, GROUP_ONLY_EVENTS, NOTIFICATION_LEVELS, type NotificationSettingRecord } from './notification-settings.tables.js'

/** A secondary email: an address (confirmed), or `{email, confirmed}`. */
const emailSchema = z.union([
  z.string().min(1),
  z.strictObject({ email: z.string().min(1).describe('The address.'), confirmed: z.boolean().default(true).describe('Whether it is confirmed (only confirmed ones can receive notifications). Default true.') }),
])

const eventsSchema = z.partialRecord(z.enum([...EMAIL_EVENTS, ...GROUP_ONLY_EVENTS]), z.boolean())

/** One notification setting of the user: global, or for one group or project. */
const settingSchema = z
  .strictObject({
    group: fullPathSchema.optional().describe('Full path of the group this setting is for; absent (and no project) = the global setting.'),
    project: fullPathSchema.optional().describe('Full path of the project this setting is for; absent (and no group) = the global setting.'),
    /** Default: `participating` (global) or `global` (group, project), as GitLab starts them. */
    level: z.enum(NOTIFICATION_LEVELS).optional().describe('disabled, participating, watch, global, mention or custom. Default participating (global) or global (group, project).'),
    /** Global only; default the primary email. */
    notification_email: z.string().optional().describe('Global setting only: the address notifications go to; default the primary email.'),
    events: eventsSchema.default({}).describe('Custom level: the events notified (new_note, new_issue, ... : true or false).'),
    created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
    updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  })
  .refine((s) => s.group === undefined || s.project === undefined, { error: 'names both a group and a project; one setting is for one of them' })
  .refine((s) => s.notification_email === undefined || (s.group === undefined && s.project === undefined), {
    error: 'notification_email belongs to the global setting (one without group or project)',
  })
  .refine((s) => s.group !== undefined || !('new_epic' in s.events), { error: 'new_epic is a group event only' })

const fields = {
  emails: z.array(emailSchema).default([]).describe('The user\'s secondary emails: an address, or { email, confirmed }.'),
  notification_settings: z.array(settingSchema).default([]).describe('The user\'s notification settings: global, or for one group or project.'),
}

/** The `emails` and `notification_settings` fields of users, as parsed. */
export type NotificationSettingFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioUser extends NotificationSettingFields {}
  interface ScenarioUserInput extends FieldsInput<typeof fields> {}
}

/** The verified addresses a user's scenario entry gives: `email` and the confirmed secondary ones. */
function verified(user: Record<string, unknown>): Set<string> {
  const out = new Set<string>()
  const primary = str(user.email) ?? (str(user.username) ? `${str(user.username)}@example.com` : undefined)
  if (primary) out.add(primary)
  for (const [email] of list(user.emails)) {
    if (typeof email === 'string') out.add(email)
    else if (isRec(email) && typeof email.email === 'string' && email.confirmed !== false) out.add(email.email)
  }
  return out
}

/** Loads one user's emails and settings. */
function load(ctx: LoadContext, user: NotificationSettingFields, row: UserRecord): void {
  const f = ctx.fake(`notification_settings:${row.username.toLowerCase()}`)
  for (const email of user.emails) {
    const { address, confirmed } = typeof email === 'string' ? { address: email, confirmed: true } : { address: email.email, confirmed: email.confirmed }
    const created_at = ctx.between(f, row.created_at)
    ctx.db.tables.emails.insert({ user_id: row.id, email: address, confirmed_at: confirmed ? created_at : null, created_at })
  }
  for (const setting of user.notification_settings) {
    const source: SettingSource =
      setting.group !== undefined
        ? { type: 'group', id: ctx.idOf(ctx.index.groups.get(setting.group.toLowerCase())!.value) }
        : setting.project !== undefined
          ? { type: 'project', id: ctx.idOf(ctx.index.projects.get(setting.project.toLowerCase())!.value) }
          : { type: 'global' }
    const record: Omit<NotificationSettingRecord, 'id'> = {
      ...initialSetting(row.id, source, row.created_at),
      ...(setting.level !== undefined ? { level: setting.level } : {}),
      // Only the source's events are stored: `new_epic` of a project setting stays never-set.
      ...Object.fromEntries(emailEvents(source.type).filter((e) => setting.events[e] !== undefined).map((e) => [e, setting.events[e]])),
      notification_email: setting.notification_email === undefined || setting.notification_email === row.email ? null : setting.notification_email,
      ...ctx.timestamps(f, setting, row.created_at),
    }
    ctx.db.tables.notification_settings.insert(record)
  }
}

/** The notification settings fragment (see the module comment). */
export const notificationSettingFragment: ScenarioFragment = {
  fields: { user: fields },
  check(ctx) {
    for (const user of ctx.model.user) {
      const seen = new Set<string>()
      const emails = verified(user.value)
      for (const setting of items(user, 'notification_settings')) {
        const group = str(setting.value.group)
        const project = str(setting.value.project)
        if (group !== undefined && !ctx.index.groups.has(group.toLowerCase())) ctx.report(at(setting, 'group'), `unknown group "${group}"`)
        if (project !== undefined && !ctx.index.projects.has(project.toLowerCase())) ctx.report(at(setting, 'project'), `unknown project "${project}"`)
        if (group !== undefined && project !== undefined) continue // the schema reports it
        const key = group !== undefined ? `group ${group.toLowerCase()}` : project !== undefined ? `project ${project.toLowerCase()}` : 'global'
        if (seen.has(key)) ctx.report(setting, `a second notification setting for ${key === 'global' ? 'the global level' : key} (one per user and source)`)
        seen.add(key)
        const email = str(setting.value.notification_email)
        // On a group or project setting the schema reports the misplaced field instead.
        if (key === 'global' && email !== undefined && !emails.has(email)) {
          ctx.report(at(setting, 'notification_email'), `"${email}" is not one of the user's verified emails (email or a confirmed entry of emails)`)
        }
      }
    }
  },
  load: { user: (ctx, user, row) => load(ctx, user, row) },
}
