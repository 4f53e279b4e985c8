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
import { uint8ArrayToBase64 } from 'uint8array-extras'
import { apiMessage, notFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { noContent, ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { projectWebUrl } from '../../entities/urls.js'
import type { ObjectId, TreeEntry } from './git-objects.js'
import type { Repository } from './repository.build.js'
import { Branch, Commit, CommitDetail, CommitWithStats, Diff, Tag, TreeObject } from './repository.entities.js'
import { branchFacts, byName, commitNamed, fileAt, fileHeaders, headAncestorsOf, matchesSearch, projectId, rawHeaders, readable } from './repository.helpers.js'
import { isValidRefName } from './repository.ref-names.js'
import { ancestors, commitOf, diffStats, diffTrees, entryAt, isAncestor, log, mergeBase, peelToCommit, resolveCommit } from './repository.service.js'

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

  // `head` in branches.rb's `resource ':id/repository/branches/:branch'` (13.12): after
  // `download_code`, 204 when the branch exists, else `not_found!` (no ref-name check).
  route('HEAD /projects/:id/repository/branches/:branch', {
    auth: 'optional',
    params: { ...projectId, branch: p.string({ required: true }) },
    handler(ctx) {
      const { repo } = readable(ctx)
      if (!repo.branches.has(ctx.params.branch)) throw notFound()
      return noContent()
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
      const id = commitNamed(repo, project, ctx.params.sha)
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
      const id = commitNamed(repo, project, ctx.params.sha)
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
      const id = commitNamed(repo, project, ctx.params.sha)
      const refs: { type: string; name: string }[] = []
      const contains = (tip: ObjectId) => isAncestor(repo, id, tip)
      if (ctx.params.type !== 'tag') for (const [name, tip] of [...repo.branches].sort(([a], [b]) => byName(a, b))) if (contains(tip)) refs.push({ type: 'branch', name })
      if (ctx.params.type !== 'branch') for (const [name, target] of [...repo.tags].sort(([a], [b]) => byName(a, b))) if (contains(peelToCommit(repo, target)!)) refs.push({ type: 'tag', name })
      return paginated(ctx, refs, (ref) => ({ type: ref.type, name: ref.name }))
    },
  }),

  route('GET /projects/:id/repository/commits/:sha/signature', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      commitNamed(repo, project, ctx.params.sha)
      // `not_found! 'Signature' unless commit.has_signature?`: fakelab writes no signed commits.
      throw notFound('Signature')
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
      // Tree#sorted_entries: trees, then blobs, then submodules, each in listing order.
      const trees: typeof listed = []
      const blobs: typeof listed = []
      const submodules: typeof listed = []
      for (const l of listed) (l.entry.mode === '40000' ? trees : l.entry.mode === '160000' ? submodules : blobs).push(l)
      return paginated(ctx, [...trees, ...blobs, ...submodules], (l) => TreeObject(l.entry, l.path))
    },
  }),

  route('GET /projects/:id/repository/blobs/:sha', {
    auth: 'optional',
    params: { ...projectId, sha: p.string({ required: true }) },
    handler(ctx) {
      const { repo } = readable(ctx)
      const blob = repo.objects.blob(ctx.params.sha.toLowerCase())
      if (!blob) throw notFound('Blob')
      return ok({ size: blob.data.length, encoding: 'base64', content: uint8ArrayToBase64(blob.data), sha: ctx.params.sha.toLowerCase() })
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
      const commits = log(repo, [to], { not: [from] }).reverse()
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

  route('GET /projects/:id/repository/contributors', {
    auth: 'optional',
    params: {
      ...projectId,
      order_by: p.string({ values: ['email', 'name', 'commits'], default: 'commits' }),
      sort: p.string({ values: ['asc', 'desc'], default: 'asc' }),
      ...paginationParams,
    },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      // Repository#contributors: the default branch's last 2,000 commits but merges, grouped by
      // author e-mail in the order met; the name is the first non-blank one met.
      const head = repo.branches.get(project.default_branch)
      const byEmail = new Map<string, { name: string; email: string; commits: number }>()
      let counted = 0
      for (const id of head === undefined ? [] : log(repo, [head])) {
        const c = commitOf(repo, id)
        if (c.parents.length > 1) continue
        if (++counted > 2000) break
        let entry = byEmail.get(c.author.email)
        if (!entry) byEmail.set(c.author.email, (entry = { name: '', email: c.author.email, commits: 0 }))
        if (entry.name.trim() === '') entry.name = c.author.name
        entry.commits++
      }
      const key = ctx.params.order_by
      const sign = ctx.params.sort === 'desc' ? -1 : 1
      const rows = [...byEmail.values()].sort((a, b) => sign * (key === 'commits' ? a.commits - b.commits : byName(a[key], b[key])))
      return paginated(ctx, rows, (c) => ({ name: c.name, email: c.email, commits: c.commits, additions: 0, deletions: 0 }))
    },
  }),

  route('GET /projects/:id/repository/merge_base', {
    auth: 'optional',
    params: { ...projectId, refs: p.strings({ required: true }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const refs = ctx.params.refs
      if (refs.length < 2) throw apiMessage(400, 'Provide at least 2 refs')
      const ids = refs.map((ref) => resolveCommit(repo, ref, project.default_branch))
      const unknown = refs.filter((_, i) => ids[i] === undefined)
      if (unknown.length > 0) throw apiMessage(400, `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`)
      // spec-gap: for three or more refs git answers the merge base of the first and a merge of
      // the others; fakelab folds pairwise merge bases, which agree on linear and simple histories.
      let base: string | undefined = ids[0]!
      for (const id of ids.slice(1)) base = base === undefined ? undefined : mergeBase(repo, base, id!)
      if (base === undefined) throw notFound('Merge Base')
      return ok(Commit(repo, base, project, ctx))
    },
  }),

  // gitlab: lib/api/files.rb
  route('GET /projects/:id/repository/files/:file_path', {
    auth: 'optional',
    params: { ...projectId, file_path: p.string({ required: true }), ref: p.string({ required: true, allowBlank: false }) },
    handler(ctx) {
      const { data, blob } = fileAt(ctx)
      return ok({ ...data, content: uint8ArrayToBase64(blob.data) }, fileHeaders(data))
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
