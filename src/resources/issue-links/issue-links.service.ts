/**
 * Issue links as GitLab 13.x (EE, where `blocks` and `is_blocked_by` are licensed) keeps them: an
 * issue's related issues as the caller may see them, creating a link, deleting one.
 * `admin_issue_link` is Reporter+ in the issue's project (administrators always).
 * Sources: issue 25 item 6; gitlab: app/models/issue.rb (`related_issues`, `issue_link_type`),
 * app/services/issuable_links/create_service.rb, app/services/issue_links/{create,destroy}_service.rb,
 * ee/app/services/ee/issue_links/create_service.rb, ee/app/models/ee/issue_link.rb,
 * app/policies/project_policy.rb (`admin_issue_link` for reporters).
 * @module
 */
import { apiMessage } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { Tables, UserRecord } from '../../db/schema.js'
import { AccessLevel, canReadProject, issueVisibleTo, projectAccessLevel } from '../../rules/access.js'
import { issueById } from '../issues/issues.public.js'
import { IssueLinkMessage } from './issue-links.messages.js'
import type { IssueLinkRecord } from './issue-links.tables.js'

type IssueRecord = Tables['issues']

/** The link types the API takes and shows. */
export const LINK_TYPES = ['relates_to', 'blocks', 'is_blocked_by'] as const

/** A link type as the API shows it, from one issue's side. */
export type LinkType = (typeof LINK_TYPES)[number]

/** Who is asking and when. */
export interface LinksCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
  readonly now: string
}

/** One of an issue's related issues, with the link as seen from that issue. */
export interface RelatedIssue {
  readonly issue: IssueRecord
  readonly link: IssueLinkRecord
  /** `issue_link_type`: the stored type from the asking issue's side (`blocks` seen from the blocked one is `is_blocked_by`). */
  readonly linkType: LinkType
}

/** `can?(user, :admin_issue_link, issue)`: Reporter+ in the issue's project, or an administrator. */
function canAdminIssueLink(ctx: LinksCtx, issue: IssueRecord): boolean {
  const user = ctx.currentUser
  if (!user) return false
  if (user.admin) return true
  const project = ctx.db.tables.projects.get(issue.project_id)
  return project !== undefined && projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER
}

/** `Ability.issues_readable_by_user`: the issue's project is readable and the issue visible in it. */
function readableBy(ctx: LinksCtx): (issue: IssueRecord) => boolean {
  return (issue) => {
    const project = ctx.db.tables.projects.get(issue.project_id)
    return project !== undefined && canReadProject(ctx.db, ctx.currentUser, project, ctx.today) && issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)(issue)
  }
}

/** The links of an issue, either end, in link id order (`reorder('issue_link_id')`). */
export function linksOf(db: Db, issue: IssueRecord): IssueLinkRecord[] {
  const links = [...db.tables.issue_links.where('source_id', issue.id), ...db.tables.issue_links.where('target_id', issue.id)]
  return links.sort((a, b) => a.id - b.id)
}

/** The issue at the other end of `link` from `issue`, with the link type from `issue`'s side. */
function otherEnd(db: Db, issue: IssueRecord, link: IssueLinkRecord): RelatedIssue | undefined {
  const outgoing = link.source_id === issue.id
  const other = issueById(db, outgoing ? link.target_id : link.source_id)
  if (!other) return undefined
  const linkType: LinkType = outgoing || link.link_type === 'relates_to' ? link.link_type : 'is_blocked_by'
  return { issue: other, link, linkType }
}

/**
 * `issue.related_issues(current_user)`: the issues at the other end of `links` (one page of the
 * issue's links, or all of them) that the caller can read, in link order.
 */
export function relatedIssues(ctx: LinksCtx, issue: IssueRecord, links: readonly IssueLinkRecord[]): RelatedIssue[] {
  const readable = readableBy(ctx)
  return links.flatMap((link) => {
    const related = otherEnd(ctx.db, issue, link)
    return related && readable(related.issue) ? [related] : []
  })
}

/**
 * `IssueLinks::CreateService` (EE): the target must not already be among the source's related
 * issues (409), the caller must `admin_issue_link` the target (404; 13.x does not check the source),
 * and the link must be valid (422: not to the issue itself). `is_blocked_by` stores a `blocks` link
 * from the target to the source; no type is `relates_to`.
 * @throws ApiError 409 `{"message":"Issue(s) already assigned"}`;
 *   404 `{"message":"No matching issue found. Make sure that you are adding a valid issue URL."}`;
 *   422 `{"message":"#1 cannot be added: cannot be related to itself"}`.
 */
export function createLink(ctx: LinksCtx, source: IssueRecord, target: IssueRecord, linkType: LinkType | undefined): IssueLinkRecord {
  const { db } = ctx
  if (relatedIssues(ctx, source, linksOf(db, source)).some((r) => r.issue.id === target.id)) throw apiMessage(409, IssueLinkMessage.alreadyAssigned)
  if (!canAdminIssueLink(ctx, target)) throw apiMessage(404, IssueLinkMessage.notFound)
  // `check_self_relation`; `to_reference` without a `from` is `#<iid>`.
  if (source.id === target.id) throw apiMessage(422, IssueLinkMessage.cannotBeAdded(`#${target.iid}`, IssueLinkMessage.selfRelation))
  const swapped = linkType === 'is_blocked_by'
  return db.tables.issue_links.insert({
    source_id: swapped ? target.id : source.id,
    target_id: swapped ? source.id : target.id,
    link_type: linkType === undefined || linkType === 'relates_to' ? 'relates_to' : 'blocks',
    created_at: ctx.now,
    updated_at: ctx.now,
  })
}

/**
 * `IssueLinks::DestroyService`: the caller must `admin_issue_link` both ends.
 * @throws ApiError 404 `{"message":"No Issue Link found"}`.
 */
export function destroyLink(ctx: LinksCtx, link: IssueLinkRecord, source: IssueRecord, target: IssueRecord): void {
  if (!canAdminIssueLink(ctx, source) || !canAdminIssueLink(ctx, target)) throw apiMessage(404, IssueLinkMessage.linkNotFound)
  ctx.db.tables.issue_links.delete(link.id)
}

