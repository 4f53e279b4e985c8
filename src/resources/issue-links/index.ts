/**
 * The issue links area: an issue's related issues (list), linking two issues (`relates_to`,
 * `blocks`, `is_blocked_by`), deleting a link; the `issue_links` table and `issue_links:` of
 * scenario projects. gitlab: lib/api/issue_links.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { issueLinkFragment } from './issue-links.scenario.js'
import { issueLinkTables } from './issue-links.tables.js'
import type { IssueLink as IssueLinkPresenter, RelatedIssue as RelatedIssuePresenter } from './issue-links.entities.js'

export type { IssueLinkRecord } from './issue-links.tables.js'
export type { IssueLinkFields } from './issue-links.scenario.js'

/** GitLab's `RelatedIssue` entity, as fakelab sends it. */
export type RelatedIssue = ReturnType<typeof RelatedIssuePresenter>
/** GitLab's `IssueLink` entity, as fakelab sends it. */
export type IssueLink = ReturnType<typeof IssueLinkPresenter>

/** The issue links area. */
export const issueLinks: Area = {
  name: 'issue-links',
  load: async () => {
    const { issueLinkRoutes } = await import('./issue-links.routes.js')
    return { api: issueLinkRoutes }
  },
  tables: issueLinkTables,
  scenario: issueLinkFragment,
  // `source_id` and `target_id` reference issues `ON DELETE CASCADE`.
  cascade: [
    { kind: 'cascade', table: 'issue_links', column: 'source_id', parent: 'issues' },
    { kind: 'cascade', table: 'issue_links', column: 'target_id', parent: 'issues' },
  ],
}
