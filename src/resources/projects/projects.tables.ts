/**
 * The projects area's columns on core's project record that only this area and the merge
 * requests it governs read. gitlab: db/structure.sql (`projects.merge_requests_ff_only_enabled`,
 * `projects.merge_requests_rebase_enabled`, which `Project#merge_method` reads as one value).
 * @module
 */

/** `Project#merge_method` (13.x): `merge` (merge commit), `rebase_merge` (semi-linear), `ff` (fast-forward only). */
export type MergeMethod = 'merge' | 'rebase_merge' | 'ff'

/** The methods in the order of 13.x's `values: %w(ff rebase_merge merge)` (lib/api/helpers/projects_helpers.rb). */
export const MERGE_METHODS = ['ff', 'rebase_merge', 'merge'] as const satisfies readonly MergeMethod[]

declare module '../../db/schema.js' {
  interface ProjectRecord {
    /**
     * How merge requests merge (`Project#merge_method`); absent reads `merge`, GitLab's default.
     * `rebase_merge` and `ff` require the source to contain the target's tip (`ff_merge_must_be_possible?`).
     */
    merge_method?: MergeMethod
  }
}
