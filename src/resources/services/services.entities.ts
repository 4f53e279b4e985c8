/**
 * The project service entities, key by key in GitLab's order. gitlab: lib/api/entities.rb
 * (13.12) `ProjectServiceBasic` (id, title, slug, created_at, updated_at, active, the event flags,
 * comment_on_event_enabled) and `ProjectService` (adds `properties`: the fields of
 * `api_field_names` only, so no password, token or key is ever shown).
 * @module
 */
import { apiFieldNames, SERVICE_BY_SLUG, SERVICE_EVENT_FLAGS } from './services.definitions.js'
import type { ServicePropertyValue, ServiceRecord } from './services.tables.js'

/** `ProjectServiceBasic`: `GET /projects/:id/services`. */
export function ProjectServiceBasic(service: ServiceRecord) {
  return {
    id: service.id,
    title: SERVICE_BY_SLUG.get(service.slug)?.title ?? service.slug,
    slug: service.slug,
    created_at: service.created_at,
    updated_at: service.updated_at,
    active: service.active,
    commit_events: service.commit_events,
    push_events: service.push_events,
    issues_events: service.issues_events,
    confidential_issues_events: service.confidential_issues_events,
    merge_requests_events: service.merge_requests_events,
    tag_push_events: service.tag_push_events,
    note_events: service.note_events,
    confidential_note_events: service.confidential_note_events,
    pipeline_events: service.pipeline_events,
    wiki_page_events: service.wiki_page_events,
    job_events: service.job_events,
    comment_on_event_enabled: service.comment_on_event_enabled,
  }
}

/**
 * `ProjectService`: the basic entity and `properties`. A data-fields service (Jira, the issue
 * trackers) shows each of its API fields, null when unset; the others show the fields set, in the
 * definition's order.
 */
export function ProjectService(service: ServiceRecord) {
  const definition = SERVICE_BY_SLUG.get(service.slug)
  const properties: Record<string, ServicePropertyValue> = {}
  if (definition) {
    for (const name of apiFieldNames(definition)) {
      if (name in SERVICE_EVENT_FLAGS) continue // a column, not a property
      if (name in service.properties) properties[name] = service.properties[name]!
      else if (definition.dataFields) properties[name] = null
    }
  }
  return { ...ProjectServiceBasic(service), properties }
}
