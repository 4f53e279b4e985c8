/**
 * The search API (basic search, no Elasticsearch): `GET /search` over the instance, `GET
 * /groups/:id/search` over a group and its subgroups, `GET /projects/:id/search` over one project,
 * each in its scopes, newest first, showing only what the caller may read:
 * - `projects`: `Project.search` (path, name, description), as `BasicProjectDetails`;
 * - `issues`, `merge_requests`: title and description (`full_search`), or `#iid` / `!iid`, with the
 *   `state` and `confidential` filters, as `IssueBasic` / `MergeRequestBasic`;
 * - `milestones`: the projects' own milestones by title and description, latest update first, as `Milestone`;
 * - `users`: `User.search` among active users (a group's or project's members in those scopes);
 * - `notes` (project): a user's comments containing the terms, as `Note`;
 * - `commits` (project): commit messages on `ref` (the default branch), as `CommitDetail`;
 * - `blobs` (project): every line of a text file on `ref` containing the query, case-insensitively,
 *   with two lines of context around it (Gitaly's `SearchFilesByContent`), as `Blob`;
 * - `snippet_titles`: the snippets the caller may read, by title or file name, as `Snippet`;
 * - `wiki_blobs` (project): the same chunks over the wiki's pages, as `Blob` on the wiki's `master`.
 * gitlab: lib/api/search.rb, lib/api/helpers/search_helpers.rb, app/services/search_service.rb,
 * lib/gitlab/search_results.rb, group_search_results.rb, project_search_results.rb,
 * lib/gitlab/search/found_blob.rb, lib/gitlab/wiki_file_finder.rb (13.12).
 * @module
 */
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { paginated } from '../../core/respond.js'
import { route, routeEntry, type Ctx, type Route } from '../../core/route.js'
import type { GroupRecord, ProjectRecord, UserRecord } from '../../db/schema.js'
import { BasicProjectDetails } from '../../entities/project.js'
import { UserBasic } from '../../entities/user.js'
import { AccessLevel, canReadProject, directMember, issueVisibleTo, projectLevels } from '../../rules/access.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import { searchUsers } from '../../rules/user-search.js'
import { IssueBasic, issueById, issuesOfProject } from '../issues/issues.public.js'
import { canReadMergeRequest, MergeRequestBasic, mergeRequestById, mergeRequestsOfProject } from '../merge-requests/merge-requests.public.js'
import { allMilestones, Milestone } from '../milestones/milestones.public.js'
import { Note, noteById, notesOfProject } from '../notes/notes.public.js'
import { listProjects } from '../projects/projects.public.js'
import { allSnippets, canReadSnippet, Snippet } from '../snippets/snippets.public.js'
import { canDownloadCode, CommitDetail, flatFiles, log, repositoryOf, resolveCommit } from '../repository/repository.public.js'
import { wikiPagePath, wikiPagesOf } from '../wikis/wikis.public.js'

/** `SearchHelpers.global_search_scopes` (CE). */
const GLOBAL_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'] as const
/** `SearchHelpers.group_search_scopes` (CE). */
const GROUP_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users'] as const
/** `SearchHelpers.project_search_scopes`. */
const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs', 'users'] as const

const commonParams = {
  search: p.string({ required: true }),
  state: p.string({ values: ['all', 'opened', 'closed', 'merged'] }),
  confidential: p.boolean(),
  ...paginationParams,
}

type SearchCtx = Ctx<{ search: string; scope: string; state?: string; confidential?: boolean; ref?: string } & Record<string, unknown>>

/** Where a search looks: every project the caller may read, or a group's, or one project. */
interface Within {
  projects: ProjectRecord[]
  group?: GroupRecord
  project?: ProjectRecord
}

/** Newest first by creation, then id. */
function newestFirst<T extends { id: number; created_at: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
}

/** An issuable matches by `#iid`/`!iid`, else by its title or description (`full_search`). */
function issuableMatcher(query: string, sigil: '#' | '!'): (row: { iid: number; title: string; description: string | null }) => boolean {
  const iid = new RegExp(`^\\${sigil}(\\d+)$`).exec(query.trim())
  if (iid) return (row) => row.iid === Number(iid[1])
  const matches = fuzzySearch(query, { useMinimumCharLimit: true })
  return (row) => matches(row.title, row.description)
}

