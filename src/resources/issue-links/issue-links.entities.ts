/**
 * `Entities::RelatedIssue` (an issue of the list: the `Issue` entity, then `issue_link_id`,
 * `link_type`, `link_created_at`, `link_updated_at`) and `Entities::IssueLink` (what create and
 * delete answer: `{source_issue, target_issue, link_type}`, both issues as `IssueBasic`, the
 * stored type). gitlab: lib/api/entities/related_issue.rb, lib/api/entities/issue_link.rb (13.x).
 * @module
 */
import type { PresentCtx } from '../../entities/urls.js'
import type { ProjectRecord, Tables } from '../../db/schema.js'
import { Issue, IssueBasic, issuePageFacts, type IssuePageFacts } from '../issues/issues.public.js'
import type { IssueLinkRecord } from './issue-links.tables.js'
import type { RelatedIssue as Related } from './issue-links.service.js'

/**
 * One related issue: the `Issue` entity as the single-issue route shows it (with `subscribed`, and
 * `references` relative to the request's project), then the link's fields.
 */
export function RelatedIssue(related: Related, ctx: PresentCtx, facts: IssuePageFacts, from: ProjectRecord, subscribed: boolean) {
  return {
    ...Issue(related.issue, ctx, facts, { from: { project: from }, subscribed }),
    issue_link_id: related.link.id,
    link_type: related.linkType,
    link_created_at: related.link.created_at,
    link_updated_at: related.link.updated_at,
  }
}

/** A link with both its issues. */
export function IssueLink(link: IssueLinkRecord, source: Tables['issues'], target: Tables['issues'], ctx: PresentCtx) {
  const facts = issuePageFacts(ctx, [source, target])
  const basic = (issue: Tables['issues']) => IssueBasic(issue, ctx, { lookups: facts.lookups, mergeRequestsCount: facts.mergeRequestsCount.get(issue.id) ?? 0 })
  return { source_issue: basic(source), target_issue: basic(target), link_type: link.link_type }
}
