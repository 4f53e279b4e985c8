/**
 * The services part of the scenario format: `services:` of projects (a project's integrations,
 * each with its fields and event flags), loaded into `services`. Fields are checked against the
 * service's PUT fields (`services.definitions.ts`): names, types, and the required ones of an
 * active service. Source: STYLE.md §10; gitlab: lib/api/helpers/services_helpers.rb,
 * app/models/service.rb (13.12).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { SERVICE_BY_SLUG, SERVICE_EVENT_FLAGS, SERVICE_SLUGS, type ServiceEventFlag } from './services.definitions.js'
import type { ServiceRecord } from './services.tables.js'

const flagsShape = Object.fromEntries(
  (Object.keys(SERVICE_EVENT_FLAGS) as ServiceEventFlag[]).map((flag) => [flag, z.boolean().optional().describe(`The \`${flag}\` flag; default ${SERVICE_EVENT_FLAGS[flag]}.`)]),
) as Record<ServiceEventFlag, z.ZodOptional<z.ZodBoolean>>

/** One integration of the project. */
const serviceSchema = z
  .strictObject({
    id: idSchema.optional().describe('Record id; the next free one when absent.'),
    slug: z.enum(SERVICE_SLUGS as [string, ...string[]]).describe('The service, as its URL names it ("asana", "emails-on-push", "jira").'),
    active: z.boolean().default(true).describe('Whether the service is active. Default true; an active service needs its required fields.'),
    properties: z
      .record(z.string(), z.union([z.string(), z.boolean(), z.int()]))
      .default({})
      .describe('Its fields by name, as the PUT takes them ({api_key: "x", restrict_to_branch: "main"}); secrets are stored, never shown.'),
    ...flagsShape,
    created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
    updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  })
  .superRefine((service, ctx) => {
    const definition = SERVICE_BY_SLUG.get(service.slug)
    if (!definition) return
    const fields = new Map(definition.fields.map((f) => [f.name, f]))
    for (const [name, value] of Object.entries(service.properties)) {
      const field = fields.get(name)
      if (!field || Object.prototype.hasOwnProperty.call(SERVICE_EVENT_FLAGS, name)) {
        const names = definition.fields.map((f) => f.name).filter((n) => !Object.prototype.hasOwnProperty.call(SERVICE_EVENT_FLAGS, n))
        ctx.addIssue({ code: 'custom', path: ['properties', name], message: `is no field of ${service.slug} (its fields: ${names.join(', ') || 'none'}; event flags go beside properties)` })
      } else if (field.type === 'boolean' && typeof value !== 'boolean') {
        ctx.addIssue({ code: 'custom', path: ['properties', name], message: 'must be true or false' })
      } else if (field.type === 'integer' && typeof value !== 'number') {
        ctx.addIssue({ code: 'custom', path: ['properties', name], message: 'must be an integer' })
      }
    }
    if (service.active) {
      for (const field of definition.fields) {
        const value = service.properties[field.name]
        if (field.required && !Object.prototype.hasOwnProperty.call(SERVICE_EVENT_FLAGS, field.name) && (value === undefined || value === '')) {
          ctx.addIssue({ code: 'custom', path: ['properties'], message: `an active ${service.slug} service needs ${field.name}` })
        }
      }
    }
  })

const fields = {
  services: z.array(serviceSchema).default([]).describe('The project\'s integrations (GET /projects/:id/services); at most one per slug.'),
}

/** The `services` field of projects, as parsed. */
export type ServiceFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends ServiceFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The services fragment (see the module comment). */
export const serviceFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'services', field: 'services', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      const seen = new Set<string>()
      const list = project.value.services
      if (!Array.isArray(list)) continue
      list.forEach((service: unknown, i) => {
        const slug = service !== null && typeof service === 'object' ? (service as { slug?: unknown }).slug : undefined
        if (typeof slug !== 'string') return
        if (seen.has(slug)) ctx.report({ source: project.source, path: [...project.path, 'services', i, 'slug'] }, `service "${slug}" is given twice`)
        seen.add(slug)
      })
    }
  },
  load: {
    project(ctx, project, parent) {
      project.services.forEach((service) => {
        const f = ctx.fake(`service:${parent.key}:${service.slug}`)
        const flags = Object.fromEntries(
          (Object.keys(SERVICE_EVENT_FLAGS) as ServiceEventFlag[]).map((flag) => [flag, service[flag] ?? SERVICE_EVENT_FLAGS[flag]]),
        ) as Record<ServiceEventFlag, boolean>
        const record: ServiceRecord = {
          id: ctx.idOf(service),
          project_id: parent.id,
          slug: service.slug,
          active: service.active,
          properties: { ...service.properties },
          ...flags,
          ...ctx.timestamps(f, service, parent.createdAt),
        }
        ctx.stage('services', record)
      })
    },
  },
}