function stateMatches(ctx: SearchCtx, state: string): boolean {
  return ctx.params.state === undefined || ctx.params.state === 'all' || ctx.params.state === state
}

function searchScope(ctx: SearchCtx, within: Within): { rows: unknown[]; present: (row: never) => unknown } {
  const { db } = ctx
  const q = ctx.params
  const levels = projectLevels(db, ctx.currentUser, ctx.today)
  switch (q.scope) {
    case 'projects': {
      const ids = new Set(within.projects.map((project) => project.id))
      const rows = listProjects(ctx, { search: q.search, order_by: 'created_at', sort: 'desc' } as never).filter((project) => ids.has(project.id))
      return { rows, present: (project: ProjectRecord) => BasicProjectDetails(project, ctx) }
    }
    case 'issues': {
      const matches = issuableMatcher(q.search, '#')
      const rows = within.projects.flatMap((project) => {
        const visible = issueVisibleTo(db, ctx.currentUser, project, ctx.today, levels)
        return issuesOfProject(db, project.id).filter((issue) => visible(issue) && matches(issue) && stateMatches(ctx, issue.state) && (q.confidential === undefined || issue.confidential === q.confidential))
      })
      return { rows: newestFirst(rows), present: (issue: (typeof rows)[number]) => IssueBasic(issue, ctx) }
    }
    case 'merge_requests': {
      const matches = issuableMatcher(q.search, '!')
      const rows = within.projects.flatMap((project) =>
        mergeRequestsOfProject(db, project.id).filter((mr) => canReadMergeRequest(ctx, project, mr) && matches(mr) && stateMatches(ctx, mr.state)),
      )
      return { rows: newestFirst(rows), present: (mr: (typeof rows)[number]) => MergeRequestBasic(mr, ctx) }
    }
    case 'milestones': {
      // filter_milestones_by_project: the projects' own milestones (no group milestones), by update.
      const matches = fuzzySearch(q.search, { useMinimumCharLimit: true })
      const projectIds = new Set(within.projects.map((project) => project.id))
      const rows = allMilestones(db)
        .filter((ms) => ms.project_id !== null && projectIds.has(ms.project_id) && matches(ms.title, ms.description))
        .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : b.id - a.id))
      return { rows, present: (ms: (typeof rows)[number]) => Milestone(ms, ctx) }
    }
    case 'users': {
      const members = (user: UserRecord): boolean => {
        if (within.project) return userLevel(ctx, within.project, user) >= AccessLevel.GUEST
        if (within.group) return [within.group, ...db.groupDescendants(within.group)].some((g) => directMember(db, 'group', g.id, user.id, ctx.today) !== undefined)
        return true
      }
      const rows = searchUsers(db.tables.users.all().filter((user) => user.state === 'active' && members(user)), q.search)
      return { rows, present: (user: UserRecord) => UserBasic(user, ctx) }
    }
    case 'notes': {
      const project = within.project!
      const matches = fuzzySearch(q.search, { useMinimumCharLimit: true })
      const rows = notesOfProject(db, project.id).filter((note) => !note.system && matches(note.body) && noteReadable(ctx, project, note.id))
      return { rows: newestFirst(rows), present: (note: (typeof rows)[number]) => Note(note, ctx, noteableIid(ctx, note)) }
    }
    case 'commits':
      return commits(ctx, within.project!)
    case 'blobs':
      return blobs(ctx, within.project!)
    case 'snippet_titles': {
      // Snippet.search: the title or the file name, among the snippets the caller may read.
      const matches = fuzzySearch(q.search, { useMinimumCharLimit: true })
      const rows = newestFirst(allSnippets(db).filter((snippet) => matches(snippet.title, snippet.file_name) && canReadSnippet(ctx, snippet)))
      return { rows, present: (snippet: (typeof rows)[number]) => Snippet(snippet, ctx) }
    }
    case 'wiki_blobs':
      return wikiBlobs(ctx, within.project!)
    default:
      return { rows: [], present: (row: never) => row }
  }
}

