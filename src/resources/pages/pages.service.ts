/**
 * Pages domains: lookups, the model's validations and the writes, as GitLab 13.12's
 * `PagesDomain` does them, and unpublishing a project's Pages site. gitlab: app/models/pages_domain.rb,
 * app/services/pages/delete_service.rb, lib/api/pages_domains.rb, lib/api/pages.rb (13.12).
 * @module
 */
import { notFound, validationFailed, ValidationMessage } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { checkCertificate } from './pages.certificate.js'
import { PagesValidationMessage as M } from './pages.messages.js'
import type { PagesDomainRecord } from './pages.tables.js'

/**
 * The host of the instance's Pages sites (`Settings.pages.host`): gitlab.yml's default,
 * `example.com`. A custom domain may not be it or below it.
 */
const PAGES_HOST = 'example.com'

/** What a client sets on a domain (`user_provided_certificate`, `user_provided_key`, `auto_ssl_enabled`). */
export interface PagesDomainAttributes {
  certificate?: string | null | undefined
  key?: string | null | undefined
  auto_ssl_enabled?: boolean | undefined
}

/** Every Pages domain of the instance, by id (`PagesDomain.all`, the admin list). */
export function listAllPagesDomains(db: Db): PagesDomainRecord[] {
  return [...db.tables.pages_domains.all()].sort((a, b) => a.id - b.id)
}

/** A project's Pages domains ordered by name (`pages_domains.order(:domain)`), the id breaking ties. */
export function listPagesDomains(db: Db, project: ProjectRecord): PagesDomainRecord[] {
  return db.tables.pages_domains
    .where('project_id', project.id)
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : a.id - b.id))
}

/**
 * `user_project.pages_domains.find_by(domain:)`: exact, case-sensitive, as PostgreSQL compares.
 * @throws ApiError 404 `{"message":"404 PagesDomain Not Found"}`.
 */
export function findPagesDomain(db: Db, project: ProjectRecord, domain: string): PagesDomainRecord {
  const found = db.tables.pages_domains.where('project_id', project.id).find((d) => d.domain === domain)
  if (!found) throw notFound('PagesDomain')
  return found
}

/** validates_hostname 1.0.x with `allow_numeric_hostname: true`, message by message. */
function hostnameErrors(value: string): string[] {
  const errors: string[] = []
  if (value.length < 1 || value.length > 255) errors.push(M.hostnameLength)
  // Ruby's `split('.')` drops trailing empty fields.
  const labels = value.split('.')
  while (labels.length > 0 && labels.at(-1) === '') labels.pop()
  for (const label of labels) {
    // The gem's "label" length check measures the whole value (its 1.0.x bug), once per label.
    if (value.length < 1 || value.length > 63) errors.push(M.labelLength)
    if (label.startsWith('-') || label.endsWith('-')) errors.push(M.labelHyphen)
    if (!/^[a-z0-9-]+$/i.test(label)) errors.push(M.labelCharacters)
  }
  if (value.includes('..')) errors.push(M.consecutiveDots)
  if (value.endsWith('.')) errors.push(M.endsWithDot)
  return errors
}

/**
 * The model's validations in their declared order; the certificate facts when it parses.
 * `changedCertificate`: whether the certificate is being written (`validate_intermediates` runs only then).
 */
function validate(db: Db, values: PagesDomainRecord, changedCertificate: boolean): PagesDomainRecord['certificate_facts'] {
  const errors: Record<string, string[]> = {}
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message)
  for (const message of hostnameErrors(values.domain)) add('domain', message)
  const lower = values.domain.toLowerCase()
  if (db.tables.pages_domains.all().some((d) => d.id !== values.id && d.domain.toLowerCase() === lower)) add('domain', ValidationMessage.taken)
  const cert = values.certificate ?? null
  const key = values.key ?? null
  const check = checkCertificate(blank(cert) ? null : cert, blank(key) ? null : key)
  if (!blank(cert) && !check.certificateValid) add('certificate', M.invalidCertificate)
  if (!blank(key) && !check.keyValid) add('key', M.invalidKey)
  if (lower.endsWith(`.${PAGES_HOST}`) || lower === PAGES_HOST) add('domain', M.reservedDomain(PAGES_HOST))
  if ((!blank(cert) || !blank(key)) && !check.matching) add('key', M.keyMismatch)
  if (!blank(cert) && changedCertificate && !check.intermediates) add('certificate', M.missesIntermediates)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return blank(cert) ? null : check.facts
}

