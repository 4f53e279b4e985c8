/**
 * The repository read routes: branches, tags, commits, tree, files, blobs, compare.
 * Every one first finds the project (404 `Project Not Found` when unreadable), then needs
 * `download_code` (403 below it: a guest of a private or internal-to-members project reads issues
 * but not code), then answers from the project's repository, built on first use.
 * gitlab: lib/api/branches.rb, tags.rb, commits.rb, repositories.rb, files.rb (13.x),
 * app/policies/project_policy.rb (`download_code`: public access, internal access of a
 * non-external user, Reporter+, administrators).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { apiMessage, forbidden, grapeError, notFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { projectWebUrl } from '../../entities/urls.js'
import type { ObjectId, TreeEntry } from './git-objects.js'
import { repositoryOf, type Repository } from './repository.build.js'
import { Branch, Commit, CommitDetail, CommitWithStats, Diff, Tag, TreeObject, type BranchFacts } from './repository.entities.js'
import { isValidRefName } from './repository.scenario.js'
import { ancestors, commitOf, diffStats, diffTrees, entryAt, isAncestor, log, mergeBase, peelToCommit, resolveCommit } from './repository.service.js'

/** Whether the user may read the project's code (`download_code`), the project being readable. */
function canDownloadCode(ctx: Ctx<unknown>, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  if (project.visibility === 'public') return true
  if (!user) return false
  if (user.admin) return true
  if (project.visibility === 'internal' && !user.external) return true
  return projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER
}

/**
 * `user_project` then `authorize! :download_code`: the project and its repository.
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 403 `{"message":"403 Forbidden"}`.
 */
function readable(ctx: Ctx<{ id: string }>): { project: ProjectRecord; repo: Repository } {
  const project = findProject(ctx, ctx.params.id)
  if (!canDownloadCode(ctx, project)) throw forbidden()
  return { project, repo: repositoryOf(ctx.db, project) }
}

const projectId = { id: p.string({ required: true }) }

/** Byte order of names, as git lists refs. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * GitLab's ref search (`BranchesFinder`/`TagsFinder` 13.x): `^term` a prefix, `term$` a suffix,
 * else a substring; case-insensitive.
 */
function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true
  const n = name.toLowerCase()
  const s = search.toLowerCase()
  if (s.startsWith('^')) return n.startsWith(s.slice(1))
  if (s.endsWith('$')) return n.endsWith(s.slice(0, -1))
  return n.includes(s)
}

/**
 * A branch's facts for the `Branch` entity. `merged`: its tip is an ancestor of the default
 * branch's tip and not that tip (Repository#merged_to_root_ref?).
 * spec-gap: protected branches are not simulated yet; GitLab protects the default branch on the
 * first push (default_branch_protection 2: Maintainers push and merge), so the default branch is
 * `protected` and only Maintainers+ `can_push` to it; any other branch takes Developer+.
 */
function branchFacts(ctx: Ctx<unknown>, repo: Repository, project: ProjectRecord, name: string, headAncestors: ReadonlySet<ObjectId> | null): BranchFacts {
  const isDefault = name === project.default_branch
  const tip = repo.branches.get(name)!
  const headTip = repo.branches.get(project.default_branch)
  const user = ctx.currentUser
  const needed = isDefault ? AccessLevel.MAINTAINER : AccessLevel.DEVELOPER
  return {
    merged: headTip !== undefined && tip !== headTip && (headAncestors?.has(tip) ?? false),
    protected: isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: user !== null && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= needed),
    default: isDefault,
  }
}

function headAncestorsOf(repo: Repository, project: ProjectRecord): Set<ObjectId> | null {
  const headTip = repo.branches.get(project.default_branch)
  return headTip === undefined ? null : ancestors(repo, headTip)
}

/** The Grape `file_path: true` validator: no `..` segment, not absolute. */
function checkFilePath(path: string): void {
  if (path.startsWith('/') || path.split('/').includes('..')) throw grapeError('file_path should be a valid file path')
}

/** `X-Gitlab-<Field-Name>` headers of the file metadata (files.rb `set_http_headers`). */
function fileHeaders(data: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(data)) {
    headers[`x-gitlab-${key.split('_').join('-')}`] = value === null || value === undefined ? '' : String(value)
  }
  return headers
}

