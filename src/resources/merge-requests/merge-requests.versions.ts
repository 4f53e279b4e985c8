/**
 * Merge request diff versions (`merge_request_diffs`): a merge request gets one when it is created
 * and one more each time its source branch is pushed to (`MergeRequests::RefreshService` →
 * `reload_diff` → `create_merge_request_diff`); each keeps its head, base and start SHAs, and its
 * commits and files are read back from the repository by them. Source: issue 34 item 2; gitlab
 * (13.12): app/models/merge_request_diff.rb (`save_diffs`: `empty` without commits, else
 * `real_size` and `collected` with changed files), app/services/merge_requests/refresh_service.rb
 * (`reload_merge_requests`), lib/api/merge_request_diffs.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import { ancestors, commitOf, diffTrees, log, repositoryOf, type FileDiff, type ObjectId, type Repository } from '../repository/repository.public.js'
import { liveDiff } from './merge-requests.git.js'
import type { MergeRequestDiffRecord, MergeRequestRecord } from './merge-requests.tables.js'

/** The repository a version's SHAs are read from, and whether each SHA is a commit there. */
function versionRepo(db: Db, mr: MergeRequestRecord): Repository | null {
  const project = db.tables.projects.get(mr.source_project_id) ?? db.tables.projects.get(mr.project_id)
  return project ? repositoryOf(db, project) : null
}

/** A version's commits, newest first (the head's commits the start did not have); [] when its SHAs are not in the repository. */
export function versionCommits(db: Db, mr: MergeRequestRecord, version: Pick<MergeRequestDiffRecord, 'head_commit_sha' | 'start_commit_sha'>): { repo: Repository; ids: ObjectId[] } | null {
  const repo = versionRepo(db, mr)
  const head = version.head_commit_sha
  const start = version.start_commit_sha
  if (!repo || !head || !start || !repo.objects.commit(head) || !repo.objects.commit(start)) return null
  const onTarget = ancestors(repo, start)
  return { repo, ids: log(repo, [head]).filter((id) => !onTarget.has(id)) }
}

/** A version's changed files, from its base (or nothing, for unrelated histories) to its head. */
export function versionDiffs(db: Db, mr: MergeRequestRecord, version: Pick<MergeRequestDiffRecord, 'head_commit_sha' | 'base_commit_sha' | 'start_commit_sha'>): FileDiff[] {
  const found = versionCommits(db, mr, version)
  if (!found || found.ids.length === 0) return []
  const { repo } = found
  const base = version.base_commit_sha && repo.objects.commit(version.base_commit_sha) ? commitOf(repo, version.base_commit_sha).tree : null
  return diffTrees(repo, base, commitOf(repo, version.head_commit_sha!).tree)
}

/**
 * `create_merge_request_diff`: a new version of `mr`'s diff as its branches give it now (live), or
 * as its row keeps it when they are gone. No version is added when the newest one already has the
 * same head and start (the push that opened it through push options, say).
 * @param at the instant it is made (GitLab timestamp).
 */
export function recordVersion(db: Db, mr: MergeRequestRecord, at: string): MergeRequestDiffRecord | undefined {
  const live = liveDiff(db, mr)
  const head = live ? live.sha : mr.sha || null
  const start = live ? live.start_sha : mr.start_sha || null
  const base = live ? live.base_sha : mr.base_sha || null
  const newest = db.tables.merge_request_diffs.where('merge_request_id', mr.id).at(-1)
  if (newest && newest.head_commit_sha === head && newest.start_commit_sha === start) return undefined
  const shas = { head_commit_sha: head, base_commit_sha: base, start_commit_sha: start }
  const commits = versionCommits(db, mr, shas)
  const files = versionDiffs(db, mr, shas)
  const noCommits = commits !== null && commits.ids.length === 0
  return db.tables.merge_request_diffs.insert({
    merge_request_id: mr.id,
    ...shas,
    state: files.length > 0 ? 'collected' : 'empty',
    // `save_diffs` sets `real_size` only when there are commits; a merge request whose SHAs are not
    // in the store (most scenario ones) shows the count its row implies: none known, so "0".
    real_size: noCommits ? null : String(files.length),
    created_at: at,
  })
}

/** `merge_request.merge_request_diffs.order_id_desc`: the versions of a merge request, newest first. */
export function versionsOf(db: Db, mr: MergeRequestRecord): MergeRequestDiffRecord[] {
  return db.tables.merge_request_diffs.where('merge_request_id', mr.id).slice().reverse()
}

/**
 * `RefreshService#reload_merge_requests` for a push: every open merge request of `projectId` whose
 * source branch is `branch` gets a new version.
 * spec-gap: GitLab also reloads a merge request whose target branch received one of its commits
 * (`includes_any_commits?`) and on a force push; fakelab only on a push to the source branch.
 */
export function recordPushVersions(db: Db, projectId: number, branch: string, at: string): void {
  for (const mr of db.tables.merge_requests.where('project_id', projectId)) {
    if (mr.state === 'opened' && mr.source_project_id === projectId && mr.source_branch === branch) recordVersion(db, mr, at)
  }
}
