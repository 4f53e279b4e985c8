/**
 * Reading a built repository as git does: revisions (`git rev-parse`), history (`git log`, with
 * path limiting and date bounds), trees, blobs at paths, merge bases, and tree diffs with unified
 * text hunks (jsdiff). Pure functions of a {@link Repository}; the routes add GitLab's rules.
 * Source: git-rev-parse(1) "SPECIFYING REVISIONS", git-log(1) "History Simplification".
 * @module
 */
import { structuredPatch } from 'diff'
import type { CommitObject, ObjectId, TreeEntry, TreeMode } from './git-objects.js'
import type { FlatEntry, Repository } from './repository.build.js'

/**
 * The commit a revision names, or undefined: a full id (a tag object is peeled), `HEAD`,
 * `refs/heads/<b>`, `refs/tags/<t>`, a tag then a branch name (git's `refs/tags` before
 * `refs/heads`), or an abbreviated id of 4+ hex digits naming exactly one object.
 * @param head the default branch (what `HEAD` names).
 */
export function resolveCommit(repo: Repository, revision: string, head: string): ObjectId | undefined {
  const id = resolveObject(repo, revision, head)
  return id === undefined ? undefined : peelToCommit(repo, id)
}

function resolveObject(repo: Repository, rev: string, head: string): ObjectId | undefined {
  if (/^[0-9a-fA-F]{40}$/.test(rev) && repo.objects.has(rev.toLowerCase())) return rev.toLowerCase()
  if (rev === 'HEAD') return repo.branches.get(head)
  if (rev.startsWith('refs/heads/')) return repo.branches.get(rev.slice(11))
  if (rev.startsWith('refs/tags/')) return repo.tags.get(rev.slice(10))
  const ref = repo.tags.get(rev) ?? repo.branches.get(rev)
  if (ref !== undefined) return ref
  if (/^[0-9a-fA-F]{4,39}$/.test(rev)) {
    const found = repo.objects.idsWithPrefix(rev.toLowerCase())
    if (found.length === 1) return found[0]
  }
  return undefined
}

/** The commit an object id leads to (tags peeled), or undefined for trees and blobs. */
export function peelToCommit(repo: Repository, id: ObjectId): ObjectId | undefined {
  for (let tag = repo.objects.tag(id); tag; tag = repo.objects.tag(id)) id = tag.object
  return repo.objects.commit(id) ? id : undefined
}

/** The commit object of an id known to be a commit. */
export function commitOf(repo: Repository, id: ObjectId): CommitObject {
  return repo.objects.commit(id)!
}

/** Every blob path of a tree, flattened (`dir/file` → entry), memoised per tree. */
function flattenTree(repo: Repository, treeId: ObjectId): ReadonlyMap<string, FlatEntry> {
  let flat = repo.flatTrees.get(treeId)
  if (flat) return flat
  const out = new Map<string, FlatEntry>()
  const walk = (id: ObjectId, prefix: string) => {
    for (const e of repo.objects.tree(id)?.entries ?? []) {
      if (e.mode === '40000') walk(e.id, `${prefix}${e.name}/`)
      else out.set(`${prefix}${e.name}`, { id: e.id, mode: e.mode })
    }
  }
  walk(treeId, '')
  flat = out
  repo.flatTrees.set(treeId, flat)
  return flat
}

/** The tree entry at `path` (slash-separated, no leading slash) in a tree, or undefined; `''` is the tree itself. */
export function entryAt(repo: Repository, treeId: ObjectId, path: string): TreeEntry | undefined {
  const segments = path.split('/').filter((s) => s !== '')
  let entry: TreeEntry = { mode: '40000', name: '', id: treeId }
  for (const name of segments) {
    if (entry.mode !== '40000') return undefined
    const next = repo.objects.tree(entry.id)?.entries.find((e) => e.name === name)
    if (!next) return undefined
    entry = next
  }
  return entry
}

