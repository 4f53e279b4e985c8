/**
 * The issues a merge request closes, read from its text as GitLab reads it: the closing statements
 * of the title, the description and the messages of its commits (`Closes #1`, `fixes group/project#2,
 * #3 and https://host/group/project/-/issues/4`, GitLab's default `issue_closing_pattern`), then the
 * issue references in them the user may read. `cacheClosesIssues` stores them as the merge
 * request's `merge_requests_closing_issues` links when the API creates or updates it, which
 * `closes_issues` lists and merging closes. Scenario merge requests keep their `closes:`.
 * Sources: gitlab: app/models/merge_request.rb (13.x `closes_issues`, `cache_merge_request_closes_issues!`),
 * lib/gitlab/closing_issue_extractor.rb, config/initializers/1_settings.rb (`issue_closing_pattern`),
 * app/models/issue.rb and app/models/project.rb (`reference_pattern`), lib/gitlab/path_regex.rb.
 * @module
 */
import { canReadProject, issueVisibleTo } from '../../rules/access.js'
import { issuableReference } from '../../entities/issuable.js'
import type { PresentCtx } from '../../entities/urls.js'
import type { ProjectRecord, Tables, UserRecord } from '../../db/schema.js'
import type { Db } from '../../db/db.js'
import { issueByIid } from '../issues/issues.public.js'
import { commitOf } from '../repository/repository.public.js'
import { mergeRequestCommits } from './merge-requests.git.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'
import { closingStatements, REFERENCE_OR_LINK } from './merge-requests.closing-pattern.js'

/**
 * The project a reference names from `from`: itself without a project part, a sibling (same
 * namespace) for a bare path, else the full path (`Project#to_reference_base`, read backwards).
 */
function referencedProject(db: Db, from: ProjectRecord, path: string | undefined): ProjectRecord | undefined {
  if (path === undefined) return from
  if (!path.includes('/')) return db.findProjectByFullPath(`${db.namespaceFullPath(from)}/${path}`)
  return db.findProjectByFullPath(path)
}

/**
 * `Gitlab::ReferenceExtractor#issues` over `text` from `project`, for `user`: each issue once, in
 * the order referenced, only those `user` may read (`read_issue`). A link counts when it is the web
 * URL of an issue here (`<baseUrl>/<full path>/-/issues/<iid>`, or without `-/`).
 */
function referencedIssues(db: Db, baseUrl: string, project: ProjectRecord, user: UserRecord | null, today: string, text: string): Tables['issues'][] {
  const out: Tables['issues'][] = []
  const seen = new Set<number>()
  const prefix = `${baseUrl}/`
  for (const match of text.matchAll(REFERENCE_OR_LINK)) {
    let target: ProjectRecord | undefined
    let iid: number
    const link = match.groups!.link
    if (link !== undefined) {
      if (!link.startsWith(prefix)) continue
      const m = /^(.+?)\/(?:-\/)?issues\/(\d+)(?:[#?].*)?$/.exec(link.slice(prefix.length))
      if (!m) continue
      target = db.findProjectByFullPath(m[1]!)
      iid = Number(m[2])
    } else {
      target = referencedProject(db, project, match.groups!.project)
      iid = Number(match.groups!.iid)
    }
    if (!target) continue
    const issue = issueByIid(db, target.id, iid)
    if (!issue || seen.has(issue.id)) continue
    if (!canReadProject(db, user, target, today) || !issueVisibleTo(db, user, target, today)(issue)) continue
    seen.add(issue.id)
    out.push(issue)
  }
  return out
}

/** What {@link cacheClosesIssues} reads of the request. */
export interface ClosingCtx {
  readonly db: Db
  readonly baseUrl: string
  readonly today: string
}

/**
 * `MergeRequest#closes_issues(user)`: for a merge request into the project's default branch, the
 * issues the closing statements of its title, description and commit messages reference, that
 * `user` may read; [] for another target branch.
 */
function closesIssuesOf(ctx: ClosingCtx, project: ProjectRecord, mr: MergeRequestRecord, user: UserRecord | null): Tables['issues'][] {
  if (mr.target_branch !== project.default_branch) return []
  const messages = [mr.title, mr.description ?? '']
  const commits = mergeRequestCommits(ctx.db, mr)
  if (commits) for (const id of commits.ids) messages.push(commitOf(commits.repo, id).message)
  return referencedIssues(ctx.db, ctx.baseUrl, project, user, ctx.today, closingStatements(messages.join('\n')))
}

/**
 * `MergeRequest#cache_merge_request_closes_issues!(user)`: replaces the merge request's closing
 * links with {@link closesIssuesOf} as `user` reads them (`MergeRequests::CreateService#after_create`,
 * `UpdateService#after_update`).
 */
export function cacheClosesIssues(ctx: ClosingCtx, project: ProjectRecord, mr: MergeRequestRecord, user: UserRecord): void {
  const links = ctx.db.tables.merge_requests_closing_issues
  for (const link of links.where('merge_request_id', mr.id)) links.delete(link.id)
  for (const issue of closesIssuesOf(ctx, project, mr, user)) links.insert({ merge_request_id: mr.id, issue_id: issue.id })
}

/** `issue.to_reference(project)` for each issue: `#1` in the project, `other#2` beside it, `group/other#3` elsewhere. */
export function closingReferences(ctx: PresentCtx, project: ProjectRecord, issues: readonly Tables['issues'][]): string[] {
  return issues.map((issue) => issuableReference(ctx, ctx.db.tables.projects.get(issue.project_id), '#', issue.iid, { project }))
}
