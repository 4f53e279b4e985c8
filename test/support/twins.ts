/**
 * Project/group twins: one table of cases run for each `source_type`, as GitLab's routes are one
 * definition looped over `source_type` (`members.rb`, `resource_access_tokens.rb`) and its specs
 * share examples (`shared_examples 'GET /:source_type/:id/members'`). STYLE.md §4 and §14.
 *
 * A case gives its title and, per source type, the data that differs (ids, users, bodies). A case
 * that gives one source type only runs for that one: say in its title or a comment why it has no twin.
 * @example
 * twins('answers %s', [
 *   ['anonymous', { project: [20, undefined], group: [10, undefined] }],
 * ], async ([id, as], source) => {
 *   expect(await api.get(`${source.path(id)}/labels`, { as })).toBeGitLabError(401, { message: '401 Unauthorized' })
 * })
 */
import { it } from 'vitest'

/** GitLab's `source_type` of a member, an access token, a label's owner... */
export type SourceType = 'project' | 'group'

/** What a test needs to know about one source type. */
export interface Source {
  type: SourceType
  /** `/projects/20` for `path(20)`; `path('acme%2Fplatform')` for a full path. */
  path(id: number | string): string
  /** GitLab's 404 body for a source the caller cannot see: `{ message: '404 Project Not Found' }`. */
  notFound: { message: string }
}

export const SOURCES: Readonly<Record<SourceType, Source>> = {
  project: { type: 'project', path: (id) => `/projects/${id}`, notFound: { message: '404 Project Not Found' } },
  group: { type: 'group', path: (id) => `/groups/${id}`, notFound: { message: '404 Group Not Found' } },
}

/** One twin case: its title, and per source type the data the body needs (absent: no such case for that type). */
export type TwinCase<T> = readonly [title: string, data: Partial<Record<SourceType, T>>]

/**
 * Registers one test per case and source type, titled `<title> (<source type>)` through `name`'s
 * `%s`, projects first. `body` gets the case's data for the source type and that source.
 */
export function twins<T>(name: string, cases: readonly TwinCase<T>[], body: (data: T, source: Source) => Promise<void>): void {
  const rows = cases.flatMap(([title, data]) =>
    (['project', 'group'] as const).flatMap((type) => (type in data ? [[`${title} (${type})`, type, data[type] as T] as const] : [])),
  )
  it.each(rows)(name, (_title, type, data) => body(data, SOURCES[type]))
}

/**
 * One case for both source types: a test per source type titled `<name> (<source type>)`, `body`
 * getting that type's data and source.
 * @example
 * twin('answers 412 when If-Unmodified-Since is older than the label', { project: [20, 'docs'], group: [10, 'feature'] }, async ([id, ref], source) => { ... })
 */
export function twin<T>(name: string, data: Partial<Record<SourceType, T>>, body: (data: T, source: Source) => Promise<void>): void {
  twins(`${name.replaceAll('%', '%%')} %s`, [['', data]], body)
}
