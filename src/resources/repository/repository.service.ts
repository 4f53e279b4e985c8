/**
 * Reading a built repository as git does: revisions (`git rev-parse`), history (`git log`, with
 * path limiting and date bounds), trees, blobs at paths, merge bases, and tree diffs with unified
 * text hunks (jsdiff). Pure functions of a {@link Repository}; the routes add GitLab's rules.
 * Source: git-rev-parse(1) "SPECIFYING REVISIONS", git-log(1) "History Simplification".
 * @module
 */
import { structuredPatch } from 'diff'
import { compareTreeEntries, type CommitObject, type ObjectId, type TreeEntry, type TreeMode } from './git-objects.js'
import type { FlatEntry, Repository } from './repository.build.js'

/**
 * The commit a revision names, or undefined: a full id (a tag object is peeled), `HEAD`,
 * `refs/heads/<b>`, `refs/tags/<t>`, any other full ref name (`refs/merge-requests/1/head`), a
 * name under `refs/` (`merge-requests/1/head`), then a tag, then a branch name (git's
 * `refs/%s`, `refs/tags/%s`, `refs/heads/%s` order), or an abbreviated id of 4+ hex digits naming exactly one object.
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
  if (rev.startsWith('refs/')) return repo.otherRefs.get(rev)
  // git's `refs/%s` rule comes before tags and branches: `merge-requests/1/head`.
  const ref = repo.otherRefs.get(`refs/${rev}`) ?? repo.tags.get(rev) ?? repo.branches.get(rev)
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
  /** Leaves out every commit reachable from these (`git log ^from to`, `from..to`). */
  not?: readonly ObjectId[] | undefined
  /** Stops after this many commits (`-n`): the first ones are the same as without it. */
  limit?: number | undefined
}

/**
 * A binary heap of `T`, `before(x, y)` true when x comes out first. Popping gives the same sequence
 * a scan for the first each time gives, when `before` is a strict total order.
 */
class Heap<T> {
  private readonly items: T[] = []
  private readonly before: (x: T, y: T) => boolean

  constructor(before: (x: T, y: T) => boolean) {
    this.before = before
  }

  get size(): number {
    return this.items.length
  }

  push(item: T): void {
    const items = this.items
    let i = items.push(item) - 1
    while (i > 0) {
      const up = (i - 1) >> 1
      if (!this.before(item, items[up]!)) break
      items[i] = items[up]!
      i = up
    }
    items[i] = item
  }

  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      if (l >= items.length) break
      const r = l + 1
      const child = r < items.length && this.before(items[r]!, items[l]!) ? r : l
      if (!this.before(items[child]!, last)) break
      items[i] = items[child]!
      i = child
    }
    items[i] = last
    return top
  }
}

/** A commit's generation (see `ObjectStore.generation`); 0 for an id that is no stored commit. */
function generationOf(repo: Repository, id: ObjectId): number {
  return repo.objects.generation(id) ?? 0
}

/**
 * The commits reachable from `include` and from none of `exclude` (`git rev-list include ^exclude`),
 * walking only as far as that takes: newest generation first, each commit marked with the sides
 * that reach it before it is left (its children, of higher generation, all come out before it), and
 * stopping when every commit still queued is reachable from `exclude` (all below it is too).
 */
