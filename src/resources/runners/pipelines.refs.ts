/**
 * Persistent pipeline refs (`Ci::PersistentRef`, `depend_on_persistent_pipeline_ref` on by default
 * in 13.12): `refs/pipelines/<id>` points at a pipeline's commit from the moment a runner starts
 * one of its jobs (`Ci::Build` `after_transition pending: :running` → `persistent_ref.create`), so
 * the runner can fetch it even after a force push or a deleted branch, until the pipeline
 * completes (`Ci::Pipeline` `after_transition any => completed_statuses` → `persistent_ref.delete`).
 * No runner picks jobs up in fakelab, so only a scenario's running jobs made one: their
 * pipelines get the ref at load (when the repository has the pipeline's commit: Gitaly's
 * `create_ref` fails otherwise, and GitLab only logs it), and lose it when the pipeline completes
 * (the `pipeline` fact). Written through the repository area's {@link RepositoryWrite}; receive-pack
 * refuses pushes to it (a hidden ref), upload-pack advertises it.
 * gitlab (13.12): app/models/ci/persistent_ref.rb, app/models/ci/build.rb, app/models/ci/pipeline.rb.
 * @module
 */
import type { Db } from '../../db/db.js'
import { RepositoryWrite, repositoryOf } from '../repository/repository.public.js'
import type { PipelineRecord } from './runners.tables.js'

/** `Ci::Pipeline.completed_statuses` (13.12). */
const COMPLETED = new Set(['success', 'failed', 'canceled', 'skipped'])

/** `PersistentRef#path`: `refs/pipelines/<id>`. */
function pipelineRefPath(pipeline: Pick<PipelineRecord, 'id'>): string {
  return `refs/pipelines/${pipeline.id}`
}

/**
 * At scenario load: every pipeline not yet completed with a running job (a build a runner started)
 * gets its persistent ref, when its project's repository has its commit; one write per project.
 */
export function loadPipelineRefs(db: Db): void {
  const started = new Set<number>()
  for (const job of db.tables.jobs.all()) if (job.type === 'Ci::Build' && job.status === 'running') started.add(job.pipeline_id)
  const byProject = new Map<number, PipelineRecord[]>()
  for (const id of started) {
    const pipeline = db.tables.pipelines.get(id)
    if (!pipeline || COMPLETED.has(pipeline.status)) continue
    byProject.set(pipeline.project_id, [...(byProject.get(pipeline.project_id) ?? []), pipeline])
  }
  for (const [projectId, pipelines] of byProject) {
    const project = db.tables.projects.get(projectId)
    if (!project) continue
    const repo = repositoryOf(db, project)
    const found = pipelines.filter((p) => repo.objects.commit(p.sha) !== undefined)
    if (found.length === 0) continue
    const write = new RepositoryWrite(db, project)
    for (const pipeline of found) write.setRef(pipelineRefPath(pipeline), pipeline.sha)
    write.save({ userId: null, at: found[0]!.created_at, baseUrl: '' })
  }
}

/**
 * After a pipeline's status changed: a completed pipeline's persistent ref is deleted (nothing
 * when it has none).
 * @param ctx the fact's store, instant and base URL.
 */
export function dropPipelineRef(ctx: { readonly db: Db; readonly now: string; readonly baseUrl: string }, pipeline: PipelineRecord, actorId: number | null): void {
  if (!COMPLETED.has(pipeline.status)) return
  const project = ctx.db.tables.projects.get(pipeline.project_id)
  if (!project || !repositoryOf(ctx.db, project).otherRefs.has(pipelineRefPath(pipeline))) return
  const write = new RepositoryWrite(ctx.db, project)
  write.setRef(pipelineRefPath(pipeline), null)
  write.save({ userId: actorId, at: ctx.now, baseUrl: ctx.baseUrl })
}
