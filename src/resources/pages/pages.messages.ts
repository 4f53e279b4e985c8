/**
 * The pages area's validation messages (inside `validationFailed` bodies) and Grape texts.
 * gitlab: app/models/pages_domain.rb, app/validators/certificate_validator.rb,
 * app/validators/certificate_key_validator.rb (13.12); validates_hostname 1.0.x's `DEFAULT_ERROR_MSG`.
 * @module
 */

/** `PagesDomain` validation messages as GitLab 13.12 words them. */
export const PagesValidationMessage = {
  /** `CertificateValidator`. */
  invalidCertificate: 'must be a valid PEM certificate',
  /** `CertificateKeyValidator`. */
  invalidKey: 'must be a valid PEM private key',
  /** `validate_matching_key`. */
  keyMismatch: "doesn't match the certificate",
  /** `validate_intermediates`. */
  missesIntermediates: 'misses intermediates',
  /** `validate_pages_domain`: a subdomain of the instance's Pages host. */
  reservedDomain: (host: string) =>
    `Subdomains of the Pages root domain ${host} are reserved and cannot be used as custom Pages domains.`,
  /** validates_hostname: the whole name. */
  hostnameLength: 'must be between 1 and 255 characters long',
  /** validates_hostname's label check (which, in 1.0.x, measures the whole name). */
  labelLength: 'must be between 1 and 63 characters long',
  labelHyphen: 'begins or ends with hyphen',
  labelCharacters: 'contains invalid characters (valid characters: [a-z0-9\\-])',
  consecutiveDots: 'must not contain consecutive dots',
  endsWithDot: 'must not end with a dot',
} as const

/** Grape's `all_or_none_of :certificate, :key` text. */
export const CERTIFICATE_AND_KEY = 'certificate, key provide all or none of parameters'