/** `SecureRandom.hex(16)`, from the simulator's seeded faker. */
export type HexSource = () => string

/**
 * `project.pages_domains.create(params)`: validates, then stores an unverified domain with a new
 * verification code. A certificate or key given makes the source `user_provided`.
 * @throws ApiError 400 `{"message":{"domain":["has already been taken"]}}` and the like.
 */
export function createPagesDomain(
  db: Db,
  project: ProjectRecord,
  domain: string,
  attrs: PagesDomainAttributes,
  now: string,
  hex: HexSource,
): PagesDomainRecord {
  const given = attrs.certificate !== undefined || attrs.key !== undefined
  const draft: PagesDomainRecord = {
    id: 0,
    project_id: project.id,
    domain,
    verification_code: hex(),
    verified_at: null,
    enabled_until: null,
    auto_ssl_enabled: attrs.auto_ssl_enabled ?? false,
    certificate: attrs.certificate ?? null,
    key: attrs.key ?? null,
    certificate_source: given ? 'user_provided' : 'gitlab_provided',
    certificate_facts: null,
    created_at: now,
    updated_at: now,
  }
  const facts = validate(db, draft, !blank(draft.certificate))
  const { id: _id, ...row } = draft
  return db.tables.pages_domains.insert({ ...row, certificate_facts: facts })
}

/**
 * `pages_domain.update(params)`: only the given attributes change; on failure nothing changes.
 * `updated_at` moves only when a stored value changes.
 * @throws ApiError 400 `{"message":{"key":["doesn't match the certificate"]}}` and the like.
 */
export function updatePagesDomain(db: Db, domain: PagesDomainRecord, attrs: PagesDomainAttributes, now: string): PagesDomainRecord {
  const next: PagesDomainRecord = {
    ...domain,
    certificate: attrs.certificate !== undefined ? attrs.certificate : domain.certificate,
    key: attrs.key !== undefined ? attrs.key : domain.key,
    auto_ssl_enabled: attrs.auto_ssl_enabled ?? domain.auto_ssl_enabled,
  }
  const certificateChanged = next.certificate !== domain.certificate
  const facts = validate(db, next, certificateChanged)
  const keyChanged = next.key !== domain.key
  const changed = certificateChanged || keyChanged || next.auto_ssl_enabled !== domain.auto_ssl_enabled
  if (!changed) return domain
  return db.tables.pages_domains.update(domain.id, {
    certificate: next.certificate,
    key: next.key,
    auto_ssl_enabled: next.auto_ssl_enabled,
    // `user_provided_certificate=` / `user_provided_key=` mark the source when they change a value.
    certificate_source: certificateChanged || keyChanged ? 'user_provided' : domain.certificate_source,
    certificate_facts: facts,
    updated_at: now,
  })
}

/** `pages_domain.destroy`. */
export function deletePagesDomain(db: Db, domain: PagesDomainRecord): void {
  db.tables.pages_domains.delete(domain.id)
}

/**
 * `Pages::DeleteService#execute` (13.12): the site is marked not deployed and the project's Pages
 * domains are deleted (`project.pages_domains.delete_all`); the deployed files go with a worker,
 * and fakelab serves none.
 */
export function unpublishPages(db: Db, project: ProjectRecord): void {
  for (const domain of db.tables.pages_domains.where('project_id', project.id)) db.tables.pages_domains.delete(domain.id)
}
