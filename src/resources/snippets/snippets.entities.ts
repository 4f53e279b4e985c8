/**
 * The snippet entities: `BasicSnippet` (a snippet storage move's `snippet`), `Snippet` (=
 * `PersonalSnippet` = `ProjectSnippet` in 13.12, which add nothing) and `UserAgentDetail`.
 * URLs per gitlab: lib/gitlab/url_builder.rb (13.x). Source: gitlab: lib/api/entities/snippet.rb,
 * lib/api/entities/personal_snippet.rb, lib/api/entities/project_snippet.rb,
 * lib/api/entities/basic_snippet.rb, lib/api/entities/user_agent_detail.rb (13.12).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import { UserBasic } from '../../entities/user.js'
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import { SNIPPET_ROOT_REF, snippetRepository } from './snippets.repository.js'
import type { SnippetRecord } from './snippets.tables.js'

/** GitLab's `Entities::BasicSnippet` (13.x), in its field order. */
export interface BasicSnippetEntity {
  id: number
  title: string
  description: string
  visibility: string
  updated_at: string
  created_at: string
  project_id: number | null
  /** `<host>/-/snippets/<id>` or `<host>/<project path>/-/snippets/<id>`. */
  web_url: string
  /** `web_url` + `/raw`. */
  raw_url: string
  /** `git@<host>:snippets/<id>.git` or `git@<host>:<project path>/snippets/<id>.git`. */
  ssh_url_to_repo: string
  /** `<host>/snippets/<id>.git` or `<host>/<project path>/snippets/<id>.git`. */
  http_url_to_repo: string
}

function projectOf(snippet: SnippetRecord, ctx: PresentCtx): ProjectRecord | undefined {
  return snippet.project_id === null ? undefined : ctx.db.tables.projects.get(snippet.project_id)
}

/** `Gitlab::UrlBuilder.build(snippet)`: the snippet's page. */
function snippetWebUrl(snippet: SnippetRecord, ctx: PresentCtx): string {
  const project = projectOf(snippet, ctx)
  return `${project ? projectWebUrl(ctx, project) : ctx.baseUrl}/-/snippets/${snippet.id}`
}

function repoUrls(snippet: SnippetRecord, ctx: PresentCtx): { ssh: string; http: string } {
  const project = projectOf(snippet, ctx)
  const repoPath = project ? `${ctx.db.projectFullPath(project)}/snippets/${snippet.id}.git` : `snippets/${snippet.id}.git`
  const host = new URL(ctx.baseUrl).host.replace(/:\d+$/, '')
  return { ssh: `git@${host}:${repoPath}`, http: `${ctx.baseUrl}/${repoPath}` }
}

/** `BasicSnippet`: the `snippet` of a snippet storage move. */
export function BasicSnippet(snippet: SnippetRecord, ctx: PresentCtx): BasicSnippetEntity {
  const webUrl = snippetWebUrl(snippet, ctx)
  const urls = repoUrls(snippet, ctx)
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ssh_url_to_repo: urls.ssh,
    http_url_to_repo: urls.http,
  }
}

/**
 * `Entities::Snippet` (13.12; `PersonalSnippet` and `ProjectSnippet` are it): id, title,
 * description, visibility, author, updated_at, created_at, project_id, web_url, raw_url, the clone
 * URLs (only when the repository exists), file_name (the repository's first file, else the legacy
 * column) and files (`{path, raw_url}` per file at `master`).
 */
export function Snippet(snippet: SnippetRecord, ctx: PresentCtx) {
  const webUrl = snippetWebUrl(snippet, ctx)
  const author = ctx.db.tables.users.get(snippet.author_id)
  const repo = snippetRepository(ctx.db, snippet)
  const exists = ctx.db.tables.snippet_repositories.get(snippet.id) !== undefined
  const urls = exists ? repoUrls(snippet, ctx) : undefined
  const paths = [...repo.files.keys()]
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: author ? UserBasic(author, ctx) : null,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ...(urls ? { ssh_url_to_repo: urls.ssh, http_url_to_repo: urls.http } : {}),
    file_name: paths[0] ?? snippet.file_name,
    files: paths.map((path) => ({ path, raw_url: `${webUrl}/raw/${SNIPPET_ROOT_REF}/${path}` })),
  }
}