function userLevel(ctx: SearchCtx, project: ProjectRecord, user: UserRecord): number {
  return projectLevels(ctx.db, user, ctx.today)(project)
}

/** A note the caller may read: on an issue they may read, a merge request, or a commit they may download. */
function noteReadable(ctx: SearchCtx, project: ProjectRecord, noteId: number): boolean {
  const note = noteById(ctx.db, noteId)!
  if (note.noteable_type === 'Commit') return canDownloadCode(ctx, project)
  if (note.noteable_id === null) return false
  if (note.noteable_type === 'Issue') {
    const issue = issueById(ctx.db, note.noteable_id)
    // A confidential note: as a confidential issue (Reporter+, the author, the assignees).
    const visible = issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)
    return issue !== undefined && visible(issue) && (note.confidential !== true || visible({ ...issue, confidential: true }))
  }
  if (note.noteable_type === 'MergeRequest') {
    const mr = mergeRequestById(ctx.db, note.noteable_id)
    return mr !== undefined && canReadMergeRequest(ctx, project, mr)
  }
  return true
}

function noteableIid(ctx: SearchCtx, note: { noteable_type: string; noteable_id: number | null }): number | null {
  if (note.noteable_id === null) return null
  if (note.noteable_type === 'Issue') return issueById(ctx.db, note.noteable_id)?.iid ?? null
  if (note.noteable_type === 'MergeRequest') return mergeRequestById(ctx.db, note.noteable_id)?.iid ?? null
  return null
}

/** The tip `ref` names (the default branch when not given); undefined when the ref or the repository is missing. */
function tip(ctx: SearchCtx, project: ProjectRecord) {
  const repo = repositoryOf(ctx.db, project)
  const ref = ctx.params.ref ?? project.default_branch
  const id = resolveCommit(repo, ref, project.default_branch)
  return id === undefined ? undefined : { repo, id, ref }
}

/** `find_commits_by_message`: commits on the ref whose message contains the query, case-insensitively, newest first (at most 1000). */
function commits(ctx: SearchCtx, project: ProjectRecord) {
  const at = canDownloadCode(ctx, project) ? tip(ctx, project) : undefined
  if (!at) return { rows: [], present: (row: never) => row }
  const wanted = ctx.params.search.toLowerCase()
  const rows = log(at.repo, [at.id]).filter((id) => at.repo.objects.commit(id)!.message.toLowerCase().includes(wanted)).slice(0, 1000)
  return { rows, present: (id: string) => CommitDetail(at.repo, id, project, ctx, null) }
}

/** Lines of context Gitaly's `SearchFilesByContent` keeps around a match. */
const SURROUND_CONTEXT = 2

/** A `Gitlab::Search::FoundBlob` chunk: a run of matching lines with their context. */
interface FoundChunk {
  path: string
  startline: number
  data: string
}

/**
 * Gitaly's `SearchFilesByContent` on one file: each run of lines containing `wanted` (lower case),
 * with {@link SURROUND_CONTEXT} lines around it, runs that touch merged.
 */
function matchingChunks(path: string, text: string, wanted: string): FoundChunk[] {
  const out: FoundChunk[] = []
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  let chunk: { from: number; to: number } | undefined
  const flush = () => {
    if (chunk) out.push({ path, startline: chunk.from + 1, data: lines.slice(chunk.from, chunk.to + 1).join('\n') + '\n' })
    chunk = undefined
  }
  lines.forEach((line, i) => {
    if (!line.toLowerCase().includes(wanted)) return
    const from = Math.max(0, i - SURROUND_CONTEXT)
    const to = Math.min(lines.length - 1, i + SURROUND_CONTEXT)
    if (chunk && from <= chunk.to + 1) chunk.to = to
    else {
      flush()
      chunk = { from, to }
    }
  })
  flush()
  return out
}