/** What `git log` limits a walk by: a path (file or directory) and committer-date bounds (ISO instants). */
export interface LogFilter {
  path?: string | undefined
  /** Commits committed at or after this instant (`--since`). */
  since?: string | undefined
  /** Commits committed at or before this instant (`--until`). */
  until?: string | undefined
}

/** The id of what sits at `path` in a commit's tree, or null when nothing does. */
function idAtPath(repo: Repository, commitId: ObjectId, path: string): string | null {
  const entry = entryAt(repo, commitOf(repo, commitId).tree, path)
  return entry ? `${entry.mode}:${entry.id}` : null
}

/**
 * `git log <starts> [-- path]`: commits reachable from `starts`, newest committer date first (git's
 * default walk order: a date-ordered queue, ties in the order met). With a path, history is
 * simplified as git's default does: a commit is shown when it changed the path against every
 * parent (or has none and holds the path), and a merge that kept the path of one parent is
 * followed through that parent only.
 */
export function log(repo: Repository, starts: readonly ObjectId[], filter: LogFilter = {}): ObjectId[] {
  const path = filter.path?.replace(/^\/+|\/+$/g, '') || undefined
  const sinceS = filter.since === undefined ? undefined : Date.parse(filter.since) / 1000
  const untilS = filter.until === undefined ? undefined : Date.parse(filter.until) / 1000
  const seen = new Set<ObjectId>()
  const queue: { id: ObjectId; time: number; order: number }[] = []
  let order = 0
  const push = (id: ObjectId) => {
    if (seen.has(id)) return
    seen.add(id)
    queue.push({ id, time: commitOf(repo, id).committer.time, order: order++ })
  }
  for (const id of starts) push(id)
  const out: ObjectId[] = []
  while (queue.length > 0) {
    let best = 0
    for (let i = 1; i < queue.length; i++) {
      const q = queue[i]!
      const b = queue[best]!
      if (q.time > b.time || (q.time === b.time && q.order < b.order)) best = i
    }
    const { id } = queue.splice(best, 1)[0]!
    const commit = commitOf(repo, id)
    let parents = commit.parents
    let show = true
    if (path !== undefined) {
      const mine = idAtPath(repo, id, path)
      const same = parents.find((p) => idAtPath(repo, p, path) === mine)
      if (same !== undefined) {
        show = false
        if (parents.length > 1) parents = [same]
      } else if (parents.length === 0 && mine === null) show = false
    }
    for (const p of parents) push(p)
    if (!show) continue
    const t = commit.committer.time
    if (sinceS !== undefined && t < sinceS) continue
    if (untilS !== undefined && t > untilS) continue
    out.push(id)
  }
  return out
}

/** Every commit reachable from `id`, itself included. */
export function ancestors(repo: Repository, id: ObjectId): Set<ObjectId> {
  const seen = new Set<ObjectId>()
  const stack = [id]
  while (stack.length > 0) {
    const next = stack.pop()!
    if (seen.has(next)) continue
    seen.add(next)
    stack.push(...commitOf(repo, next).parents)
  }
  return seen
}

/** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
export function isAncestor(repo: Repository, ancestor: ObjectId, descendant: ObjectId): boolean {
  return ancestors(repo, descendant).has(ancestor)
}

/**
 * `git merge-base a b`: a best common ancestor (one no other common ancestor descends from; the
 * newest by committer date when several are), or undefined for unrelated histories.
 */
export function mergeBase(repo: Repository, a: ObjectId, b: ObjectId): ObjectId | undefined {
  const ofA = ancestors(repo, a)
  const common = [...ancestors(repo, b)].filter((id) => ofA.has(id))
  const best = common.filter((c) => !common.some((other) => other !== c && isAncestor(repo, c, other)))
  best.sort((x, y) => commitOf(repo, y).committer.time - commitOf(repo, x).committer.time)
  return best[0]
}

