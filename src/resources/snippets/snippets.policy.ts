/**
 * Who may read and change a snippet: GitLab's `PersonalSnippetPolicy` and `ProjectSnippetPolicy`
 * with the visibility filter of `SnippetsFinder` (13.12). A personal snippet: public to everyone,
 * internal to signed-in non-external users, private to its author; a project snippet: readable
 * only with the project (then public to its readers, internal to signed-in non-external users and
 * members, private to members, Guest and up). Administrators read and change every snippet.
 * Changing (`update_snippet`, `admin_snippet`): the author, or a project's Maintainer and up.
 * gitlab: app/policies/personal_snippet_policy.rb, app/policies/project_snippet_policy.rb,
 * app/finders/snippets_finder.rb, app/policies/project_policy.rb (`create_snippet`, Reporter+).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, canReadProject, projectAccessLevel } from '../../rules/access.js'
import type { SnippetRecord } from './snippets.tables.js'

/** Who asks, and on which day (memberships expire). */
export interface SnippetCtx {
  readonly db: Db
  readonly currentUser: UserRecord | null
  readonly today: string
}

function projectOf(db: Db, snippet: SnippetRecord): ProjectRecord | undefined {
  return snippet.project_id === null ? undefined : db.tables.projects.get(snippet.project_id)
}

/** `read_snippet` (see the module comment). */
export function canReadSnippet(ctx: SnippetCtx, snippet: SnippetRecord): boolean {
  const user = ctx.currentUser
  if (user?.admin) return true
  if (snippet.project_id === null) {
    if (snippet.visibility === 'public') return true
    if (!user) return false
    if (snippet.author_id === user.id) return true
    return snippet.visibility === 'internal' && !user.external
  }
  const project = projectOf(ctx.db, snippet)
  if (!project || !canReadProject(ctx.db, user, project, ctx.today)) return false
  if (snippet.visibility === 'public') return true
  if (!user) return false
  const member = projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.GUEST
  if (snippet.visibility === 'internal') return member || !user.external
  return member
}

/** `update_snippet` / `admin_snippet`: the author (of a readable snippet), a project's Maintainer+, an administrator. */
export function canAdminSnippet(ctx: SnippetCtx, snippet: SnippetRecord): boolean {
  const user = ctx.currentUser
  if (!user) return false
  if (user.admin) return true
  if (!canReadSnippet(ctx, snippet)) return false
  if (snippet.author_id === user.id) return true
  const project = projectOf(ctx.db, snippet)
  return project !== undefined && projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER
}

/** `create_snippet` on a project: Reporter and up, administrators. */
export function canCreateProjectSnippet(ctx: SnippetCtx, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  return user !== null && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER)
}

/** `create_snippet` (global): every signed-in user but an external one. */
export function canCreatePersonalSnippet(ctx: SnippetCtx): boolean {
  return ctx.currentUser !== null && !ctx.currentUser.external
}
