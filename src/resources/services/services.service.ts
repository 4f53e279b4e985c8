/**
 * Setting, reading and clearing a project's services: `find_or_initialize_service(slug)` then
 * `update(params.merge(active: true))`, and the DELETE's update to every field nil and inactive.
 * gitlab: lib/api/services.rb (13.12), app/models/service.rb, app/models/project.rb
 * (`find_or_initialize_service`).
 * @module
 */
import { apiMessage } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { SERVICE_EVENT_FLAGS, type ServiceDefinition, type ServiceEventFlag } from './services.definitions.js'
import type { ServicePropertyValue, ServiceRecord } from './services.tables.js'

/** The project's service of this slug, if it was ever set (persisted). */
export function findService(db: Db, project: ProjectRecord, slug: string): ServiceRecord | undefined {
  return db.tables.services.where('project_id', project.id).find((s) => s.slug === slug)
}

/** `project.services.active`, by id. */
export function activeServices(db: Db, project: ProjectRecord): ServiceRecord[] {
  return db.tables.services.where('project_id', project.id).filter((s) => s.active).sort((a, b) => a.id - b.id)
}

/** Rails' boolean cast of a String param given to a boolean column (`"0"`, `"false"`, `"off"` … false; blank nil). */
function castBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  const text = String(value)
  if (text === '') return null
  return !['0', 'f', 'F', 'false', 'FALSE', 'off', 'OFF'].includes(text)
}

function isFlag(name: string): name is ServiceEventFlag {
  return Object.prototype.hasOwnProperty.call(SERVICE_EVENT_FLAGS, name)
}

function newRow(project: ProjectRecord, slug: string, now: string): Omit<ServiceRecord, 'id'> {
  return { project_id: project.id, slug, active: false, properties: {}, ...SERVICE_EVENT_FLAGS, created_at: now, updated_at: now }
}

/**
 * The PUT: the declared params given (fields and event names) set on the service, which becomes
 * active. A field that is an event column (`push_events`, `comment_on_event_enabled`) sets the column.
 * @throws ApiError 400 `{"message":"400 Bad Request"}` when a required field is blank (the model's
 *   presence validation of an active service).
 */
export function setService(db: Db, project: ProjectRecord, definition: ServiceDefinition, params: Record<string, unknown>, now: string): ServiceRecord {
  const existing = findService(db, project, definition.slug)
  const row = existing ? { ...existing } : { ...newRow(project, definition.slug, now) }
  const properties: Record<string, ServicePropertyValue> = { ...row.properties }
  const flags: Partial<Record<ServiceEventFlag, boolean>> = {}
  for (const field of definition.fields) {
    const value = params[field.name]
    if (value === undefined) continue
    if (isFlag(field.name)) {
      const flag = castBoolean(value)
      if (flag !== null) flags[field.name] = flag
    } else properties[field.name] = value as ServicePropertyValue
  }
  for (const name of definition.events) {
    const value = params[name]
    if (value === undefined || !isFlag(name)) continue
    const flag = castBoolean(value)
    if (flag !== null) flags[name] = flag
  }
  // gitlab: `validates :<field>, presence: true, if: :activated?` of each service's required fields.
  if (definition.fields.some((f) => f.required && !isFlag(f.name) && blank(properties[f.name]))) throw apiMessage(400, '400 Bad Request')
  const next = { ...row, ...flags, properties, active: true, updated_at: now }
  if (existing) return db.tables.services.update(existing.id, next)
  return db.tables.services.insert(next)
}

/**
 * The DELETE: the service found or initialised, every field set to nil and `active: false`, saved
 * (so a never-set service is created inactive, as 13.12 does).
 */
export function clearService(db: Db, project: ProjectRecord, definition: ServiceDefinition, now: string): void {
  const existing = findService(db, project, definition.slug)
  const properties: Record<string, ServicePropertyValue> = {}
  for (const field of definition.fields) if (!isFlag(field.name)) properties[field.name] = null
  if (existing) db.tables.services.update(existing.id, { properties, active: false, updated_at: now })
  else db.tables.services.insert({ ...newRow(project, definition.slug, now), properties })
}