/** Standard base64 of bytes (`Base64.strict_encode64`), without Node's Buffer. */
function base64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** `Content-Type` of a raw blob: text as UTF-8 text, anything with a NUL byte as binary (Workhorse). */
function rawHeaders(data: Uint8Array, name: string): Record<string, string> {
  const binary = data.subarray(0, 8000).includes(0)
  return {
    'content-type': binary ? 'application/octet-stream' : 'text/plain; charset=utf-8',
    'content-disposition': `${binary ? 'attachment' : 'inline'}; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  }
}

/**
 * The file at `file_path` in the commit `ref` names (files.rb `assign_file_vars!`).
 * @throws ApiError 404 `Commit Not Found`, then 404 `File Not Found`.
 */
function fileAt(ctx: Ctx<{ id: string; file_path: string; ref?: string | undefined }>) {
  checkFilePath(ctx.params.file_path)
  const { project, repo } = readable(ctx)
  const commitId = resolveCommit(repo, ctx.params.ref ?? 'HEAD', project.default_branch)
  if (commitId === undefined) throw notFound('Commit')
  const path = ctx.params.file_path
  const entry = entryAt(repo, commitOf(repo, commitId).tree, path)
  const blob = entry && entry.mode !== '40000' ? repo.objects.blob(entry.id) : undefined
  if (!entry || !blob) throw notFound('File')
  const lastCommit = log(repo, [commitId], { path })[0]
  const name = path.split('/').filter((s) => s !== '').pop() ?? path
  const data = {
    file_name: name,
    file_path: path,
    size: blob.data.length,
    encoding: 'base64',
    content_sha256: bytesToHex(sha256(blob.data)),
    ref: ctx.params.ref ?? null,
    blob_id: entry.id,
    commit_id: commitId,
    last_commit_id: lastCommit ?? null,
  }
  return { data, blob }
}

/** The tree listing of `path` in a tree: direct entries, or every entry below (pre-order) when recursive. */
function listTree(repo: Repository, treeId: ObjectId, prefix: string, recursive: boolean, out: { entry: TreeEntry; path: string }[]): void {
  for (const entry of repo.objects.tree(treeId)?.entries ?? []) {
    const path = `${prefix}${entry.name}`
    out.push({ entry, path })
    if (recursive && entry.mode === '40000') listTree(repo, entry.id, `${path}/`, true, out)
  }
}

/** Every route of the repository area. */
export const repositoryRoutes: Route[] = [
  // gitlab: lib/api/branches.rb
  route('GET /projects/:id/repository/branches', {
    auth: 'optional',
    params: { ...projectId, search: p.string(), ...paginationParams },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const names = [...repo.branches.keys()].filter((n) => matchesSearch(n, ctx.params.search)).sort(byName)
      const headAncestors = headAncestorsOf(repo, project)
      return paginated(ctx, names, (name) => Branch(repo, name, project, ctx, branchFacts(ctx, repo, project, name, headAncestors)))
    },
  }),

  route('GET /projects/:id/repository/branches/:branch', {
    auth: 'optional',
    params: { ...projectId, branch: p.string({ required: true }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const name = ctx.params.branch
      // helpers.rb find_branch!: an invalid ref name is refused before the lookup.
      if (!isValidRefName(name)) throw apiMessage(400, 'The branch refname is invalid')
      if (!repo.branches.has(name)) throw notFound('Branch')
      return ok(Branch(repo, name, project, ctx, branchFacts(ctx, repo, project, name, headAncestorsOf(repo, project))))
    },
  }),

  // gitlab: lib/api/tags.rb
  route('GET /projects/:id/repository/tags', {
    auth: 'optional',
    params: {
      ...projectId,
      order_by: p.string({ values: ['name', 'updated'], default: 'updated' }),
      sort: p.string({ values: ['asc', 'desc'], default: 'desc' }),
      search: p.string(),
      ...paginationParams,
    },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const tags = [...repo.tags.keys()]
        .filter((n) => matchesSearch(n, ctx.params.search))
        .map((name) => ({ name, commit: peelToCommit(repo, repo.tags.get(name)!)! }))
      const time = (id: ObjectId) => commitOf(repo, id).committer.time
      tags.sort((a, b) => (ctx.params.order_by === 'name' ? byName(a.name, b.name) : time(a.commit) - time(b.commit) || byName(a.name, b.name)))
      if (ctx.params.sort === 'desc') tags.reverse()
      return paginated(ctx, tags, (t) => Tag(repo, t.name, t.commit, project, ctx))
    },
  }),

  route('GET /projects/:id/repository/tags/:tag_name', {
    auth: 'optional',
    params: { ...projectId, tag_name: p.string({ required: true }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const target = repo.tags.get(ctx.params.tag_name)
      if (target === undefined) throw notFound('Tag')
      return ok(Tag(repo, ctx.params.tag_name, peelToCommit(repo, target)!, project, ctx))
    },
  }),

  // gitlab: lib/api/commits.rb
  route('GET /projects/:id/repository/commits', {
    auth: 'optional',
    params: {
      ...projectId,
      ref_name: p.string(),
      since: p.datetime(),
      until: p.datetime(),
      path: p.string(),
      all: p.boolean(),
      with_stats: p.boolean(),
      ...paginationParams,
    },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const starts = ctx.params.all
        ? [...new Set([...repo.branches.values(), ...[...repo.tags.values()].map((id) => peelToCommit(repo, id)).filter((id) => id !== undefined)])]
        : [resolveCommit(repo, ctx.params.ref_name || project.default_branch, project.default_branch)].filter((id) => id !== undefined)
      // An unknown ref lists no commit (200 []), as Gitaly's FindCommits answers.
      const ids = log(repo, starts, { path: ctx.params.path, since: ctx.params.since, until: ctx.params.until })
      const stats = (id: ObjectId) => {
        const parent = commitOf(repo, id).parents[0]
        return diffStats(diffTrees(repo, parent === undefined ? null : commitOf(repo, parent).tree, commitOf(repo, id).tree))
      }
      return paginated(ctx, ids, (id) => (ctx.params.with_stats ? CommitWithStats(repo, id, project, ctx, stats(id)) : Commit(repo, id, project, ctx)))
    },
  }),

  route('GET /projects/:id/repository/commits/:sha', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }), stats: p.boolean({ default: true }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const id = resolveCommit(repo, ctx.params.sha, project.default_branch)
      if (id === undefined) throw notFound('Commit')
      const commit = commitOf(repo, id)
      const parent = commit.parents[0]
      const stats = ctx.params.stats ? diffStats(diffTrees(repo, parent === undefined ? null : commitOf(repo, parent).tree, commit.tree)) : null
      return ok(CommitDetail(repo, id, project, ctx, stats))
    },
  }),

  route('GET /projects/:id/repository/commits/:sha/diff', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }), ...paginationParams },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const id = resolveCommit(repo, ctx.params.sha, project.default_branch)
      if (id === undefined) throw notFound('Commit')
      const commit = commitOf(repo, id)
      const parent = commit.parents[0]
      return paginated(ctx, diffTrees(repo, parent === undefined ? null : commitOf(repo, parent).tree, commit.tree), Diff)
    },
  }),

  route('GET /projects/:id/repository/commits/:sha/refs', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }), type: p.string({ values: ['branch', 'tag', 'all'], default: 'all' }), ...paginationParams },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const id = resolveCommit(repo, ctx.params.sha, project.default_branch)
      if (id === undefined) throw notFound('Commit')
      const refs: { type: string; name: string }[] = []
      const contains = (tip: ObjectId) => isAncestor(repo, id, tip)
      if (ctx.params.type !== 'tag') for (const [name, tip] of [...repo.branches].sort(([a], [b]) => byName(a, b))) if (contains(tip)) refs.push({ type: 'branch', name })
      if (ctx.params.type !== 'branch') for (const [name, target] of [...repo.tags].sort(([a], [b]) => byName(a, b))) if (contains(peelToCommit(repo, target)!)) refs.push({ type: 'tag', name })
      return paginated(ctx, refs, (ref) => ({ type: ref.type, name: ref.name }))
    },
  }),

  // gitlab: lib/api/repositories.rb
  route('GET /projects/:id/repository/tree', {
    auth: 'optional',
    params: { ...projectId, ref: p.string(), path: p.string(), recursive: p.boolean({ default: false }), ...paginationParams },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const id = resolveCommit(repo, ctx.params.ref ?? project.default_branch, project.default_branch)
      if (id === undefined) throw notFound('Tree')
      const path = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '')
      const at = entryAt(repo, commitOf(repo, id).tree, path)
      const listed: { entry: TreeEntry; path: string }[] = []
      // A path that is missing or names a file lists nothing (200 []), as GitLab 13.x does.
      if (at?.mode === '40000') listTree(repo, at.id, path === '' ? '' : `${path}/`, ctx.params.recursive, listed)
      // Tree#sorted_entries: trees, then blobs, then submodules.
      const rank = (e: TreeEntry) => (e.mode === '40000' ? 0 : e.mode === '160000' ? 2 : 1)
      const sorted = listed.map((l, i) => ({ ...l, i })).sort((a, b) => rank(a.entry) - rank(b.entry) || a.i - b.i)
      return paginated(ctx, sorted, (l) => TreeObject(l.entry, l.path))
    },
  }),

  route('GET /projects/:id/repository/blobs/:sha', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }) },
    handler(ctx) {
      const { repo } = readable(ctx)
      const blob = repo.objects.blob(ctx.params.sha.toLowerCase())
      if (!blob) throw notFound('Blob')
      return ok({ size: blob.data.length, encoding: 'base64', content: base64(blob.data), sha: ctx.params.sha.toLowerCase() })
    },
  }),

  route('GET /projects/:id/repository/blobs/:sha/raw', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }) },
    handler(ctx) {
      const { repo } = readable(ctx)
      const blob = repo.objects.blob(ctx.params.sha.toLowerCase())
      if (!blob) throw notFound('Blob')
      return { status: 200, bytes: blob.data, headers: rawHeaders(blob.data, ctx.params.sha.toLowerCase()) }
    },
  }),

  route('GET /projects/:id/repository/compare', {
    auth: 'optional',
    params: { ...projectId, from: p.string({ required: true }), to: p.string({ required: true }), straight: p.boolean({ default: false }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const from = resolveCommit(repo, ctx.params.from.trim(), project.default_branch)
      const to = resolveCommit(repo, ctx.params.to.trim(), project.default_branch)
      if (from === undefined || to === undefined) throw notFound('Ref')
      // Not straight: `from...to`, the diff from the merge base (Gitlab::Git::Compare).
      const base = ctx.params.straight ? from : (mergeBase(repo, from, to) ?? from)
      const reachable = ancestors(repo, from)
      const commits = log(repo, [to]).filter((id) => !reachable.has(id)).reverse()
      const diffs = from === to ? [] : diffTrees(repo, commitOf(repo, base).tree, commitOf(repo, to).tree)
      const last = commits[commits.length - 1]
      return ok({
        commit: last === undefined ? null : Commit(repo, last, project, ctx),
        commits: commits.map((id) => Commit(repo, id, project, ctx)),
        diffs: diffs.map(Diff),
        compare_timeout: false,
        compare_same_ref: from === to,
        web_url: `${projectWebUrl(ctx, project)}/-/compare/${ctx.params.from}...${ctx.params.to}`,
      })
    },
  }),

  // gitlab: lib/api/files.rb
  route('GET /projects/:id/repository/files/:file_path', {
    auth: 'optional',
    params: { ...projectId, file_path: p.string({ required: true }), ref: p.string({ required: true, allowBlank: false }) },
    handler(ctx) {
      const { data, blob } = fileAt(ctx)
      return ok({ ...data, content: base64(blob.data) }, fileHeaders(data))
    },
  }),

  route('GET /projects/:id/repository/files/:file_path/raw', {
    auth: 'optional',
    params: { ...projectId, file_path: p.string({ required: true }), ref: p.string({ allowBlank: false }) },
    handler(ctx) {
      const { data, blob } = fileAt(ctx)
      return { status: 200, bytes: blob.data, headers: { ...fileHeaders(data), ...rawHeaders(blob.data, data.file_name) } }
    },
  }),
]
