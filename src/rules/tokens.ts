/**
 * The secrets GitLab generates for `TokenAuthenticatable` columns, for values the simulator makes
 * up (scenario loading, records created by requests): `Devise.friendly_token`'s 20 characters,
 * after the column's prefix if it has one. gitlab: app/models/concerns/token_authenticatable_strategies/base.rb.
 * @module
 */
import type { Faker } from '@faker-js/faker'

/**
 * A generated token: `prefix` followed by 20 letters and digits drawn from the given (seeded) faker.
 * @param prefix the column's token prefix (`TOKEN_PREFIX` of its model); none by default.
 */
export function friendlyToken(faker: Faker, prefix = ''): string {
  return `${prefix}${faker.string.alphanumeric(20)}`
}
