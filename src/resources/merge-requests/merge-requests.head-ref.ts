/**
 * `refs/merge-requests/<iid>/head`: a merge request's source branch tip fetched into its target
 * project's repository (`MergeRequest#fetch_ref!`), a fork's commits copied with it; staged in a
 * {@link RepositoryWrite}. The scenario loader writes it for the scenario's merge requests; the
 * subscribers (merge-requests.refs.ts) when they are opened and pushed to. Kept apart from the
 * merge ref so that the scenario module, imported at every start, stays small.
 * gitlab (13.12): app/models/merge_request.rb (`fetch_ref!`, `ref_path`, `eager_fetch_ref!`),
 * app/models/repository.rb (`fetch_source_branch!`).
 * @module
 */
import type { Db } from '../../db/db.js'
import { RepositoryWrite, repositoryOf, type ObjectId, type Repository } from '../repository/repository.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

/** `MergeRequest#ref_path`: `refs/merge-requests/<iid>/head`. */
function headRefPath(mr: Pick<MergeRequestRecord, 'iid'>): string {
  return `refs/merge-requests/${mr.iid}/head`
}

/** `MergeRequest#merge_ref_path`: `refs/merge-requests/<iid>/merge`. */
export function mergeRefPath(mr: Pick<MergeRequestRecord, 'iid'>): string {
  return `refs/merge-requests/${mr.iid}/merge`
}

/**
 * Copies into `write` every object reachable from `tip` in `from` that the written repository
 * lacks (`fetch_source_branch!` from a fork: a fetch brings exactly those), stopping at objects it has.
 */
function copyReachable(write: RepositoryWrite, from: Repository, tip: ObjectId): void {
  const stack = [tip]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (write.repo.objects.has(id)) continue
    const object = from.objects.get(id)
    if (!object) continue
    switch (object.type) {
      case 'commit':
        stack.push(object.tree, ...object.parents)
        break
      case 'tree':
        for (const entry of object.entries) if (entry.mode !== '160000') stack.push(entry.id)
        break
      case 'tag':
        stack.push(object.object)
        break
      case 'blob':
        break
    }
    write.writeObject(object)
  }
}

/**
 * What the head ref of `mr` points at now: its source branch's tip in its source project, else
 * (a merge request loaded from a scenario, whose branch is gone or never existed) its recorded
 * `sha` when the source project's repository has that commit; undefined when neither.
 */
function sourceTip(db: Db, mr: MergeRequestRecord, preferSha: boolean): { repo: Repository; tip: ObjectId } | undefined {
  const source = db.tables.projects.get(mr.source_project_id)
  if (!source) return undefined
  const repo = repositoryOf(db, source)
  const branchTip = repo.branches.get(mr.source_branch)
  const recorded = mr.sha && repo.objects.commit(mr.sha) ? mr.sha : undefined
  const tip = preferSha ? (recorded ?? branchTip) : (branchTip ?? recorded)
  return tip === undefined ? undefined : { repo, tip }
}

/**
 * Stages `mr`'s head ref in `write` (its target project's repository), copying a fork's commits;
 * true when it moved. `preferSha`: a scenario merge request no longer open points at its row's `sha`
 * when that commit exists (its branch may have moved on since it was merged or closed).
 */
export function stageHeadRef(db: Db, write: RepositoryWrite, mr: MergeRequestRecord, preferSha = false): boolean {
  const found = sourceTip(db, mr, preferSha)
  if (!found) return false
  if (mr.source_project_id !== mr.project_id) copyReachable(write, found.repo, found.tip)
  if (write.repo.otherRefs.get(headRefPath(mr)) === found.tip) return false
  write.setRef(headRefPath(mr), found.tip)
  return true
}

/**
 * At scenario load: every merge request of the scenario gets the head ref GitLab wrote when it was
 * created (its source branch's tip, or its recorded `sha` for one merged or closed), and every
 * open one its merge ref, one write per target project.
 */
export function loadMergeRequestRefs(db: Db, mrs: readonly MergeRequestRecord[]): void {
  const byProject = new Map<number, MergeRequestRecord[]>()
  for (const mr of mrs) {
    const list = byProject.get(mr.project_id)
    if (list) list.push(mr)
    else byProject.set(mr.project_id, [mr])
  }
  for (const [projectId, list] of byProject) {
    const project = db.tables.projects.get(projectId)
    if (!project) continue
    const write = new RepositoryWrite(db, project)
    let moved = false
    for (const mr of list) if (stageHeadRef(db, write, mr, mr.state !== 'opened')) moved = true
    if (!moved) continue
    const latest = list.reduce((at, mr) => (mr.created_at > at ? mr.created_at : at), list[0]!.created_at)
    write.save({ userId: null, at: latest, baseUrl: '' })
  }
}

