/**
 * The job artifacts API: a job's artifacts archive (a zip) and one file of it, by job id or as the
 * latest successful job of a name on a ref; keeping and deleting them. Reads need `read_build` on
 * the project (after the project: 404 `{"message":"404 Project Not Found"}`, then 403); keep needs
 * `update_build` (Developer+), delete `destroy_artifacts` (Maintainer+); writes need a signed-in
 * user (`authenticate_non_get!`). A job without artifacts is 404 `{"message":"404 Not Found"}`.
 * gitlab (13.12): lib/api/job_artifacts.rb, lib/api/helpers.rb (`present_carrierwave_file!`,
 * `present_disk_file!`), app/policies/project_policy.rb.
 * @module
 */
import { badRequest, forbidden, notFound, recordNotFound, unauthorized } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import { contentDisposition } from '../../rules/uploads.js'
import { artifactsOf, eraseJobArtifacts, keepJobArtifacts, latestSuccessfulBuildForRef, validArtifactPath } from './jobs.artifacts.js'
import type { JobArtifactRecord } from './jobs.artifacts.tables.js'
import { artifactEntry, artifactsZip } from './jobs.artifacts.zip.js'
import { canDevelop, canReadBuilds, canUpdateJob, isBuild } from './pipelines.service.js'
import { ARCHIVE_FILENAME, Job } from './runners.entities.js'
import type { JobRecord } from './runners.tables.js'

const projectId = { id: p.string({ required: true }) }
const jobId = { ...projectId, job_id: p.integer({ required: true }) }

/** `authorize_read_builds!` on the project. @throws ApiError 404, then 403. */
function readBuildsProject(ctx: Ctx<{ id: string }>): ProjectRecord {
  const project = findProject(ctx, ctx.params.id)
  if (!canReadBuilds(ctx, project)) throw forbidden()
  return project
}

/** `find_build!`: a build of the project. @throws ApiError 404 `{"message":"404 Not found"}`. */
function findBuild(ctx: Ctx<unknown>, project: ProjectRecord, id: number): JobRecord {
  const job = ctx.db.tables.jobs.get(id)
  if (!job || job.project_id !== project.id || !isBuild(job)) throw recordNotFound()
  return job
}

/** The bytes as `present_disk_file!` sends a file: an `application/octet-stream` attachment. */
function attachment(bytes: Uint8Array, filename: string): Reply {
  return {
    status: 200,
    bytes,
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': contentDisposition('attachment', filename),
      'content-transfer-encoding': 'binary',
    },
  }
}

/** `present_carrierwave_file!(build.artifacts_file)`: the zip. @throws ApiError 404 `{"message":"404 Not Found"}` without one. */
function archiveOf(artifacts: JobArtifactRecord | undefined): Reply {
  if (!artifacts) throw notFound()
  return attachment(artifactsZip(artifacts), ARCHIVE_FILENAME)
}

/**
 * `send_artifacts_entry`: one file of the archive (Workhorse serves it as an attachment named by
 * its base name). @throws ApiError 400 `{"message":"400 Bad request"}` for a path with `..`, 404 for
 * a file the archive lacks.
 */
function entryOf(artifacts: JobArtifactRecord, path: string): Reply {
  if (!validArtifactPath(path)) throw badRequest()
  const bytes = artifactEntry(artifacts, path)
  if (!bytes) throw notFound()
  return attachment(bytes, path.split('/').at(-1) ?? path)
}

/** The job artifacts routes. */
export const jobArtifactRoutes: Route[] = [
  route('GET /projects/:id/jobs/artifacts/:ref_name/download', {
    auth: 'optional',
    jobTokenAllowed: true,
    params: { ...projectId, ref_name: p.string({ required: true }), job: p.string({ required: true }) },
    handler(ctx) {
      const project = readBuildsProject(ctx)
      const build = latestSuccessfulBuildForRef(ctx.db, project.id, ctx.params.job, ctx.params.ref_name)
      if (!build) throw recordNotFound()
      return archiveOf(artifactsOf(ctx.db, build))
    },
  }),

  route('GET /projects/:id/jobs/artifacts/:ref_name/raw/*artifact_path', {
    auth: 'optional',
    params: { ...projectId, ref_name: p.string({ required: true }), job: p.string({ required: true }), artifact_path: p.string({ required: true }) },
    handler(ctx) {
      const project = readBuildsProject(ctx)
      const build = latestSuccessfulBuildForRef(ctx.db, project.id, ctx.params.job, ctx.params.ref_name)
      if (!build) throw recordNotFound()
      return entryOf(artifactsOf(ctx.db, build)!, ctx.params.artifact_path)
    },
  }),

  route('GET /projects/:id/jobs/:job_id/artifacts', {
    auth: 'optional',
    jobTokenAllowed: true,
    params: jobId,
    handler(ctx) {
      const project = readBuildsProject(ctx)
      return archiveOf(artifactsOf(ctx.db, findBuild(ctx, project, ctx.params.job_id)))
    },
  }),

  route('GET /projects/:id/jobs/:job_id/artifacts/*artifact_path', {
    auth: 'optional',
    params: { ...jobId, artifact_path: p.string({ required: true }) },
    handler(ctx) {
      const project = readBuildsProject(ctx)
      const artifacts = artifactsOf(ctx.db, findBuild(ctx, project, ctx.params.job_id))
      if (!artifacts) throw notFound()
      return entryOf(artifacts, ctx.params.artifact_path)
    },
  }),

  route('POST /projects/:id/jobs/:job_id/artifacts/keep', {
    auth: 'optional',
    params: jobId,
    before(ctx) {
      if (!ctx.currentUser) throw unauthorized()
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize_update_builds!`, then `authorize!(:update_build, build)` (a protected ref's job).
      if (!canDevelop(ctx, project)) throw forbidden()
      const build = findBuild(ctx, project, ctx.params.job_id)
      if (!canUpdateJob(ctx, project, build)) throw forbidden()
      const artifacts = artifactsOf(ctx.db, build)
      if (!artifacts) throw notFound()
      keepJobArtifacts(ctx.db, artifacts)
      return ok(Job(ctx.db.tables.jobs.get(build.id)!, ctx))
    },
  }),

  route('DELETE /projects/:id/jobs/:job_id/artifacts', {
    auth: 'optional',
    params: jobId,
    before(ctx) {
      if (!ctx.currentUser) throw unauthorized()
    },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      // `authorize_destroy_artifacts!`: `destroy_artifacts` sits in 13.12's maintainer block.
      if (!hasProjectAccess(ctx.db, ctx.currentUser, project, AccessLevel.MAINTAINER, ctx.today)) throw forbidden()
      const build = findBuild(ctx, project, ctx.params.job_id)
      eraseJobArtifacts(ctx.db, build)
      return noContent()
    },
  }),
]
