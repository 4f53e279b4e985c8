/**
 * What other areas may use of custom attributes: the `custom_attributes[key]=value` list filter
 * of `GET /users`, `/groups` and `/projects`. gitlab: app/finders/concerns/custom_attributes_filter.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { CustomAttributeOwner } from './custom-attributes.tables.js'

/**
 * `CustomAttributesFilter#by_custom_attributes`: keeps the rows that have every given key with its
 * value (a new array). Applies only for an administrator and a hash filter; `rows` itself otherwise.
 */
export function filterByCustomAttributes<A extends readonly { id: number }[]>(db: Db, owner: CustomAttributeOwner, rows: A, filter: unknown, admin: boolean): A {
  if (!admin || filter === null || typeof filter !== 'object' || Array.isArray(filter)) return rows
  const wanted = Object.entries(filter as Record<string, unknown>)
  if (wanted.length === 0) return rows
  return rows.filter((row) => {
    const attrs = db.tables.custom_attributes.where('owner_id', row.id).filter((a) => a.owner_type === owner)
    return wanted.every(([key, value]) => attrs.some((a) => a.key === key && a.value === String(value)))
  }) as unknown as A
}
