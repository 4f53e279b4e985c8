/**
 * The refs GitLab keeps for a merge request in its target project's repository:
 * `refs/merge-requests/<iid>/head`, the source branch's tip fetched into the target project
 * (`MergeRequest#fetch_ref!`: when the merge request is created, `eager_fetch_ref!`, and each time
 * its diff is reloaded, `create_merge_request_diff`: a push to its source branch, a reopen, a new
 * target branch), for a merge request from a fork too (its commits are copied into the target
 * project); and `refs/merge-requests/<iid>/merge`, the merge commit of the source into the target
 * that `MergeabilityCheckService#merge_to_ref` writes (`MergeToRefService`, `merge_ref_auto_sync`
 * on by default in 13.12) whenever the merge status is checked again: after the merge request is
 * created or reopened and after a push to either branch. A merge that would conflict writes no
 * merge ref (`MergeToRefService` fails; an older one stays). Neither ref is ever deleted here
 * (13.12 CE deletes them only from `MergeRequestCleanupRef`'s worker, 14 days after a merge or close).
 * The merge requests area moves them from its subscribers to the `merge_request` and `push` facts
 * and at scenario load, through the repository area's {@link RepositoryWrite}; receive-pack refuses
 * a push to them (GitLab's hidden refs).
 * gitlab (13.12): app/models/merge_request.rb (`fetch_ref!`, `ref_path`, `merge_ref_path`),
 * app/services/merge_requests/create_service.rb (`before_create`), refresh_service.rb
 * (`reload_merge_requests`), mergeability_check_service.rb, merge_to_ref_service.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { RepositoryWrite } from '../repository/repository.public.js'
import { closingReferences } from './merge-requests.closing.js'
import { defaultMergeCommitMessage, liveDiff, mergeRefCommit } from './merge-requests.git.js'
import { closesIssues } from './merge-requests.service.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'
import { mergeRefPath, stageHeadRef } from './merge-requests.head-ref.js'

/** The request's store, instant and base URL (a fact's header gives them). */
export interface RefsCtx {
  readonly db: Db
  readonly now: string
  readonly baseUrl: string
}

/**
 * Stages `mr`'s merge ref in `write` (`MergeToRefService` as the author, with the default merge
 * commit message): true when it moved; nothing for a merge request that is not open, has no live
 * diff, or would conflict.
 */
function stageMergeRef(ctx: RefsCtx, project: ProjectRecord, write: RepositoryWrite, mr: MergeRequestRecord): boolean {
  if (mr.state !== 'opened' || !liveDiff(ctx.db, mr)) return false
  const author = ctx.db.tables.users.get(mr.author_id) ?? null
  const asAuthor = { db: ctx.db, now: ctx.now, today: ctx.now.slice(0, 10), baseUrl: ctx.baseUrl, currentUser: author }
  const message = defaultMergeCommitMessage(ctx.db.projectFullPath(project), mr, closingReferences(asAuthor, project, closesIssues(asAuthor, mr)))
  const id = mergeRefCommit(ctx, project, mr, message, write)
  if (id === null || write.repo.otherRefs.get(mergeRefPath(mr)) === id) return false
  write.setRef(mergeRefPath(mr), id)
  return true
}

/**
 * Writes the refs of the merge requests `mrs` of one target project in one write:
 * `head` fetches the source branch (`fetch_ref!`), `merge` checks mergeability again (`merge_to_ref`).
 * A write that moved nothing saves nothing. The write publishes no `push` fact (neither ref is a branch or tag).
 * @param actorId the user the write is recorded for (null at scenario load).
 */
export function writeMergeRequestRefs(ctx: RefsCtx, project: ProjectRecord, mrs: readonly MergeRequestRecord[], what: { head: boolean; merge: boolean }, actorId: number | null): void {
  if (mrs.length === 0) return
  const write = new RepositoryWrite(ctx.db, project)
  let moved = false
  for (const mr of mrs) {
    if (what.head && stageHeadRef(ctx.db, write, mr)) moved = true
    if (what.merge && stageMergeRef(ctx, project, write, mr)) moved = true
  }
  if (moved) write.save({ userId: actorId, at: ctx.now, baseUrl: ctx.baseUrl })
}

/**
 * `RefreshService#reload_merge_requests` for the refs: after a push to branch `branch` of
 * `project`, the open merge requests whose source it is (in this project or from it, a fork's) get
 * their head ref and their merge ref again; those that target it get their merge ref again.
 */
export function refreshMergeRequestRefs(ctx: RefsCtx, project: ProjectRecord, branch: string, actorId: number | null): void {
  const targets = new Map<number, MergeRequestRecord[]>()
  // The project's own merge requests and those whose source is here (a fork's), each once.
  const mergeRequests = ctx.db.tables.merge_requests
  const candidates = new Map([...mergeRequests.where('project_id', project.id), ...mergeRequests.where('source_project_id', project.id)].map((mr) => [mr.id, mr]))
  for (const mr of [...candidates.values()].sort((a, b) => a.id - b.id)) {
    if (mr.state !== 'opened') continue
    const fromHere = mr.source_project_id === project.id && mr.source_branch === branch
    const toHere = mr.project_id === project.id && mr.target_branch === branch
    if (!fromHere && !toHere) continue
    const list = targets.get(mr.project_id)
    if (list) list.push(mr)
    else targets.set(mr.project_id, [mr])
  }
  for (const [projectId, list] of targets) {
    const target = ctx.db.tables.projects.get(projectId)
    if (!target) continue
    const write = new RepositoryWrite(ctx.db, target)
    let moved = false
    for (const mr of list) {
      if (mr.source_project_id === project.id && mr.source_branch === branch && stageHeadRef(ctx.db, write, mr)) moved = true
      if (stageMergeRef(ctx, target, write, mr)) moved = true
    }
    if (moved) write.save({ userId: actorId, at: ctx.now, baseUrl: ctx.baseUrl })
  }
}
