/**
 * Merge requests on the project's repository: what GitLab reads of the source and target branches
 * (diff refs, the diff's files, its commits, whether it merges cleanly) and the writes that move
 * them (merge commit or fast-forward with optional squash, rebase, the merge ref). A
 * merge request whose branches both exist in its project's repository reads them live while it is
 * open; one whose branches do not (most scenario merge requests) keeps the SHAs and `merge_status`
 * of its row, and a merged one keeps what its merge recorded.
 * Sources: issue 26 item 3; gitlab: app/models/merge_request.rb (`diff_refs`, `commits`,
 * `default_merge_commit_message`, `mergeable?`, `can_be_merged_by?`), app/models/merge_request_diff.rb,
 * app/services/merge_requests/{merge,squash,rebase,merge_to_ref,mergeability_check}_service.rb (13.x),
 * gitaly: UserMergeBranch, UserSquash, UserRebaseConfirmable (merge commit parents, squash onto the
 * merge base, rebase replaying the source commits).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import {
  ancestors,
  commitOf,
  diffTrees,
  flatFiles,
  log,
  mergeBase,
  mergeFlatTrees,
  RepositoryWrite,
  repositoryOf,
  signatureAt,
  type FileDiff,
  type FlatEntry,
  type ObjectId,
  type ObjectStore,
  type Repository,
} from '../repository/repository.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** What a write here reads of the request: the store and the clock's instant (commit dates). */
export interface WriteCtx {
  readonly db: Db
  readonly now: string
  /** The base URL the request was served under (the push fact carries it). */
  readonly baseUrl: string
}

/** The open diff of a merge request whose branches exist: tips, base, and what merging would do. */
export interface LiveDiff {
  repo: Repository
  /** Source branch tip (`diff_head_sha`). */
  sha: ObjectId
  /** Target branch tip (`diff_start_sha`). */
  start_sha: ObjectId
  /** The merge base; null for unrelated histories. */
  base_sha: ObjectId | null
  /** `can_be_merged`, or `cannot_be_merged` when a merge would conflict. */
  merge_status: 'can_be_merged' | 'cannot_be_merged'
}

const memo = new WeakMap<Repository, Map<string, LiveDiff>>()

/**
 * The live diff of an open (or locked) merge request of its own project whose source and target
 * branches both exist, or null. Memoised per built repository (a write builds a new one).
 */
export function liveDiff(db: Db, mr: MergeRequestRecord): LiveDiff | null {
  if ((mr.state !== 'opened' && mr.state !== 'locked') || mr.source_project_id !== mr.project_id) return null
  const project = db.tables.projects.get(mr.project_id)
  if (!project) return null
  const repo = repositoryOf(db, project)
  const sha = repo.branches.get(mr.source_branch)
  const start = repo.branches.get(mr.target_branch)
  if (sha === undefined || start === undefined) return null
  let byKey = memo.get(repo)
  if (!byKey) memo.set(repo, (byKey = new Map()))
  const key = `${sha}:${start}`
  const known = byKey.get(key)
  if (known) return known
  const base = mergeBase(repo, sha, start) ?? null
  const merged = base === null ? null : mergeFiles(repo, base, start, sha)
  const live: LiveDiff = { repo, sha, start_sha: start, base_sha: base, merge_status: merged ? 'can_be_merged' : 'cannot_be_merged' }
  byKey.set(key, live)
  return live
}

/** What a merge request shows of its diff: live when it has one, else its row's. */
export interface DiffFacts {
  sha: string | null
  base_sha: string | null
  start_sha: string | null
  merge_status: string
}

/** {@link liveDiff} as presented, or the row's values (an empty stored SHA reads null). */
export function diffFacts(db: Db, mr: MergeRequestRecord): DiffFacts {
  const live = liveDiff(db, mr)
  if (live) return { sha: live.sha, base_sha: live.base_sha, start_sha: live.start_sha, merge_status: live.merge_status }
  return { sha: mr.sha || null, base_sha: mr.base_sha || null, start_sha: mr.start_sha || null, merge_status: mr.merge_status }
}

/** The repository, head and base a merge request's diff is read from (live, or the stored SHAs when they are in the store). */
function diffEnds(db: Db, mr: MergeRequestRecord): { repo: Repository; head: ObjectId; base: ObjectId | null; start: ObjectId } | null {
  const live = liveDiff(db, mr)
  if (live) return { repo: live.repo, head: live.sha, base: live.base_sha, start: live.start_sha }
  const project = db.tables.projects.get(mr.source_project_id)
  if (!project) return null
  const repo = repositoryOf(db, project)
  if (!repo.objects.commit(mr.sha) || !repo.objects.commit(mr.start_sha)) return null
  return { repo, head: mr.sha, start: mr.start_sha, base: repo.objects.commit(mr.base_sha) ? mr.base_sha : null }
}

