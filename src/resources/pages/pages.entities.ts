/**
 * The Pages domain entities: `PagesDomain` (project routes) and `PagesDomainBasic` (the admin list),
 * with their certificate parts. gitlab: lib/api/entities/pages_domain.rb, pages_domain_basic.rb,
 * pages_domain_certificate.rb, pages_domain_certificate_expiration.rb; app/models/pages_domain.rb
 * (`url`, `verification_code`, `expired?`) (13.12).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { PagesDomainRecord } from './pages.tables.js'

/** `PagesDomainCertificate`: `{subject, expired, certificate, certificate_text}`. */
export interface PagesDomainCertificateEntity {
  subject: string | null
  expired: boolean
  certificate: string
  certificate_text: string | null
}

/** `PagesDomainCertificateExpiration`: `{expired, expiration}`. */
export interface PagesDomainCertificateExpirationEntity {
  expired: boolean
  expiration: string | null
}

/** `PagesDomain`, in its field order; `certificate` only when one is stored. */
export interface PagesDomainEntity {
  domain: string
  url: string
  verified: boolean
  verification_code: string
  enabled_until: string | null
  auto_ssl_enabled: boolean
  certificate?: PagesDomainCertificateEntity
}

/** `PagesDomainBasic`, in its field order; `certificate_expiration` only when a certificate is stored. */
export interface PagesDomainBasicEntity {
  domain: string
  url: string
  project_id: number
  verified: boolean
  verification_code: string
  enabled_until: string | null
  auto_ssl_enabled: boolean
  certificate_expiration?: PagesDomainCertificateExpirationEntity
}

/** `certificate.present?`. */
function hasCertificate(domain: PagesDomainRecord): domain is PagesDomainRecord & { certificate: string } {
  return domain.certificate !== null && domain.certificate.trim() !== ''
}

/** `PagesDomain#url`: https with a certificate, http without. */
function url(domain: PagesDomainRecord): string {
  return `${hasCertificate(domain) ? 'https' : 'http'}://${domain.domain}`
}

/** `expired?`: now before `notBefore` or after `notAfter`; false when the certificate cannot be read. */
function expired(domain: PagesDomainRecord, now: string): boolean {
  const facts = domain.certificate_facts
  if (!facts) return false
  const at = Date.parse(now)
  return at < Date.parse(facts.not_before) || Date.parse(facts.not_after) < at
}

/** `verification_code`: the TXT record's whole text. */
function verificationCode(domain: PagesDomainRecord): string {
  return `gitlab-pages-verification-code=${domain.verification_code}`
}

/** GitLab's `Entities::PagesDomain`. */
export function PagesDomain(domain: PagesDomainRecord, ctx: PresentCtx): PagesDomainEntity {
  const entity: PagesDomainEntity = {
    domain: domain.domain,
    url: url(domain),
    verified: domain.verified_at !== null,
    verification_code: verificationCode(domain),
    enabled_until: domain.enabled_until,
    auto_ssl_enabled: domain.auto_ssl_enabled,
  }
  if (hasCertificate(domain)) {
    entity.certificate = {
      subject: domain.certificate_facts?.subject ?? null,
      expired: expired(domain, ctx.now),
      certificate: domain.certificate,
      certificate_text: domain.certificate_facts?.text ?? null,
    }
  }
  return entity
}

/** GitLab's `Entities::PagesDomainBasic` (the admin list's items). */
export function PagesDomainBasic(domain: PagesDomainRecord, ctx: PresentCtx): PagesDomainBasicEntity {
  const entity: PagesDomainBasicEntity = {
    domain: domain.domain,
    url: url(domain),
    project_id: domain.project_id,
    verified: domain.verified_at !== null,
    verification_code: verificationCode(domain),
    enabled_until: domain.enabled_until,
    auto_ssl_enabled: domain.auto_ssl_enabled,
  }
  if (hasCertificate(domain)) {
    entity.certificate_expiration = {
      expired: expired(domain, ctx.now),
      expiration: domain.certificate_facts?.not_after ?? null,
    }
  }
  return entity
}
