/**
 * Personal snippets (`/snippets`) and project snippets (`/projects/:id/snippets`): list, get,
 * create, update, delete, the raw content, one file's raw content at a ref, and the user agent
 * detail (administrators). Every personal route but the reads of one snippet needs a signed-in
 * user; a project's routes need a readable project (404 otherwise).
 * gitlab: lib/api/snippets.rb, lib/api/project_snippets.rb, lib/api/helpers/snippets_helpers.rb,
 * app/finders/snippets_finder.rb (13.12).
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { forbidden, notFound, recordNotFound, unauthorized } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { ProjectRecord, UserRecord, Visibility } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { Snippet } from './snippets.entities.js'
import { canAdminSnippet, canCreatePersonalSnippet, canCreateProjectSnippet, canReadSnippet } from './snippets.policy.js'
import { filesAt, snippetRepository } from './snippets.repository.js'
import { createFiles, createSnippet, destroySnippet, updateFiles, updateSnippet, type RequestFacts, type SnippetCreate } from './snippets.service.js'
import type { SnippetRecord } from './snippets.tables.js'

const VISIBILITY = ['private', 'internal', 'public'] as const

/** The caller, or 401 (`authenticate!`). */
function signedIn(ctx: Ctx<unknown>): UserRecord {
  if (!ctx.currentUser) throw unauthorized()
  return ctx.currentUser
}

/** Newest first (`SnippetsFinder`'s default `id_desc`). */
const byIdDesc = (a: SnippetRecord, b: SnippetRecord) => b.id - a.id

/**
 * Where the request came from, as the spam check records it.
 * spec-gap: the transport-neutral request carries no peer address: the first `X-Forwarded-For`
 * entry when a proxy sent one, else `127.0.0.1`.
 */
function requestFacts(ctx: Ctx<unknown>): RequestFacts {
  const forwarded = ctx.request.header('x-forwarded-for')?.split(',')[0]?.trim()
  return { userAgent: ctx.request.header('user-agent') ?? '', ipAddress: forwarded || '127.0.0.1' }
}

