/**
 * The pages area's table: a project's GitLab Pages domains. gitlab: db/structure.sql
 * `pages_domains` (13.12), app/models/pages_domain.rb.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A custom domain of a project's Pages site, with its certificate when one was given. */
export interface PagesDomainRecord extends Row {
  project_id: number
  /** The host name as given (unique case-insensitively across the instance). */
  domain: string
  /** The random part of the TXT record (32 hex digits); the entity prefixes `gitlab-pages-verification-code=`. */
  verification_code: string
  /** When the TXT record was last seen; null while unverified (the entity's `verified`). */
  verified_at: Timestamp | null
  /** Until when the domain is served without a new verification; null while unverified. */
  enabled_until: Timestamp | null
  /** Let's Encrypt certificates wanted (13.12 `auto_ssl_enabled`). */
  auto_ssl_enabled: boolean
  /** The PEM certificate (chain) as given, or null. */
  certificate: string | null
  /** The PEM private key as given, or null (never shown). */
  key: string | null
  /** `user_provided` once a client set the certificate or key, else `gitlab_provided`. */
  certificate_source: 'user_provided' | 'gitlab_provided'
  /** The certificate's facts, read when it was written (see `pages.certificate.ts`); null without one. */
  certificate_facts: CertificateFacts | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** What fakelab reads once from a stored certificate, for the entities. */
export interface CertificateFacts {
  /** OpenSSL's one-line subject (`/O=Example/CN=example.com`). */
  subject: string
  /** `notBefore`, as an ISO 8601 instant. */
  not_before: Timestamp
  /** `notAfter`, as an ISO 8601 instant. */
  not_after: Timestamp
  /** A text rendering of the certificate (see `certificateText`). */
  text: string
}

declare module '../../db/schema.js' {
  interface Tables {
    pages_domains: PagesDomainRecord
  }
}

/** The table, indexed by project. */
export const pagesTables = {
  pages_domains: table<PagesDomainRecord>(['project_id']),
}