/** GitLab's `Blob` entity for a found chunk (`Gitlab::Search::FoundBlob`) on `ref`. */
function foundBlob(chunk: FoundChunk, ref: string, projectId: number) {
  return {
    basename: chunk.path.replace(/\.[^/.]*$/, ''),
    data: chunk.data,
    path: chunk.path,
    filename: chunk.path,
    id: null,
    ref,
    startline: chunk.startline,
    project_id: projectId,
  }
}

/** `blobs`: the found chunks of every text file on the ref, by path. */
function blobs(ctx: SearchCtx, project: ProjectRecord) {
  const at = canDownloadCode(ctx, project) ? tip(ctx, project) : undefined
  if (!at) return { rows: [], present: (row: never) => row }
  const wanted = ctx.params.search.toLowerCase()
  const tree = at.repo.objects.commit(at.id)!.tree
  const files = [...flatFiles(at.repo, tree)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const decoder = new TextDecoder()
  const rows = files.flatMap(([path, entry]) => {
    const data = at.repo.objects.blob(entry.id)?.data
    return !data || data.includes(0) ? [] : matchingChunks(path, decoder.decode(data), wanted)
  })
  return { rows, present: (chunk: FoundChunk) => foundBlob(chunk, at.ref, project.id) }
}

/**
 * `wiki_blobs`: the found chunks of the wiki's pages (`Gitlab::WikiFileFinder` on the wiki's
 * `master`), by path; readable with the project (`read_wiki`).
 * spec-gap: pages whose file name matches but whose content does not are not listed.
 */
function wikiBlobs(ctx: SearchCtx, project: ProjectRecord) {
  const wanted = ctx.params.search.toLowerCase()
  const rows = wikiPagesOf(ctx.db, project).flatMap((page) => matchingChunks(wikiPagePath(page), page.content, wanted))
  return { rows, present: (chunk: FoundChunk) => foundBlob(chunk, 'master', project.id) }
}

function respond(ctx: SearchCtx, within: Within) {
  const { rows, present } = searchScope(ctx, within)
  return paginated(ctx as never, rows, present as (row: unknown) => unknown)
}

/** The same route under another path of its Grape template (`(-/)search`). */
const alsoAt = (r: Route, key: string): Route => ({ ...r, ...routeEntry(key) })

/** The search routes: `/groups/:id/(-/)search` and `/projects/:id/(-/)search` are one Grape route each, two paths. */
const routes: Route[] = [
  route('GET /search', {
    params: { scope: p.string({ required: true, values: GLOBAL_SCOPES }), ...commonParams },
    handler(ctx) {
      const levels = projectLevels(ctx.db, ctx.currentUser, ctx.today)
      const projects = ctx.db.tables.projects.all().filter((project) => canReadProject(ctx.db, ctx.currentUser, project, ctx.today, levels))
      return respond(ctx as SearchCtx, { projects })
    },
  }),

  route('GET /groups/:id/search', {
    params: { id: p.string({ required: true }), scope: p.string({ required: true, values: GROUP_SCOPES }), ...commonParams },
    handler(ctx) {
      const group = findGroup(ctx, ctx.params.id)
      const levels = projectLevels(ctx.db, ctx.currentUser, ctx.today)
      const groupIds = new Set([group, ...ctx.db.groupDescendants(group)].map((g) => g.id))
      const projects = ctx.db.tables.projects
        .all()
        .filter((project) => project.namespace_type === 'group' && groupIds.has(project.namespace_id) && canReadProject(ctx.db, ctx.currentUser, project, ctx.today, levels))
      return respond(ctx as SearchCtx, { projects, group })
    },
  }),

  route('GET /projects/:id/search', {
    params: { id: p.string({ required: true }), scope: p.string({ required: true, values: PROJECT_SCOPES }), ref: p.string(), ...commonParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      return respond(ctx as SearchCtx, { projects: [project], project })
    },
  }),
]

export const searchRoutes: Route[] = [
  ...routes,
  alsoAt(routes.find((r) => r.key === 'GET /groups/:id/search')!, 'GET /groups/:id/-/search'),
  alsoAt(routes.find((r) => r.key === 'GET /projects/:id/search')!, 'GET /projects/:id/-/search'),
]
