/**
 * The repository files API beyond get and raw: blame, and create, update and delete of one file
 * (each ONE commit on `branch`, through the same service as POST commits). The writes need
 * `push_code` (403 `{"message":"403 Forbidden"}`); the service's refusals are 400 `{message}`,
 * among them a push to a protected branch ("You are not allowed to push into this branch") and
 * a stale `last_commit_id` on update.
 * gitlab: lib/api/files.rb, app/services/files/create_service.rb, update_service.rb,
 * delete_service.rb, lib/gitlab/blame.rb, lib/api/entities/blame_range.rb (13.x).
 * @module
 */
import { diffArrays } from 'diff'
import { forbidden } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import type { ObjectId } from './git-objects.js'
import type { Repository } from './repository.build.js'
import { Commit } from './repository.entities.js'
import { checkFilePath, fileAt, fileHeaders, projectId } from './repository.helpers.js'
import { canPushCode } from '../../rules/protected-refs.js'
import { commitOf, entryAt } from './repository.service.js'
import { commitFiles, type CommitRequest } from './repository-writes.service.js'
import type { CommitAction } from './repository.write.js'
import { decodeBase64 } from './repository-writes.routes.js'

const utf8 = new TextDecoder()

/** The file's lines at a commit (split on `\n`, a final newline ending the last line), or null when absent. */
function linesAt(repo: Repository, commit: ObjectId, path: string): string[] | null {
  const entry = entryAt(repo, commitOf(repo, commit).tree, path)
  const blob = entry && entry.mode !== '40000' ? repo.objects.blob(entry.id) : undefined
  if (!blob) return null
  const text = utf8.decode(blob.data)
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/**
 * `git blame` of `path` at `commit`: for each line, the commit that last changed it. Walks back one
 * parent at a time (a parent holding the same file, else the first parent), passing the lines
 * unchanged since that parent (by a line diff) and keeping the rest for the commit.
 * spec-gap: git weighs every parent of a merge; fakelab follows one.
 */
function blame(repo: Repository, commit: ObjectId, path: string): { commit: ObjectId; lines: string[] }[] {
  const lines = linesAt(repo, commit, path) ?? []
  const origin: ObjectId[] = new Array(lines.length)
  // final line index → line index in `current`
  let pending = new Map<number, number>(lines.map((_, i) => [i, i]))
  let current = commit
  let currentLines = lines
  while (pending.size > 0) {
    const parents = commitOf(repo, current).parents
    const mine = repo.objects.commit(current)!.tree
    const blobOf = (c: ObjectId) => entryAt(repo, commitOf(repo, c).tree, path)?.id
    const here = entryAt(repo, mine, path)?.id
    const parent = parents.find((c) => blobOf(c) === here) ?? parents[0]
    const parentLines = parent === undefined ? null : linesAt(repo, parent, path)
    if (parent === undefined || parentLines === null) {
      for (const i of pending.keys()) origin[i] = current
      break
    }
    // current line index → parent line index, for lines the parent already had.
    const kept = new Map<number, number>()
    let a = 0
    let b = 0
    for (const change of diffArrays(parentLines, currentLines)) {
      const count = change.count ?? change.value.length
      if (change.added) b += count
      else if (change.removed) a += count
      else for (let k = 0; k < count; k++) kept.set(b++, a++)
    }
    const next = new Map<number, number>()
    for (const [final, line] of pending) {
      const inParent = kept.get(line)
      if (inParent === undefined) origin[final] = current
      else next.set(final, inParent)
    }
    pending = next
    current = parent
    currentLines = parentLines
  }
  const groups: { commit: ObjectId; lines: string[] }[] = []
  lines.forEach((line, i) => {
    const last = groups[groups.length - 1]
    if (last && last.commit === origin[i]) last.lines.push(line)
    else groups.push({ commit: origin[i]!, lines: [line] })
  })
  return groups
}

/** `authorize! :push_code, user_project` (files.rb writes). */
function pushable(ctx: Ctx<{ id: string; file_path: string }>) {
  checkFilePath(ctx.params.file_path)
  const project = findProject(ctx, ctx.params.id)
  if (!canPushCode(ctx, project)) throw forbidden()
  return project
}

const simpleFileParams = {
  ...projectId,
  file_path: p.string({ required: true }),
  branch: p.string({ required: true, allowBlank: false }),
  commit_message: p.string({ required: true, allowBlank: false }),
  start_branch: p.string(),
  author_email: p.string(),
  author_name: p.string(),
}

const extendedFileParams = {
  ...simpleFileParams,
  content: p.string({ required: true }),
  encoding: p.string({ values: ['base64'] }),
  last_commit_id: p.string(),
}

/** The params every file write takes ({@link simpleFileParams}, parsed). */
interface FileWriteParams {
  file_path: string
  branch: string
  commit_message: string
  start_branch?: string | undefined
  author_email?: string | undefined
  author_name?: string | undefined
}

/**
 * The one commit a file write makes, as `commit_params` builds it in lib/api/files.rb: on `branch`,
 * started from `start_branch` (else `branch` itself), with the message, the author and `action`
 * on the file.
 */
function fileCommit(params: FileWriteParams, action: CommitAction): CommitRequest {
  return {
    branch: params.branch,
    startBranch: params.start_branch ?? params.branch,
    message: params.commit_message,
    actions: [action],
    authorName: params.author_name,
    authorEmail: params.author_email,
  }
}

/** The bytes of `content` in its `encoding` (`Files::BaseService`: `Base64.decode64` for base64). */
function contentOf(ctx: Ctx<{ content: string; encoding?: string | undefined }>): Uint8Array {
  return ctx.params.encoding === 'base64' ? decodeBase64(ctx.params.content) : new TextEncoder().encode(ctx.params.content)
}

/** The files routes added to get and raw (see the module comment). */
export const fileRoutes: Route[] = [
  // `head ":id/repository/files/:file_path/blame"` and `head ":id/repository/files/:file_path"`
  // (files.rb 13.12): `assign_file_vars!` and `set_http_headers(blob_data)`, whose hash is the body
  // Rack drops: the X-Gitlab-* headers GET gives, status 200, and GET's errors (no blame range).
  ...['HEAD /projects/:id/repository/files/:file_path/blame', 'HEAD /projects/:id/repository/files/:file_path'].map((key) =>
    route(key, {
      auth: 'optional',
      params: { ...projectId, file_path: p.string({ required: true }), ref: p.string({ required: true, allowBlank: false }) },
      handler(ctx) {
        const { data } = fileAt(ctx)
        return ok(data, fileHeaders(data))
      },
    })),

  route('GET /projects/:id/repository/files/:file_path/blame', {
    auth: 'optional',
    params: { ...projectId, file_path: p.string({ required: true }), ref: p.string({ required: true, allowBlank: false }) },
    handler(ctx) {
      const { data, project, repo } = fileAt(ctx)
      const groups = blame(repo, data.commit_id, data.file_path)
      return ok(groups.map((g) => ({ commit: Commit(repo, g.commit, project, ctx), lines: g.lines })), fileHeaders(data))
    },
  }),

  route('POST /projects/:id/repository/files/:file_path', {
    params: extendedFileParams,
    handler(ctx) {
      const project = pushable(ctx)
      commitFiles(ctx, project, fileCommit(ctx.params, { action: 'create', file_path: ctx.params.file_path, content: contentOf(ctx) }))
      return created({ file_path: ctx.params.file_path, branch: ctx.params.branch })
    },
  }),

  route('PUT /projects/:id/repository/files/:file_path', {
    params: extendedFileParams,
    handler(ctx) {
      const project = pushable(ctx)
      commitFiles(ctx, project, {
        ...fileCommit(ctx.params, { action: 'update', file_path: ctx.params.file_path, content: contentOf(ctx) }),
        lastCommitChecks: ctx.params.last_commit_id === undefined ? [] : [{
          path: ctx.params.file_path,
          lastCommitId: ctx.params.last_commit_id,
          message: 'You are attempting to update a file that has changed since you started editing it.',
        }],
      })
      return ok({ file_path: ctx.params.file_path, branch: ctx.params.branch })
    },
  }),

  route('DELETE /projects/:id/repository/files/:file_path', {
    params: simpleFileParams,
    handler(ctx) {
      const project = pushable(ctx)
      commitFiles(ctx, project, fileCommit(ctx.params, { action: 'delete', file_path: ctx.params.file_path }))
      return noContent()
    },
  }),
]
