/**
 * The services area's table: a project's integrations (`services` rows, one per project and type),
 * kept from its first PUT (or DELETE) on: a deleted service stays, inactive with its fields cleared,
 * as 13.12 keeps it. gitlab: db/structure.sql `services` (13.12), app/models/service.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'
import type { ServiceEventFlag } from './services.definitions.js'

/** A field's stored value: what the PUT gave, coerced to the field's type; null once cleared. */
export type ServicePropertyValue = string | boolean | number | null

/** A project's integration. */
export interface ServiceRecord extends Row, Record<ServiceEventFlag, boolean> {
  project_id: number
  /** The service's slug (`emails-on-push`); GitLab keeps the class name (`EmailsOnPushService`). */
  slug: string
  active: boolean
  /** The fields set, by name (secrets included: never shown). */
  properties: Record<string, ServicePropertyValue>
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    services: ServiceRecord
  }
}

/** The table, indexed by project. */
export const serviceTables = {
  services: table<ServiceRecord>(['project_id']),
}