/** One changed file between two trees, GitLab's `Gitlab::Git::Diff` fields. */
export interface FileDiff {
  old_path: string
  new_path: string
  /** `0` when the file is new. */
  a_mode: string
  /** `0` when the file is deleted. */
  b_mode: string
  new_file: boolean
  renamed_file: boolean
  deleted_file: boolean
  /** Unified hunks without the `---`/`+++` header, as Gitaly sends them. */
  diff: string
}

const utf8 = new TextDecoder()

function textOf(repo: Repository, id: ObjectId | undefined): string {
  return id === undefined ? '' : utf8.decode(repo.objects.blob(id)?.data ?? new Uint8Array())
}

/** Unified hunks (3 lines of context) from `before` to `after`, with git's `\ No newline at end of file`. */
function unifiedDiff(before: string, after: string): string {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context: 3 })
  let out = ''
  for (const h of patch.hunks) {
    // git writes `-0,0` for an empty side, and omits a count of 1.
    const range = (start: number, lines: number) => (lines === 1 ? `${start}` : `${lines === 0 ? Math.max(start - 1, 0) : start},${lines}`)
    out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n`
    for (const line of h.lines) out += `${line}\n`
  }
  return out
}

/**
 * The files that differ from tree `from` (null: nothing) to tree `to`, in path order, a deleted file
 * whose exact content reappears under a new path shown once as a rename (git's rename detection at
 * 100% similarity).
 */
export function diffTrees(repo: Repository, from: ObjectId | null, to: ObjectId): FileDiff[] {
  const before = from === null ? new Map<string, FlatEntry>() : flattenTree(repo, from)
  const after = flattenTree(repo, to)
  const added: string[] = []
  const deleted: string[] = []
  const out: FileDiff[] = []
  const mode = (m: TreeMode | undefined) => m ?? '0'
  for (const [path, a] of before) {
    const b = after.get(path)
    if (!b) deleted.push(path)
    else if (a.id !== b.id || a.mode !== b.mode) {
      out.push({
        old_path: path, new_path: path, a_mode: a.mode, b_mode: b.mode,
        new_file: false, renamed_file: false, deleted_file: false,
        diff: unifiedDiff(textOf(repo, a.id), textOf(repo, b.id)),
      })
    }
  }
  for (const path of after.keys()) if (!before.has(path)) added.push(path)
  for (const path of added) {
    const b = after.get(path)!
    const source = deleted.findIndex((d) => before.get(d)!.id === b.id)
    if (source >= 0) {
      const [old] = deleted.splice(source, 1)
      out.push({ old_path: old!, new_path: path, a_mode: before.get(old!)!.mode, b_mode: b.mode, new_file: false, renamed_file: true, deleted_file: false, diff: '' })
    } else {
      out.push({ old_path: path, new_path: path, a_mode: '0', b_mode: b.mode, new_file: true, renamed_file: false, deleted_file: false, diff: unifiedDiff('', textOf(repo, b.id)) })
    }
  }
  for (const path of deleted) {
    const a = before.get(path)!
    out.push({ old_path: path, new_path: path, a_mode: a.mode, b_mode: mode(undefined), new_file: false, renamed_file: false, deleted_file: true, diff: unifiedDiff(textOf(repo, a.id), '') })
  }
  return out.sort((x, y) => (x.new_path < y.new_path ? -1 : x.new_path > y.new_path ? 1 : 0))
}

/** Lines added and removed between two commits' trees (GitLab's `CommitStats`). */
export function diffStats(diffs: readonly FileDiff[]): { additions: number; deletions: number; total: number } {
  let additions = 0
  let deletions = 0
  for (const d of diffs) {
    for (const line of d.diff.split('\n')) {
      if (line.startsWith('+')) additions++
      else if (line.startsWith('-')) deletions++
    }
  }
  return { additions, deletions, total: additions + deletions }
}
