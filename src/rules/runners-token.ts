/**
 * The `runners_token` rule GitLab's `RunnersTokenPrefixable` concern gives three models in three
 * areas (a project's and a group's `runners_token`, the instance's
 * `runners_registration_token`): the prefix of a registration token. Shared here because the
 * projects, groups and runners areas each generate such tokens and may not import each other.
 * Source: gitlab-behaviour.md (runner registration tokens); gitlab:
 * app/models/concerns/runners_token_prefixable.rb.
 * @module
 */
import type { Faker } from '@faker-js/faker'
import { friendlyToken } from './tokens.js'

/** `RunnersTokenPrefixable::RUNNERS_TOKEN_PREFIX`. */
export const RUNNERS_TOKEN_PREFIX = 'GR1348941'

/**
 * A runner registration token of the instance, a group or a project: {@link RUNNERS_TOKEN_PREFIX}
 * followed by 20 letters and digits, drawn from the given (seeded) faker.
 */
export function runnersRegistrationToken(faker: Faker): string {
  return friendlyToken(faker, RUNNERS_TOKEN_PREFIX)
}
