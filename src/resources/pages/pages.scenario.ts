/**
 * The pages part of the scenario format: `pages_domains:` of projects (custom domains of the
 * project's Pages site, with a certificate and key when given), loaded into `pages_domains`.
 * Source: STYLE.md §10; gitlab: app/models/pages_domain.rb (13.12).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { items, str } from '../../scenario/entries.js'
import { at } from '../../scenario/problems.js'
import { certificateSupport, checkCertificate } from './pages.certificate.js'
import type { PagesDomainRecord } from './pages.tables.js'

const pemCertificate = z.string().refine((pem) => !certificateSupport() || checkCertificate(pem, null).certificateValid, {
  error: 'must be a PEM certificate (-----BEGIN CERTIFICATE-----)',
})
const pemKey = z.string().refine((pem) => !certificateSupport() || checkCertificate(null, pem).keyValid, {
  error: 'must be a PEM private key (-----BEGIN PRIVATE KEY-----)',
})

/** A custom domain of the project's Pages site. */
const pagesDomainSchema = z
  .strictObject({
    id: idSchema.optional().describe('Record id; the next free one when absent.'),
    domain: z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/i, 'must be a host name such as "www.example.org"').describe('The host name ("www.example.org"); unique across the instance, case-insensitively.'),
    certificate: pemCertificate.optional().describe('A PEM certificate (chain) for the domain; its key must be given too. The entity then shows its subject and expiry.'),
    key: pemKey.optional().describe('The PEM private key of the certificate (never shown by the API).'),
    auto_ssl_enabled: z.boolean().default(false).describe("Whether Let's Encrypt certificates are wanted. Default false."),
    verified: z.boolean().default(false).describe('Whether the domain has been verified (its TXT record seen): `verified` in the entity. Default false.'),
    enabled_until: timestampSchema.optional().describe('Until when a verified domain is served (ISO 8601); a week after updated_at when verified and absent.'),
    verification_code: z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex digits').optional().describe('The random part of the TXT record (32 hex digits); faker when absent.'),
    created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
    updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
  })
  .refine((d) => (d.certificate === undefined) === (d.key === undefined), { error: 'certificate and key go together: give both or neither', path: ['key'] })

const fields = {
  pages_domains: z.array(pagesDomainSchema).default([]).describe('Custom domains of the project\'s Pages site (GET /projects/:id/pages/domains).'),
}

/** The `pages_domains` field of projects, as parsed. */
export type PagesDomainFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends PagesDomainFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

const WEEK_MS = 7 * 24 * 3600 * 1000

/** The pages fragment (see the module comment). */
export const pagesFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'pages_domains', field: 'pages_domains', on: ['project'] }],
  check(ctx) {
    // `validates :domain, uniqueness: { case_sensitive: false }` across the instance.
    const seen = new Set<string>()
    for (const project of ctx.model.project) {
      for (const domain of items(project, 'pages_domains')) {
        const name = str(domain.value.domain)
        if (name === undefined) continue
        if (seen.has(name.toLowerCase())) ctx.report(at(domain, 'domain'), `domain "${name}" has already been taken (domains are unique across the instance, case-insensitively)`)
        seen.add(name.toLowerCase())
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      project.pages_domains.forEach((domain, i) => {
        const f = ctx.fake(`pages_domain:${parent.key}:${i}`)
        const times = ctx.timestamps(f, domain, parent.createdAt)
        const check = domain.certificate ? checkCertificate(domain.certificate, domain.key ?? null) : null
        const record: PagesDomainRecord = {
          id: ctx.idOf(domain),
          project_id: parent.id,
          domain: domain.domain,
          verification_code: domain.verification_code ?? f.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' }),
          verified_at: domain.verified ? times.updated_at : null,
          enabled_until: domain.enabled_until ?? (domain.verified ? new Date(Date.parse(times.updated_at) + WEEK_MS).toISOString() : null),
          auto_ssl_enabled: domain.auto_ssl_enabled,
          certificate: domain.certificate ?? null,
          key: domain.key ?? null,
          certificate_source: domain.certificate ? 'user_provided' : 'gitlab_provided',
          certificate_facts: check?.facts ?? null,
          ...times,
        }
        ctx.stage('pages_domains', record)
      })
    },
  },
}
