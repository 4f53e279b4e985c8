/**
 * `/users/:id/custom_attributes`, `/groups/:id/custom_attributes` and
 * `/projects/:id/custom_attributes`: administrators list, read, set and delete key/value attributes.
 * The owner is found first (its 404), then `authorize! :read_custom_attribute` /
 * `:update_custom_attribute` (administrators only: 403). gitlab: lib/api/custom_attributes_endpoints.rb,
 * lib/api/entities/custom_attribute.rb, app/policies/global_policy.rb (13.12).
 * @module
 */
import { forbidden, recordNotFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findGroup, findProject, findUser } from '../../rules/finders.js'
import type { CustomAttributeOwner, CustomAttributeRecord } from './custom-attributes.tables.js'

/** GitLab's `CustomAttribute` entity: `key, value`. */
export function CustomAttribute(attr: CustomAttributeRecord) {
  return { key: attr.key, value: attr.value }
}

/** The owner's id (`find_user`, `find_group`, `find_project`), then the administrator check. */
function ownerId(ctx: Ctx<{ id: string }>, owner: CustomAttributeOwner): number {
  const id = owner === 'user' ? findUser(ctx, ctx.params.id).id : owner === 'group' ? findGroup(ctx, ctx.params.id).id : findProject(ctx, ctx.params.id).id
  if (!ctx.currentUser?.admin) throw forbidden()
  return id
}

function attributesOf(ctx: Ctx<unknown>, owner: CustomAttributeOwner, id: number): CustomAttributeRecord[] {
  return ctx.db.tables.custom_attributes.where('owner_id', id).filter((a) => a.owner_type === owner).sort((a, b) => a.id - b.id)
}

/** `custom_attributes.find_by!(key:)`. @throws ApiError 404 `{"message":"404 Not found"}`. */
function attributeOf(ctx: Ctx<unknown>, owner: CustomAttributeOwner, id: number, key: string): CustomAttributeRecord {
  const attr = attributesOf(ctx, owner, id).find((a) => a.key === key)
  if (!attr) throw recordNotFound()
  return attr
}

/** The four routes of one owner kind (`users`, `groups`, `projects`). */
function endpoints(resource: 'users' | 'groups' | 'projects', owner: CustomAttributeOwner): Route[] {
  const id = p.string({ required: true })
  const key = p.string({ required: true })
  return [
    route(`GET /${resource}/:id/custom_attributes`, {
      params: { id },
      handler(ctx) {
        return ok(attributesOf(ctx, owner, ownerId(ctx, owner)).map(CustomAttribute))
      },
    }),
    route(`GET /${resource}/:id/custom_attributes/:key`, {
      params: { id, key },
      handler(ctx) {
        return ok(CustomAttribute(attributeOf(ctx, owner, ownerId(ctx, owner), ctx.params.key)))
      },
    }),
    // gitlab: `find_or_initialize_by(key:)` then `update!(value:)`; 200 either way.
    route(`PUT /${resource}/:id/custom_attributes/:key`, {
      params: { id, key, value: p.string({ required: true }) },
      handler(ctx) {
        const ownerKey = ownerId(ctx, owner)
        const existing = attributesOf(ctx, owner, ownerKey).find((a) => a.key === ctx.params.key)
        const attr = existing
          ? ctx.db.tables.custom_attributes.update(existing.id, { value: ctx.params.value, updated_at: ctx.now })
          : ctx.db.tables.custom_attributes.insert({ owner_type: owner, owner_id: ownerKey, key: ctx.params.key, value: ctx.params.value, created_at: ctx.now, updated_at: ctx.now })
        return ok(CustomAttribute(attr))
      },
    }),
    route(`DELETE /${resource}/:id/custom_attributes/:key`, {
      params: { id, key },
      handler(ctx) {
        ctx.db.tables.custom_attributes.delete(attributeOf(ctx, owner, ownerId(ctx, owner), ctx.params.key).id)
        return noContent()
      },
    }),
  ]
}

/** The routes, in custom_attributes_endpoints.rb's order for each including API (projects, groups, users). */
export const customAttributeRoutes: Route[] = [...endpoints('projects', 'project'), ...endpoints('groups', 'group'), ...endpoints('users', 'user')]