/** `merge_request.raw_diffs`: the files changed from the merge base to the head ([] without a diff). */
export function mergeRequestChanges(db: Db, mr: MergeRequestRecord): FileDiff[] {
  const ends = diffEnds(db, mr)
  if (!ends) return []
  return diffTrees(ends.repo, ends.base === null ? null : commitOf(ends.repo, ends.base).tree, commitOf(ends.repo, ends.head).tree)
}

/**
 * `changes_count` (`merge_request_diff.real_size`): the number of changed files, as a string;
 * without a diff in the repository, the scenario's `changes_count` stand-in (default 0).
 */
export function changesCount(db: Db, mr: MergeRequestRecord): string {
  if (!diffEnds(db, mr)) return String(mr.changes_count ?? 0)
  return String(mergeRequestChanges(db, mr).length)
}

/** `merge_request.commits`: the head's commits the target did not have, newest first ([] without a diff). */
export function mergeRequestCommits(db: Db, mr: MergeRequestRecord): { repo: Repository; ids: ObjectId[] } | null {
  const ends = diffEnds(db, mr)
  if (!ends) return null
  const onTarget = ancestors(ends.repo, ends.start)
  return { repo: ends.repo, ids: log(ends.repo, [ends.head]).filter((id) => !onTarget.has(id)) }
}

/**
 * `MergeRequest#should_be_rebased?`: the project merges semi-linearly or fast-forward only
 * (`ff_merge_must_be_possible?`) and the target tip is not in the source's history
 * (`ff_merge_possible?`: `repository.ancestor?(target_branch_sha, diff_head_sha)`). False without
 * a live diff.
 */
export function shouldBeRebased(db: Db, project: ProjectRecord, mr: MergeRequestRecord): boolean {
  const method = project.merge_method ?? 'merge'
  if (method === 'merge') return false
  const live = liveDiff(db, mr)
  return live !== null && !ancestors(live.repo, live.sha).has(live.start_sha)
}

/**
 * Whether the merge request is still set to merge when its pipeline succeeds. The flag as stored,
 * unless what `MergeRequests::RefreshService` does on a push since happened: a new head on the
 * source branch (`abort_auto_merges`: the head is not the `sha` the merge was asked for), or, in a
 * semi-linear or fast-forward project, a target that moved so that a rebase is needed
 * (`abort_ff_merge_requests_with_when_pipeline_succeeds`). Read at once rather than on the push,
 * which another area makes.
 */
export function autoMergeEnabled(db: Db, mr: MergeRequestRecord): boolean {
  if (!mr.merge_when_pipeline_succeeds || mr.state !== 'opened') return false
  const live = liveDiff(db, mr)
  if (!live) return true
  const sha = mr.merge_params?.sha
  if (sha !== undefined && sha !== live.sha) return false
  const project = db.tables.projects.get(mr.project_id)
  return project === undefined || !shouldBeRebased(db, project, mr)
}

/**
 * `diverged_commits_count`: the target's commits the source lacks (what a rebase would bring in);
 * 0 without a live diff.
 */
export function divergedCommitsCount(db: Db, mr: MergeRequestRecord): number {
  const live = liveDiff(db, mr)
  if (!live) return 0
  const onSource = ancestors(live.repo, live.sha)
  return [...ancestors(live.repo, live.start_sha)].filter((id) => !onSource.has(id)).length
}

/**
 * The shared three-way merge (`mergeFlatTrees`, line by line) of the files of `theirs` into `ours`
 * over `base` (commits). Merged blobs are written to `into`: a write's store, or by default a
 * scratch store over the repository's (a read that only needs the outcome writes nothing).
 */
function mergeFiles(repo: Repository, base: ObjectId | null, ours: ObjectId, theirs: ObjectId, into: ObjectStore = repo.objects.child()): Map<string, FlatEntry> | null {
  const b = flatFiles(repo, base === null ? null : commitOf(repo, base).tree)
  return mergeFlatTrees(into, b, flatFiles(repo, commitOf(repo, ours).tree), flatFiles(repo, commitOf(repo, theirs).tree))
}

/**
 * `MergeRequest#default_merge_commit_message`: "Merge branch 'src' into 'tgt'", the title, "Closes
 * #1 and group/other#2" for the issues it closes (their references from the project), and "See
 * merge request group/project!iid", blank-line separated.
 */
export function defaultMergeCommitMessage(fullPath: string, mr: MergeRequestRecord, closes: readonly string[]): string {
  const parts = [`Merge branch '${mr.source_branch}' into '${mr.target_branch}'`, mr.title]
  if (closes.length > 0) parts.push(`Closes ${toSentence(closes)}`)
  parts.push(`See merge request ${fullPath}!${mr.iid}`)
  return parts.join('\n\n')
}

