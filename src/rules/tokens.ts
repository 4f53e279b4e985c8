/**
 * Formats of the secrets GitLab generates, for values the simulator makes up (scenario loading,
 * and later runner registration). Source: gitlab-behaviour.md (runner registration tokens).
 * @module
 */
import type { Faker } from '@faker-js/faker'

/**
 * A runner registration token of a group or project: `GR1348941` followed by 20 letters and
 * digits, drawn from the given (seeded) faker.
 */
export function runnersRegistrationToken(faker: Faker): string {
  return `GR1348941${faker.string.alphanumeric(20)}`
}
