/**
 * Notification settings of the current user: global, and per group and project (one definition
 * looped over the source type). Every route needs a signed-in user (`before { authenticate! }`);
 * any user who can read a group or project may read and change their own setting for it.
 * Source: api-spec.md "Notification settings", "Events"; gitlab-behaviour.md §10, §14 items 6, 21;
 * gitlab: lib/api/notification_settings.rb (13.x).
 * @module
 */
import { p, type ParamSpec } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { SOURCE_TYPES, SOURCES, type Source } from '../../rules/source.js'
import { GlobalNotificationSetting, NotificationSetting } from './notification-settings.entities.js'
import { emailEvents, settingFor, updateSetting, type SettingChanges, type SettingSource } from './notification-settings.service.js'
import type { NotificationEvent } from './notification-settings.tables.js'

/** `optional <event>, type: Boolean` for each email event of the source type. */
function eventParams(source: SettingSource['type']): Record<string, ParamSpec<boolean, false>> {
  return Object.fromEntries(emailEvents(source).map((event) => [event, p.boolean()]))
}

/** The event flags a request gave (declared params only, `include_missing: false`). */
function eventChanges(ctx: Ctx<unknown>, source: SettingSource['type']): SettingChanges['events'] {
  const params = ctx.params as Record<string, unknown>
  const out: SettingChanges['events'] = {}
  for (const event of emailEvents(source)) {
    const value = params[event]
    if (typeof value === 'boolean') out[event as NotificationEvent] = value
  }
  return out
}

/** The setting source of a found group or project. */
function settingSource(source: Source): SettingSource {
  return source.type === 'project' ? { type: 'project', id: source.project.id } : { type: 'group', id: source.group.id }
}

const GLOBAL: SettingSource = { type: 'global' }

/** Every notification settings route. */
export const notificationSettingRoutes: Route[] = [
  route('GET /notification_settings', {
    handler(ctx) {
      const user = ctx.currentUser!
      return ok(GlobalNotificationSetting(settingFor(ctx.db, user, GLOBAL, ctx.now), user))
    },
  }),

  route('PUT /notification_settings', {
    params: { level: p.string(), notification_email: p.string(), ...eventParams('global') },
    handler(ctx) {
      const user = ctx.currentUser!
      const { level, notification_email } = ctx.params
      const setting = updateSetting(ctx.db, user, GLOBAL, { level, notification_email, events: eventChanges(ctx, 'global') }, ctx.now)
      return ok(GlobalNotificationSetting(setting, user))
    },
  }),
]

for (const sourceType of SOURCE_TYPES) {
  const source = SOURCES[sourceType]
  notificationSettingRoutes.push(
    route(`GET ${source.prefix}/notification_settings`, {
      params: { id: p.string({ required: true }) },
      handler(ctx) {
        // python-gitlab sends a stray `?id=…` too: the path's `:id` wins (client-wire-facts.md).
        const parent = settingSource(source.find(ctx, ctx.params.id))
        return ok(NotificationSetting(settingFor(ctx.db, ctx.currentUser!, parent, ctx.now), sourceType))
      },
    }),

    route(`PUT ${source.prefix}/notification_settings`, {
      params: { id: p.string({ required: true }), level: p.string(), ...eventParams(sourceType) },
      handler(ctx) {
        const parent = settingSource(source.find(ctx, ctx.params.id))
        const changes = { level: ctx.params.level, events: eventChanges(ctx, sourceType) }
        return ok(NotificationSetting(updateSetting(ctx.db, ctx.currentUser!, parent, changes, ctx.now), sourceType))
      },
    }),
  )
}