/** Rails' `Array#to_sentence`: "a", "a and b", "a, b, and c". */
function toSentence(words: readonly string[]): string {
  if (words.length <= 2) return words.join(' and ')
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`
}

/** What {@link mergeInStore} wrote. */
export interface MergeOutcome {
  /** The merge commit; null for a fast-forward (13.x `FfMergeService` records none). */
  merge_commit_sha: ObjectId | null
  squash_commit_sha: ObjectId | null
}

/**
 * `MergeService#commit` on the store: an optional squash commit (the head's tree on the merge base,
 * authored by the merge request's author, the title as message unless given), then a merge commit
 * of the target tip and the head (or the squash) whose tree is {@link mergeFiles}', committed by
 * `user`; the target branch moves to it, and the source branch goes when `removeSource`. With
 * `fastForward` (`FfMergeService`, projects whose `merge_method` is `ff`) there is no merge commit:
 * the target branch moves to the head (or the squash), which the caller made sure contains it.
 * Saved in the request's transaction.
 * @returns null when the merge would conflict (nothing is saved).
 */
export function mergeInStore(ctx: WriteCtx, project: ProjectRecord, mr: MergeRequestRecord, user: UserRecord, options: { message: string; squash: boolean; squashMessage: string; author: UserRecord | undefined; removeSource: boolean; fastForward: boolean }): MergeOutcome | null {
  const write = new RepositoryWrite(ctx.db, project)
  const repo = write.repo
  const target = repo.branches.get(mr.target_branch)!
  let head = repo.branches.get(mr.source_branch)!
  const base = mergeBase(repo, head, target) ?? null
  const committer = signatureAt(user.name, user.email, ctx.now)
  let squash: ObjectId | null = null
  if (options.squash) {
    const author = options.author ? signatureAt(options.author.name, options.author.email, ctx.now) : committer
    squash = write.writeCommit({ tree: commitOf(repo, head).tree, parents: base === null ? [] : [base], author, committer, message: options.squashMessage })
    head = squash
  }
  if (options.fastForward) {
    if (!ancestors(repo, head).has(target)) return null
    write.setBranch(mr.target_branch, head)
    if (options.removeSource) write.setBranch(mr.source_branch, null)
    write.save({ userId: user.id, at: ctx.now, baseUrl: ctx.baseUrl })
    return { merge_commit_sha: null, squash_commit_sha: squash }
  }
  const files = mergeFiles(repo, base, target, head, repo.objects)
  if (!files) return null
  const tree = write.writeFlatTree(files)
  const merge = write.writeCommit({ tree, parents: [target, head], author: committer, committer, message: options.message })
  write.setBranch(mr.target_branch, merge)
  if (options.removeSource) write.setBranch(mr.source_branch, null)
  write.save({ userId: user.id, at: ctx.now, baseUrl: ctx.baseUrl })
  return { merge_commit_sha: merge, squash_commit_sha: squash }
}

/**
 * `RebaseService` on the store: replays the source branch's own commits, oldest first, on the
 * target tip (each one's change merged as a cherry-pick: authors kept, `user` the committer), and
 * moves the source branch to the last one. Nothing to do when the target tip is already in the
 * source's history.
 * @returns false when a commit does not apply (nothing is saved), else true.
 */
export function rebaseInStore(ctx: WriteCtx, project: ProjectRecord, mr: MergeRequestRecord, user: UserRecord): boolean {
  const write = new RepositoryWrite(ctx.db, project)
  const repo = write.repo
  const target = repo.branches.get(mr.target_branch)!
  const source = repo.branches.get(mr.source_branch)!
  const onTarget = ancestors(repo, target)
  if (ancestors(repo, source).has(target)) return true
  const own = log(repo, [source]).filter((id) => !onTarget.has(id) && commitOf(repo, id).parents.length <= 1).reverse()
  const committer = signatureAt(user.name, user.email, ctx.now)
  let tip = target
  for (const id of own) {
    const commit = commitOf(repo, id)
    const files = mergeFiles(repo, commit.parents[0] ?? null, tip, id, repo.objects)
    if (!files) return false
    tip = write.writeCommit({ tree: write.writeFlatTree(files), parents: [tip], author: commit.author, committer, message: commit.message })
  }
  write.setBranch(mr.source_branch, tip)
  write.save({ userId: user.id, at: ctx.now, baseUrl: ctx.baseUrl })
  return true
}

/**
 * The commit `refs/merge-requests/:iid/merge` holds (`MergeToRefService`): the merge commit of the
 * target tip and the head, as the merge request's author would make it. Its objects go into
 * `write`: by default a write never saved (the GET route, which writes nothing), or the write that
 * moves the merge ref (merge-requests.refs.ts). Null when there is no live diff or the merge conflicts.
 */
export function mergeRefCommit(ctx: WriteCtx, project: ProjectRecord, mr: MergeRequestRecord, message: string, write: RepositoryWrite = new RepositoryWrite(ctx.db, project)): ObjectId | null {
  const live = liveDiff(ctx.db, mr)
  if (!live) return null
  const files = mergeFiles(live.repo, live.base_sha, live.start_sha, live.sha, write.repo.objects)
  if (!files) return null
  const author = ctx.db.tables.users.get(mr.author_id)
  const signature = signatureAt(author?.name ?? '', author?.email ?? '', ctx.now)
  const tree = write.writeFlatTree(files)
  return write.writeCommit({ tree, parents: [live.start_sha, live.sha], author: signature, committer: signature, message })
}
