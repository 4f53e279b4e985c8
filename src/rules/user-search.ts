/**
 * `User.search`: the one user search of GitLab's lists (`GET /users`, `GET /projects/:id/users`).
 * A leading `@` is dropped; a user matches when their name or username holds every word of three
 * or more characters (or, with no such word, equals the query, case-insensitively), or when their
 * email equals the query. Matches are ordered exact name first, then exact username, then exact
 * email, then by name. gitlab: app/models/user.rb (`search`), lib/gitlab/sql/pattern.rb
 * (`fuzzy_arel_match` with `lower_exact_match: true`).
 * @module
 */
import type { UserRecord } from '../db/schema.js'
import { fuzzySearch } from './fuzzy-search.js'
import { blank } from '../core/ruby.js'

/**
 * The users of `users` that `query` finds, in `User.search`'s order (a new array).
 * @param query a non-blank search; a query that is blank once its `@` is gone finds no one.
 */
export function searchUsers(users: readonly UserRecord[], query: string): UserRecord[] {
  const wanted = query.replace(/^@/, '').toLowerCase()
  if (blank(wanted)) return []
  const matches = fuzzySearch(wanted, { useMinimumCharLimit: true })
  const rank = (u: UserRecord) =>
    u.name.toLowerCase() === wanted ? 0 : u.username.toLowerCase() === wanted ? 1 : u.email.toLowerCase() === wanted ? 2 : 3
  return users
    .filter((u) => matches(u.name, u.username) || u.email.toLowerCase() === wanted)
    .sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
