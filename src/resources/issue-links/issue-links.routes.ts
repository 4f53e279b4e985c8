/**
 * Issue links: list an issue's related issues, link two issues, delete a link. Every route needs a
 * signed-in user (`before { authenticate! }`) and declares the pagination params (`use :pagination`
 * on the resource). What 13.x does, kept here:
 * - the list paginates the issue's links, then leaves out the issues the caller cannot read (a page
 *   may hold fewer than `per_page`; `paginate_issue_links`, on from 13.11);
 * - `POST` finds the source (`find_project_issue`) and the target (`find_project_issue(iid,
 *   target_project_id)`: 404 Project Not Found, 404 Not found), then the service decides;
 * - `DELETE` finds the link by id first (`IssueLink.find`: any link, whether or not the path's issue
 *   is one of its ends), then the path's issue, then the link's target, and needs `admin_issue_link`
 *   on both ends of the link.
 * `GET …/links/:issue_link_id` came in 15.1 and is not a 13.x route.
 * Sources: issue 25 item 6; gitlab: lib/api/issue_links.rb (13.11–13.12), spec/requests/api/issue_links_spec.rb.
 * @module
 */
import { recordNotFound } from '../../core/errors.js'
import { paginate, paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { created, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { findProjectIssue, issueById, issuePageFacts, subscribedToIssue } from '../issues/issues.public.js'
import { IssueLink, RelatedIssue } from './issue-links.entities.js'
import { createLink, destroyLink, LINK_TYPES, linksOf, relatedIssues, type LinkType } from './issue-links.service.js'

const issueIid = { id: p.string({ required: true }), issue_iid: p.integer({ required: true }), ...paginationParams } as ParamSpecs

/** The project and its issue (`find_project_issue`): 404 Project Not Found, then 404 Not found. */
function sourceIssue(ctx: Ctx<{ id: string; issue_iid: number }>) {
  const project = findProject(ctx, ctx.params.id)
  return { project, issue: findProjectIssue(ctx, project, ctx.params.issue_iid) }
}

/** The issue link routes (see the module comment). */
export const issueLinkRoutes: Route[] = [
  route('GET /projects/:id/issues/:issue_iid/links', {
    params: issueIid,
    handler(ctx) {
      const { project, issue } = sourceIssue(ctx as unknown as Ctx<{ id: string; issue_iid: number }>)
      const page = paginate(ctx as never, linksOf(ctx.db, issue))
      const related = relatedIssues(ctx, issue, page.rows)
      const facts = issuePageFacts(ctx, related.map((r) => r.issue))
      const body = related.map((r) => RelatedIssue(r, ctx, facts, project, subscribedToIssue(ctx.db, r.issue, ctx.currentUser)))
      return ok(body, page.headers)
    },
  }),

  route('POST /projects/:id/issues/:issue_iid/links', {
    params: {
      ...issueIid,
      target_project_id: p.string({ required: true }),
      target_issue_iid: p.integer({ required: true }),
      link_type: p.string({ values: LINK_TYPES }),
    } as ParamSpecs,
    handler(ctx) {
      const { issue: source } = sourceIssue(ctx as unknown as Ctx<{ id: string; issue_iid: number }>)
      const targetProject = findProject(ctx, ctx.params.target_project_id as string)
      const target = findProjectIssue(ctx, targetProject, ctx.params.target_issue_iid as number)
      const link = createLink(ctx, source, target, ctx.params.link_type as LinkType | undefined)
      return created(IssueLink(link, issueById(ctx.db, link.source_id)!, issueById(ctx.db, link.target_id)!, ctx))
    },
  }),

  route('DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id', {
    params: { ...issueIid, issue_link_id: p.integer({ required: true }) } as ParamSpecs,
    handler(ctx) {
      const link = ctx.db.tables.issue_links.get(ctx.params.issue_link_id as number)
      const source = link && issueById(ctx.db, link.source_id)
      const target = link && issueById(ctx.db, link.target_id)
      if (!link || !source || !target) throw recordNotFound()
      sourceIssue(ctx as unknown as Ctx<{ id: string; issue_iid: number }>)
      findProjectIssue(ctx, findProject(ctx, target.project_id), target.iid)
      destroyLink(ctx, link, source, target)
      return ok(IssueLink(link, source, target, ctx))
    },
  }),
]