function exclusiveCommits(repo: Repository, include: readonly ObjectId[], exclude: readonly ObjectId[]): Set<ObjectId> {
  const INCLUDED = 1
  const EXCLUDED = 2
  const flags = new Map<ObjectId, number>()
  const queue = new Heap<{ id: ObjectId; gen: number }>((x, y) => x.gen > y.gen)
  let open = 0 // queued commits not (yet) marked EXCLUDED
  const mark = (id: ObjectId, flag: number) => {
    const had = flags.get(id)
    if (had === undefined) {
      flags.set(id, flag)
      queue.push({ id, gen: generationOf(repo, id) })
      if (!(flag & EXCLUDED)) open++
    } else if ((had | flag) !== had) {
      flags.set(id, had | flag)
      // Still queued: every commit is queued once, and left after each of its children.
      if (!(had & EXCLUDED) && flag & EXCLUDED) open--
    }
  }
  for (const id of exclude) mark(id, EXCLUDED)
  for (const id of include) mark(id, INCLUDED)
  const out = new Set<ObjectId>()
  while (open > 0 && queue.size > 0) {
    const { id } = queue.pop()!
    const flag = flags.get(id)!
    if (!(flag & EXCLUDED)) {
      open--
      out.add(id)
    }
    for (const parent of commitOf(repo, id).parents) mark(parent, flag)
  }
  return out
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
  const limit = filter.limit ?? Infinity
  // `^not`: the walk stays within the commits it leaves in. Restricting the walk gives the
  // filtered full walk: what is left out only ever queues what is left out (its ancestors), and the
  // queue's order among the rest does not depend on it.
  const within = filter.not?.length ? exclusiveCommits(repo, starts, filter.not) : undefined
  const seen = new Set<ObjectId>()
  // Newest committer date first, ties in the order met: a strict total order (`order` is unique).
  const queue = new Heap<{ id: ObjectId; time: number; order: number }>((q, b) => q.time > b.time || (q.time === b.time && q.order < b.order))
  let order = 0
  const push = (id: ObjectId) => {
    if (seen.has(id) || (within && !within.has(id))) return
    seen.add(id)
    queue.push({ id, time: commitOf(repo, id).committer.time, order: order++ })
  }
  for (const id of starts) push(id)
  const out: ObjectId[] = []
  while (queue.size > 0 && out.length < limit) {
    const { id } = queue.pop()!
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
  // Nothing below the ancestor's generation can lead to it.
  const floor = generationOf(repo, ancestor)
  const seen = new Set<ObjectId>()
  const stack = [descendant]
  while (stack.length > 0) {
    const next = stack.pop()!
    if (next === ancestor) return true
    if (seen.has(next)) continue
    seen.add(next)
    for (const parent of commitOf(repo, next).parents) if (generationOf(repo, parent) >= floor) stack.push(parent)
  }
  return false
}

/**
 * `git merge-base a b`: a best common ancestor (one no other common ancestor descends from; the
 * newest by committer date when several are, the first `ancestors(b)` meets when they tie), or
 * undefined for unrelated histories.
 *
 * Found as git's `paint_down_to_common` does, with generation numbers for exactness: commits come
 * out newest generation first, marked with the sides (a, b) reaching them, and STALE below a common
 * one; a common commit not STALE is a best one. The walk ends when every queued commit is STALE.
 */
export function mergeBase(repo: Repository, a: ObjectId, b: ObjectId): ObjectId | undefined {
  const A = 1
  const B = 2
  const STALE = 4
  const flags = new Map<ObjectId, number>()
  const queue = new Heap<{ id: ObjectId; gen: number }>((x, y) => x.gen > y.gen)
  let open = 0 // queued commits not (yet) STALE
  const mark = (id: ObjectId, flag: number) => {
    const had = flags.get(id)
    if (had === undefined) {
      flags.set(id, flag)
      queue.push({ id, gen: generationOf(repo, id) })
      if (!(flag & STALE)) open++
    } else if ((had | flag) !== had) {
      flags.set(id, had | flag)
      if (!(had & STALE) && flag & STALE) open--
    }
  }
  mark(a, A)
  mark(b, B)
  const best: ObjectId[] = []
  while (open > 0 && queue.size > 0) {
    const { id } = queue.pop()!
    let flag = flags.get(id)!
    if (!(flag & STALE)) {
      open--
      if ((flag & (A | B)) === (A | B)) {
        best.push(id)
        flag |= STALE
      }
    }
    for (const parent of commitOf(repo, id).parents) mark(parent, flag)
  }
  if (best.length <= 1) return best[0]
  const time = (id: ObjectId) => commitOf(repo, id).committer.time
  const newest = Math.max(...best.map(time))
  const tied = best.filter((id) => time(id) === newest)
  if (tied.length === 1) return tied[0]
  // Several best ones at the same instant: the first met walking `ancestors(b)`.
  for (const id of ancestors(repo, b)) if (tied.includes(id)) return id
  return tied[0]
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

/** Memo of {@link blobDiff}: `<old blob id>:<new blob id>` → hunks, least recently used first. */
const diffMemo = new Map<string, string>()
/** The memo's bound, in characters of hunks kept (about twice as many bytes). */
const DIFF_MEMO_CHARS = 8_000_000
let diffMemoChars = 0

/**
 * The unified hunks from blob `a` to blob `b` (undefined, or an id naming no blob: empty text).
 * Blob ids name their content, so the hunks of a pair never change: they are memoised (bounded,
 * least recently used out first), as a compare or a merge request's changes are read again and
 * again while the files they show stay the same.
 */
function blobDiff(repo: Repository, a: ObjectId | undefined, b: ObjectId | undefined): string {
  const key = `${a !== undefined && repo.objects.blob(a) ? a : ''}:${b !== undefined && repo.objects.blob(b) ? b : ''}`
  const known = diffMemo.get(key)
  if (known !== undefined) {
    diffMemo.delete(key)
    diffMemo.set(key, known)
    return known
  }
  const diff = unifiedDiff(textOf(repo, a), textOf(repo, b))
  diffMemo.set(key, diff)
  diffMemoChars += diff.length
  for (const [oldest, hunks] of diffMemo) {
    if (diffMemoChars <= DIFF_MEMO_CHARS) break
    diffMemo.delete(oldest)
    diffMemoChars -= hunks.length
  }
  return diff
}

/**
 * The files that differ from tree `from` (null: nothing) to tree `to`, in path order, a deleted file
 * whose exact content reappears under a new path shown once as a rename (git's rename detection at
 * 100% similarity).
 */
export function diffTrees(repo: Repository, from: ObjectId | null, to: ObjectId): FileDiff[] {
  const { changed, deleted, added } = changedPaths(repo, from, to)
  const out: FileDiff[] = []
  const mode = (m: TreeMode | undefined) => m ?? '0'
  for (const { path, a, b } of changed) {
    out.push({
      old_path: path, new_path: path, a_mode: a.mode, b_mode: b.mode,
      new_file: false, renamed_file: false, deleted_file: false,
      diff: blobDiff(repo, a.id, b.id),
    })
  }
  for (const { path, entry: b } of added) {
    const source = deleted.findIndex((d) => d.entry.id === b.id)
    if (source >= 0) {
      const [old] = deleted.splice(source, 1)
      out.push({ old_path: old!.path, new_path: path, a_mode: old!.entry.mode, b_mode: b.mode, new_file: false, renamed_file: true, deleted_file: false, diff: '' })
    } else {
      out.push({ old_path: path, new_path: path, a_mode: '0', b_mode: b.mode, new_file: true, renamed_file: false, deleted_file: false, diff: blobDiff(repo, undefined, b.id) })
    }
  }
  for (const { path, entry: a } of deleted) {
    out.push({ old_path: path, new_path: path, a_mode: a.mode, b_mode: mode(undefined), new_file: false, renamed_file: false, deleted_file: true, diff: blobDiff(repo, a.id, undefined) })
  }
  return out.sort((x, y) => (x.new_path < y.new_path ? -1 : x.new_path > y.new_path ? 1 : 0))
}

/** A file of one side of a tree diff. */
interface SidePath {
  path: string
  entry: FlatEntry
}

/**
 * The file paths that differ between two trees, as the flattened trees compared path by path give
 * them: `changed` (same path, other blob or mode) and `deleted` in `from`'s order, `added` in `to`'s
 * (rename pairing depends on these orders). Both trees' entries are merged in tree order, so each
 * side is read in its own order; a subtree with the same id on both sides is skipped without
 * reading it, as git's tree diff does: only the changed part of a large tree is walked.
 */
function changedPaths(repo: Repository, from: ObjectId | null, to: ObjectId) {
  const changed: { path: string; a: FlatEntry; b: FlatEntry }[] = []
  const deleted: SidePath[] = []
  const added: SidePath[] = []
  const entriesOf = (id: ObjectId | null) => (id === null ? [] : (repo.objects.tree(id)?.entries ?? []))
  const walk = (a: ObjectId | null, b: ObjectId | null, prefix: string) => {
    const ea = entriesOf(a)
    const eb = entriesOf(b)
    // Only on one side: a file, or every file of a tree.
    const gone = (x: TreeEntry) => (x.mode === '40000' ? walk(x.id, null, `${prefix}${x.name}/`) : deleted.push({ path: `${prefix}${x.name}`, entry: { id: x.id, mode: x.mode } }))
    const come = (y: TreeEntry) => (y.mode === '40000' ? walk(null, y.id, `${prefix}${y.name}/`) : added.push({ path: `${prefix}${y.name}`, entry: { id: y.id, mode: y.mode } }))
    let i = 0
    let j = 0
    while (i < ea.length || j < eb.length) {
      const x = ea[i]
      const y = eb[j]
      const order = x === undefined ? 1 : y === undefined ? -1 : compareTreeEntries(x, y)
      if (order < 0) {
        gone(x!)
        i++
      } else if (order > 0) {
        come(y!)
        j++
      } else {
        i++
        j++
        // Equal keys: both trees or both not (a tree's key ends in `/`, which no name holds).
        if (x!.name !== y!.name) {
          gone(x!)
          come(y!)
        } else if (x!.mode === '40000') {
          if (x!.id !== y!.id) walk(x!.id, y!.id, `${prefix}${x!.name}/`)
        } else if (x!.id !== y!.id || x!.mode !== y!.mode) {
          changed.push({ path: `${prefix}${x!.name}`, a: { id: x!.id, mode: x!.mode }, b: { id: y!.id, mode: y!.mode } })
        }
      }
    }
  }
  if (from !== to) walk(from, to, '')
  return { changed, deleted, added }
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