/** A snippet's content as `send_git_blob` serves it: plain UTF-8 text shown inline, named after the file. */
function sendBlob(path: string, content: string): Reply {
  const name = path.split('/').pop() ?? path
  return {
    status: 200,
    bytes: new TextEncoder().encode(content),
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `inline; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  }
}

/**
 * `content_for(snippet)`: the first file of the repository; an empty repository's legacy content
 * (none in fakelab) as an attachment.
 */
function rawContent(ctx: Ctx<unknown>, snippet: SnippetRecord): Reply {
  const first = [...snippetRepository(ctx.db, snippet).files][0]
  if (!first) return { status: 200, bytes: new Uint8Array(), headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment' } }
  return sendBlob(first[0], first[1])
}

/**
 * `file_content_for(snippet)`: the file at `file_path` in the commit `ref` names.
 * @throws ApiError 404 `Snippet Not Found` (no repository), `Reference Not Found`, `File Not Found`.
 */
function rawFile(ctx: Ctx<unknown>, snippet: SnippetRecord, ref: string, path: string): Reply {
  if (!ctx.db.tables.snippet_repositories.get(snippet.id)) throw notFound('Snippet')
  const files = filesAt(ctx.db, snippet, ref)
  if (!files) throw notFound('Reference')
  const content = files.get(path)
  if (content === undefined) throw notFound('File')
  return sendBlob(path, content)
}

/** `create_file_params` and the rules tying `files`, `content` and `file_name`. */
const createFileParams = {
  // `files` (Grape `type: Array` of hashes) is read raw and checked by createFiles.
  content: p.string({ allowBlank: false }),
  file_name: p.string(),
}
const createFileRules = { exactlyOneOf: ['files', 'content'], given: { content: ['file_name'] } }

/** `update_file_params` + the attributes; `minimum_update_params`. */
const updateParams = {
  content: p.string({ allowBlank: false }),
  description: p.string(),
  file_name: p.string(),
  title: p.string({ allowBlank: false }),
  visibility: p.string({ values: VISIBILITY }),
  // `files` is read raw and checked by updateFiles.
}
const updateRules = {
  mutuallyExclusive: [['files', 'content'], ['files', 'file_name']],
  atLeastOneOf: ['content', 'description', 'files', 'file_name', 'title', 'visibility'],
}

/** The files of a create: `files`, else the one `file_name` + `content`. */
function createInput(ctx: Ctx<{ title: string; description?: string | undefined; visibility: Visibility; content?: string | undefined; file_name?: string | undefined }>): SnippetCreate {
  const files = ctx.params.content !== undefined ? [[ctx.params.file_name ?? '', ctx.params.content] as [string, string]] : createFiles(ctx.raw.files)
  return { title: ctx.params.title, description: ctx.params.description ?? '', visibility: ctx.params.visibility, files }
}

function update(ctx: Ctx<Record<string, unknown>>, user: UserRecord, snippet: SnippetRecord): SnippetRecord {
  const params = ctx.params as { title?: string; description?: string; visibility?: Visibility; file_name?: string; content?: string }
  return updateSnippet(ctx.db, user, snippet, {
    title: params.title,
    description: params.description,
    visibility: params.visibility,
    file_name: params.file_name,
    content: params.content,
    files: ctx.raw.files === undefined ? undefined : updateFiles(ctx.raw.files),
  }, ctx.now)
}

// ---- personal snippets (snippets.rb) ----------------------------------------------------------

/** `snippets.find_by_id(id)`: a snippet the caller may read, or 404 `Snippet Not Found`. */
function readableSnippet(ctx: Ctx<unknown>, id: number): SnippetRecord {
  const snippet = ctx.db.tables.snippets.get(id)
  if (!snippet || !canReadSnippet(ctx, snippet)) throw notFound('Snippet')
  return snippet
}

/** `snippets_for_current_user.find_by_id(id)`: one the caller authored (`author: current_user`), or 404. */
function ownSnippet(ctx: Ctx<unknown>, user: UserRecord, id: number): SnippetRecord {
  const snippet = ctx.db.tables.snippets.get(id)
  if (!snippet || snippet.author_id !== user.id || !canReadSnippet(ctx, snippet)) throw notFound('Snippet')
  return snippet
}

const snippetId = { id: p.integer({ required: true }) }

const personalRoutes: Route[] = [
  route('GET /snippets', {
    params: { ...paginationParams },
    handler(ctx) {
      const user = signedIn(ctx)
      const rows = ctx.db.tables.snippets.where('author_id', user.id).filter((s) => canReadSnippet(ctx, s)).sort(byIdDesc)
      return paginated(ctx, rows, (s) => Snippet(s, ctx))
    },
  }),

  route('GET /snippets/public', {
    params: { ...paginationParams },
    handler(ctx) {
      signedIn(ctx)
      // `Snippet.only_personal_snippets.are_public.fresh`: updated_at, then id, newest first.
      const rows = ctx.db.tables.snippets.where('project_id', null).filter((s) => s.visibility === 'public')
        .sort((a, b) => (a.updated_at === b.updated_at ? b.id - a.id : a.updated_at < b.updated_at ? 1 : -1))
      return paginated(ctx, rows, (s) => Snippet(s, ctx))
    },
  }),

  route('GET /snippets/:id', {
    auth: 'optional',
    params: snippetId,
    handler(ctx) {
      return ok(Snippet(readableSnippet(ctx, ctx.params.id), ctx))
    },
  }),

  route('POST /snippets', {
    params: {
      title: p.string({ required: true, allowBlank: false }),
      description: p.string(),
      visibility: p.string({ values: VISIBILITY, default: 'internal' }),
      ...createFileParams,
    },
    rules: createFileRules,
    handler(ctx) {
      const user = signedIn(ctx)
      if (!canCreatePersonalSnippet(ctx)) throw forbidden()
      return created(Snippet(createSnippet(ctx.db, user, null, createInput(ctx), requestFacts(ctx), ctx.now), ctx))
    },
  }),

  route('PUT /snippets/:id', {
    params: { ...snippetId, ...updateParams },
    rules: updateRules,
    handler(ctx) {
      const user = signedIn(ctx)
      const snippet = ownSnippet(ctx, user, ctx.params.id)
      if (!canAdminSnippet(ctx, snippet)) throw forbidden()
      return ok(Snippet(update(ctx as unknown as Ctx<Record<string, unknown>>, user, snippet), ctx))
    },
  }),

  route('DELETE /snippets/:id', {
    params: snippetId,
    handler(ctx) {
      const user = signedIn(ctx)
      const snippet = ownSnippet(ctx, user, ctx.params.id)
      if (!canAdminSnippet(ctx, snippet)) throw forbidden()
      checkUnmodifiedSince(ctx, snippet.updated_at)
      destroySnippet(ctx.db, snippet)
      return noContent()
    },
  }),

  route('GET /snippets/:id/raw', {
    auth: 'optional',
    params: snippetId,
    handler(ctx) {
      return rawContent(ctx, readableSnippet(ctx, ctx.params.id))
    },
  }),

  route('GET /snippets/:id/files/:ref/:file_path/raw', {
    auth: 'optional',
    params: { ...snippetId, ref: p.string({ required: true }), file_path: p.string({ required: true }) },
    handler(ctx) {
      return rawFile(ctx, readableSnippet(ctx, ctx.params.id), ctx.params.ref, ctx.params.file_path)
    },
  }),

  route('GET /snippets/:id/user_agent_detail', {
    auth: 'admin',
    params: snippetId,
    handler(ctx) {
      const snippet = ctx.db.tables.snippets.get(ctx.params.id)
      if (!snippet) throw recordNotFound()
      return userAgentDetail(ctx, snippet)
    },
  }),
]

/** `present snippet.user_agent_detail` or 404 `UserAgentDetail Not Found`. */
function userAgentDetail(ctx: Ctx<unknown>, snippet: SnippetRecord): Reply {
  const detail = ctx.db.tables.user_agent_details.where('subject_id', snippet.id).find((row) => row.subject_type === 'Snippet')
  if (!detail) throw notFound('UserAgentDetail')
  return ok({ user_agent: detail.user_agent, ip_address: detail.ip_address, akismet_submitted: detail.akismet_submitted })
}

// ---- project snippets (project_snippets.rb) ---------------------------------------------------

/**
 * `user_project`, then `check_snippets_enabled` (every project's snippets feature is enabled in
 * fakelab, which keeps no feature access levels: see docs/spec-gaps.md).
 */
function snippetsProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  return findProject(ctx, ctx.params.id)
}

/** `snippets_for_current_user.find_by(id:)`: the project's snippet the caller may read, or undefined. */
function projectSnippet(ctx: Ctx<unknown>, project: ProjectRecord, id: number): SnippetRecord | undefined {
  const snippet = ctx.db.tables.snippets.get(id)
  return snippet && snippet.project_id === project.id && canReadSnippet(ctx, snippet) ? snippet : undefined
}

function foundProjectSnippet(ctx: Ctx<unknown>, project: ProjectRecord, id: number): SnippetRecord {
  const snippet = projectSnippet(ctx, project, id)
  if (!snippet) throw notFound('Snippet')
  return snippet
}

const projectIds = { id: p.string({ required: true }), snippet_id: p.integer({ required: true }) }

const projectRoutes: Route[] = [
  route('GET /projects/:id/snippets', {
    auth: 'optional', // `user_project` (404) runs in `before`, ahead of `authenticate!`
    params: { id: p.string({ required: true }), ...paginationParams },
    handler(ctx) {
      const project = snippetsProject(ctx)
      signedIn(ctx)
      const rows = ctx.db.tables.snippets.where('project_id', project.id).filter((s) => canReadSnippet(ctx, s)).sort(byIdDesc)
      return paginated(ctx, rows, (s) => Snippet(s, ctx))
    },
  }),

  route('GET /projects/:id/snippets/:snippet_id', {
    auth: 'optional',
    params: projectIds,
    handler(ctx) {
      const project = snippetsProject(ctx)
      // `snippets_for_current_user.find(id)`: ActiveRecord's RecordNotFound.
      const snippet = projectSnippet(ctx, project, ctx.params.snippet_id)
      if (!snippet) throw recordNotFound()
      return ok(Snippet(snippet, ctx))
    },
  }),

  route('POST /projects/:id/snippets', {
    auth: 'optional', // `user_project` (404) runs in `before`, ahead of `authenticate!`
    params: {
      id: p.string({ required: true }),
      title: p.string({ required: true, allowBlank: false }),
      description: p.string(),
      visibility: p.string({ required: true, values: VISIBILITY }),
      ...createFileParams,
    },
    rules: createFileRules,
    handler(ctx) {
      const project = snippetsProject(ctx)
      const user = signedIn(ctx)
      if (!canCreateProjectSnippet(ctx, project)) throw forbidden()
      return created(Snippet(createSnippet(ctx.db, user, project, createInput(ctx), requestFacts(ctx), ctx.now), ctx))
    },
  }),

  route('PUT /projects/:id/snippets/:snippet_id', {
    auth: 'optional', // `user_project` (404) runs in `before`, ahead of `authenticate!`
    params: { ...projectIds, ...updateParams },
    rules: updateRules,
    handler(ctx) {
      const project = snippetsProject(ctx)
      const user = signedIn(ctx)
      const snippet = foundProjectSnippet(ctx, project, ctx.params.snippet_id)
      if (!canAdminSnippet(ctx, snippet)) throw forbidden()
      return ok(Snippet(update(ctx as unknown as Ctx<Record<string, unknown>>, user, snippet), ctx))
    },
  }),

  route('DELETE /projects/:id/snippets/:snippet_id', {
    auth: 'optional', // `user_project` (404) runs in `before`, ahead of `authenticate!`
    params: projectIds,
    handler(ctx) {
      const project = snippetsProject(ctx)
      signedIn(ctx)
      const snippet = foundProjectSnippet(ctx, project, ctx.params.snippet_id)
      if (!canAdminSnippet(ctx, snippet)) throw forbidden()
      checkUnmodifiedSince(ctx, snippet.updated_at)
      destroySnippet(ctx.db, snippet)
      return noContent()
    },
  }),

  route('GET /projects/:id/snippets/:snippet_id/raw', {
    auth: 'optional',
    params: projectIds,
    handler(ctx) {
      const project = snippetsProject(ctx)
      return rawContent(ctx, foundProjectSnippet(ctx, project, ctx.params.snippet_id))
    },
  }),

  route('GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', {
    auth: 'optional',
    params: { ...projectIds, ref: p.string({ required: true }), file_path: p.string({ required: true }) },
    handler(ctx) {
      const project = snippetsProject(ctx)
      return rawFile(ctx, foundProjectSnippet(ctx, project, ctx.params.snippet_id), ctx.params.ref, ctx.params.file_path)
    },
  }),

  route('GET /projects/:id/snippets/:snippet_id/user_agent_detail', {
    auth: 'admin',
    params: projectIds,
    handler(ctx) {
      // `Snippet.find_by!(id:, project_id: params[:id])`: the project's numeric id only.
      const snippet = ctx.db.tables.snippets.get(ctx.params.snippet_id)
      if (!snippet || !/^\d+$/.test(ctx.params.id) || snippet.project_id !== Number(ctx.params.id)) throw recordNotFound()
      return userAgentDetail(ctx, snippet)
    },
  }),
]

/** Both files' routes. */
export const snippetRoutes: Route[] = [...personalRoutes, ...projectRoutes]
