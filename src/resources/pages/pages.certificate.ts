/**
 * Reading a Pages domain's PEM certificate and key, as GitLab's `PagesDomain` does with Ruby's
 * OpenSSL: parse the first certificate, check the key is a private key that belongs to it, check
 * the chain reaches a trusted root (or the certificate is self-signed), and read its subject and
 * validity. The parsing is node:crypto's `X509Certificate`, read through
 * `process.getBuiltinModule` so the area stays browser-safe and a start loads nothing; outside Node
 * (a browser running the MSW door) nothing can be parsed, and {@link certificateSupport} says so.
 * gitlab: app/models/pages_domain.rb (`x509`, `pkey`, `has_matching_key?`, `has_intermediates?`,
 * `expired?`), app/validators/certificate_validator.rb, certificate_key_validator.rb (13.12).
 * @module
 */
import type { CertificateFacts } from './pages.tables.js'

interface X509 {
  readonly subject: string
  readonly issuer: string
  readonly validFrom: string
  readonly validTo: string
  readonly serialNumber: string
  readonly fingerprint256: string
  readonly subjectAltName: string | undefined
  readonly publicKey: unknown
  checkPrivateKey(key: unknown): boolean
  checkIssued(other: X509): boolean
  verify(key: unknown): boolean
}
interface NodeCrypto {
  X509Certificate: new (data: string) => X509
  createPrivateKey(data: string): unknown
}
interface NodeTls {
  readonly rootCertificates: readonly string[]
}

/** A Node built-in module by name, or undefined outside Node. */
function builtin<T>(name: string): T | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule
  try {
    return get ? (get(name) as T | undefined) : undefined
  } catch {
    return undefined
  }
}

let crypto: NodeCrypto | null | undefined
let roots: X509[] | undefined

function nodeCrypto(): NodeCrypto | null {
  crypto ??= builtin<NodeCrypto>('node:crypto') ?? null
  return crypto
}

/** Whether this runtime can read certificates (Node: yes; a browser: no). */
export function certificateSupport(): boolean {
  return nodeCrypto() !== null
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g

/** Every certificate of a PEM bundle that parses, in order. */
function bundle(c: NodeCrypto, pem: string): X509[] {
  const out: X509[] = []
  for (const block of pem.match(PEM_CERTIFICATE) ?? []) {
    try {
      out.push(new c.X509Certificate(block))
    } catch {
      // OpenSSL skips what it cannot read in the untrusted bundle too.
    }
  }
  return out
}

/** `OpenSSL::X509::Certificate.new(value)`: the first certificate, or null when the text holds none. */
function parse(c: NodeCrypto, pem: string): X509 | null {
  const first = pem.match(PEM_CERTIFICATE)?.[0]
  if (!first) return null
  try {
    return new c.X509Certificate(first)
  } catch {
    return null
  }
}

/** An OpenSSL date (`Jan  1 00:00:00 2030 GMT`) as an ISO 8601 instant. */
function instant(openssl: string): string {
  const ms = Date.parse(openssl)
  return Number.isNaN(ms) ? new Date(0).toISOString() : new Date(ms).toISOString()
}

/** node's subject (`C=US\nCN=a`) in Ruby's `X509::Name#to_s` form (`/C=US/CN=a`). */
function slashName(name: string): string {
  return name.split('\n').filter((part) => part !== '').map((part) => `/${part}`).join('')
}

/** OpenSSL's `-text` spelling of a name (`C = US, CN = a`). */
function commaName(name: string): string {
  return name.split('\n').filter((part) => part !== '').map((part) => part.replace('=', ' = ')).join(', ')
}

/**
 * `has_intermediates?`: true for a self-signed certificate; else the certificates after the first
 * (the untrusted bundle) must lead, each signed by the next, to a root Node trusts (`tls.rootCertificates`).
 */
function hasIntermediates(c: NodeCrypto, x509: X509, chain: X509[]): boolean {
  if (safe(() => x509.verify(x509.publicKey))) return true
  roots ??= (builtin<NodeTls>('node:tls')?.rootCertificates ?? []).flatMap((pem) => bundle(c, pem))
  let current = x509
  for (let depth = 0; depth < 10; depth++) {
    const signedBy = (issuer: X509) => safe(() => current.checkIssued(issuer) && current.verify(issuer.publicKey))
    if (roots.some(signedBy)) return true
    const next = chain.find((candidate) => candidate !== current && signedBy(candidate))
    if (!next) return false
    current = next
  }
  return false
}

function safe(check: () => boolean): boolean {
  try {
    return check()
  } catch {
    return false
  }
}

/** What a certificate and key pair is, as `PagesDomain`'s validators see it. */
export interface CertificateCheck {
  /** The certificate parses (`CertificateValidator`). */
  readonly certificateValid: boolean
  /** The key parses as a private key (`CertificateKeyValidator`). */
  readonly keyValid: boolean
  /** The key belongs to the certificate (`has_matching_key?`); false when either is missing. */
  readonly matching: boolean
  /** `has_intermediates?` (only meaningful when the certificate parses). */
  readonly intermediates: boolean
  /** The certificate's facts for the entities, or null when it does not parse. */
  readonly facts: CertificateFacts | null
}

/**
 * Checks a certificate and key as `PagesDomain`'s validations do (either may be null or blank).
 * Outside Node everything reads as valid and `facts` is null (see the module comment).
 */
export function checkCertificate(certificate: string | null, key: string | null): CertificateCheck {
  const c = nodeCrypto()
  if (!c) return { certificateValid: true, keyValid: true, matching: true, intermediates: true, facts: null }
  const x509 = certificate ? parse(c, certificate) : null
  let pkey: unknown = null
  if (key) {
    try {
      pkey = c.createPrivateKey(key)
    } catch {
      pkey = null
    }
  }
  return {
    certificateValid: x509 !== null,
    keyValid: pkey !== null,
    matching: x509 !== null && pkey !== null && safe(() => x509.checkPrivateKey(pkey)),
    intermediates: x509 !== null && hasIntermediates(c, x509, certificate ? bundle(c, certificate).slice(1) : []),
    facts: x509 ? facts(x509) : null,
  }
}

/** The facts the entities show, read from a parsed certificate. */
function facts(x509: X509): CertificateFacts {
  return {
    subject: slashName(x509.subject),
    not_before: instant(x509.validFrom),
    not_after: instant(x509.validTo),
    text: certificateText(x509),
  }
}

/**
 * The certificate as text, in the layout of OpenSSL's `X509_print` (`x509.to_text`), with the
 * parts node:crypto reads: serial number, issuer, validity, subject, subject alternative names and
 * the SHA-256 fingerprint. OpenSSL also prints the public key and the signature, which node does not
 * expose as text (docs/spec-gaps.md).
 */
function certificateText(x509: X509): string {
  const serial = (x509.serialNumber.length % 2 ? `0${x509.serialNumber}` : x509.serialNumber).toLowerCase().match(/../g) ?? []
  const lines = [
    'Certificate:',
    '    Data:',
    '        Serial Number:',
    `            ${serial.join(':')}`,
    `        Issuer: ${commaName(x509.issuer)}`,
    '        Validity',
    `            Not Before: ${x509.validFrom}`,
    `            Not After : ${x509.validTo}`,
    `        Subject: ${commaName(x509.subject)}`,
  ]
  if (x509.subjectAltName) {
    lines.push('        X509v3 extensions:', '            X509v3 Subject Alternative Name: ', `                ${x509.subjectAltName}`)
  }
  lines.push(`    SHA256 Fingerprint=${x509.fingerprint256}`)
  return `${lines.join('\n')}\n`
}
