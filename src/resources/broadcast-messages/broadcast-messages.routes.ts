/**
 * Broadcast messages: anyone lists and reads them (newest first); administrators create, update
 * and delete them (the delete answers the deleted message). The model's validations: message,
 * starts_at and ends_at present, colours valid.
 * gitlab: lib/api/broadcast_messages.rb, lib/api/entities/broadcast_message.rb,
 * app/models/broadcast_message.rb (13.12).
 * @module
 */
import { recordNotFound, validationFailed } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { BroadcastMessageRecord } from './broadcast-messages.tables.js'

/** `BroadcastMessage`: the columns, then `active` (started and not ended at the clock's now). */
function BroadcastMessage(message: BroadcastMessageRecord, ctx: Ctx<unknown>) {
  return {
    id: message.id,
    message: message.message,
    starts_at: message.starts_at,
    ends_at: message.ends_at,
    color: message.color,
    font: message.font,
    target_path: message.target_path,
    broadcast_type: message.broadcast_type,
    dismissable: message.dismissable,
    active: message.starts_at <= ctx.now && message.ends_at > ctx.now,
  }
}

/**
 * `BroadcastMessage.find(id)`.
 * @throws ApiError 404 `{"message":"404 Not found"}`.
 */
function findMessage(ctx: Ctx<unknown>, id: number): BroadcastMessageRecord {
  const message = ctx.db.tables.broadcast_messages.get(id)
  if (!message) throw recordNotFound()
  return message
}

/** `ColorValidator`: `#` and three or six hex digits. */
const COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/

/**
 * The model's validations, by attribute in declaration order.
 * @throws ApiError 400 `{"message":{"<attribute>":[…]}}`.
 */
function validate(fields: Pick<BroadcastMessageRecord, 'message' | 'color' | 'font'>): void {
  const errors: Record<string, string[]> = {}
  if (fields.message.trim() === '') errors.message = ["can't be blank"]
  if (fields.color && !COLOR.test(fields.color)) errors.color = ['must be a valid color code']
  if (fields.font && !COLOR.test(fields.font)) errors.font = ['must be a valid color code']
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

const fieldParams = {
  starts_at: p.datetime(),
  ends_at: p.datetime(),
  color: p.string(),
  font: p.string(),
  target_path: p.string(),
  broadcast_type: p.string({ values: ['banner', 'notification'] }),
  dismissable: p.boolean(),
}
const id = p.integer({ required: true })

/** The broadcast message routes. */
export const broadcastMessageRoutes: Route[] = [
  route('GET /broadcast_messages', {
    auth: 'optional',
    params: { ...paginationParams },
    handler(ctx) {
      const rows = ctx.db.tables.broadcast_messages.all().sort((a, b) => b.id - a.id)
      return paginated(ctx, rows, (m) => BroadcastMessage(m, ctx))
    },
  }),

  route('GET /broadcast_messages/:id', {
    auth: 'optional',
    params: { id },
    handler(ctx) {
      return ok(BroadcastMessage(findMessage(ctx, ctx.params.id), ctx))
    },
  }),

  route('POST /broadcast_messages', {
    auth: 'admin',
    params: { message: p.string({ required: true }), ...fieldParams },
    handler(ctx) {
      const q = ctx.params
      const record = {
        message: q.message,
        // Grape's defaults: now and an hour from now.
        starts_at: q.starts_at ?? ctx.now,
        ends_at: q.ends_at ?? new Date(Date.parse(ctx.now) + 3600_000).toISOString(),
        color: q.color ?? '#E75E40',
        font: q.font ?? '#FFFFFF',
        target_path: q.target_path ?? null,
        broadcast_type: q.broadcast_type ?? 'banner',
        dismissable: q.dismissable ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      }
      validate(record)
      return created(BroadcastMessage(ctx.db.tables.broadcast_messages.insert(record), ctx))
    },
  }),

  route('PUT /broadcast_messages/:id', {
    auth: 'admin',
    params: { id, message: p.string(), ...fieldParams },
    handler(ctx) {
      const current = findMessage(ctx, ctx.params.id)
      const q = ctx.params
      const next = {
        message: q.message ?? current.message,
        starts_at: q.starts_at ?? current.starts_at,
        ends_at: q.ends_at ?? current.ends_at,
        color: q.color ?? current.color,
        font: q.font ?? current.font,
        target_path: q.target_path ?? current.target_path,
        broadcast_type: q.broadcast_type ?? current.broadcast_type,
        dismissable: q.dismissable ?? current.dismissable,
        updated_at: ctx.now,
      }
      validate(next)
      return ok(BroadcastMessage(ctx.db.tables.broadcast_messages.update(current.id, next), ctx))
    },
  }),

  route('DELETE /broadcast_messages/:id', {
    auth: 'admin',
    params: { id },
    handler(ctx) {
      const message = findMessage(ctx, ctx.params.id)
      ctx.db.tables.broadcast_messages.delete(message.id)
      return ok(BroadcastMessage(message, ctx))
    },
  }),
]
