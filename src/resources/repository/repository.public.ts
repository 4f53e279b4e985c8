/**
 * What other areas may use of the repository area (its public module: besides `index.ts`, the only
 * file of this folder another area imports): the project's repository as built, the readers over
 * it (revisions, merge bases, tree diffs), who may push and merge to a branch (protected branches),
 * and the write primitive a merge request's merge builds on (stage objects, one commit of file
 * actions or of a given tree, move refs, save inside the request's store transaction); the
 * `Commit` entity and tag peeling a release presents its tag's commit with; the hooks through
 * which tags show their release, `release_description` makes one and commits show their
 * pipeline; and a project's branch and tag names and the commit a ref names,
 * as CI reads them (`Repository#branch_names`, `#tag_names`, `Project#commit(ref)`); the `Commit`
 * and `Diff` entities a merge request's `commits` and `changes` present; the branch and tag names a
 * scenario's `repository:` makes, against which other areas check their refs.
 * Source: issue 26 items 2, 3 and 5; gitlab: app/models/repository.rb, app/models/project.rb.
 * @module
 */
export { repositoryOf } from './repository.build.js'
export type { Repository } from './repository.build.js'
export type { ObjectId } from './git-objects.js'
export { ObjectStore } from './git-objects.js'
export type { GitObject, Signature, TreeEntry, TreeMode } from './git-objects.js'
export { encodeObject } from './git-objects.js'
export { saveWrite } from './repository-writes.service.js'
export { allowsForcePush, branchCreationRefusal, branchDeletionRefusal } from './repository.protection.js'
export { mergeFlatTrees } from './repository.merge.js'
export { ancestors, commitOf, diffTrees, log, mergeBase, peelToCommit, resolveCommit } from './repository.service.js'
export type { FileDiff } from './repository.service.js'
export { pushedCommits } from './repository.push-data.js'
export type { PushedRef } from './repository.push-data.js'
export { Commit, CommitDetail, Diff } from './repository.entities.js'
export { canDownloadCode, commitNamed, readable as readableRepository } from './repository.helpers.js'
export { registerTagReleaseCreator, registerTagReleaseLookup } from './repository.tag-release.js'
export { registerCommitPipelineLookup } from './repository.commit-pipeline.js'
export { registerBranchesInUse } from './repository.branch-use.js'
export { canMergeToBranch, canPushToBranch, isProtectedBranch } from './repository.protection.js'
export { refProblem, scenarioRefNames } from './repository.scenario.js'
export type { FlatEntry } from './repository.build.js'
export { ActionError, commitActions, flatFiles, pusherOf, refTarget, RepositoryWrite, signatureAt } from './repository.write.js'
export type { CommitAction } from './repository.write.js'
import type { ProjectRecord, Tables } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { rememberRepository, repositoryOf } from './repository.build.js'
import type { Db } from '../../db/db.js'
import { Commit } from './repository.entities.js'
import { entryAt, peelToCommit, resolveCommit } from './repository.service.js'

/** A commit as the `Commit` entity presents it (id, title, message, author, dates in GitLab's format). */
export type RefCommit = ReturnType<typeof Commit>

/** What a ref names in a project's repository (see {@link refOf}). */
export interface RefFacts {
  /** A branch of that name exists. */
  readonly branch: boolean
  /** A tag of that name exists. */
  readonly tag: boolean
  /** The commit it names (a tag peeled; a branch before a tag of the same name, as GitLab's CI reads `refs/heads` for a branch), or undefined. */
  readonly commit: RefCommit | undefined
}

/** The branch names of the project's repository, in name order. */
export function branchNames(ctx: PresentCtx, project: ProjectRecord): string[] {
  return [...repositoryOf(ctx.db, project).branches.keys()].sort()
}

/** The tag names of the project's repository, in name order. */
export function tagNames(ctx: PresentCtx, project: ProjectRecord): string[] {
  return [...repositoryOf(ctx.db, project).tags.keys()].sort()
}

/**
 * What a short ref name (`main`, `v1.0.0`) names in the project's repository: whether it is a
 * branch, a tag, and the commit (the branch's tip when both exist).
 */
export function refOf(ctx: PresentCtx, project: ProjectRecord, ref: string): RefFacts {
  const repo = repositoryOf(ctx.db, project)
  const branchTip = repo.branches.get(ref)
  const tagTarget = repo.tags.get(ref)
  const id = branchTip ?? (tagTarget === undefined ? undefined : peelToCommit(repo, tagTarget))
  return { branch: branchTip !== undefined, tag: tagTarget !== undefined, commit: id === undefined ? undefined : Commit(repo, id, project, ctx) }
}

/** The commit id a revision names (`Project#commit(ref)`: a branch, tag, sha or `HEAD`), or undefined. */
export function commitIdOf(ctx: PresentCtx, project: ProjectRecord, revision: string): string | undefined {
  return resolveCommit(repositoryOf(ctx.db, project), revision, project.default_branch)
}

const utf8 = new TextDecoder()

/**
 * The text (UTF-8) of the file at `path` in the commit `sha` of the project's repository, or
 * undefined when the commit or the file is not there (a directory is no file): what CI reads its
 * `.gitlab-ci.yml` through (`Commit#raw_blob` / `Repository#blob_data_at`).
 */
export function fileTextAt(ctx: PresentCtx, project: ProjectRecord, sha: string, path: string): string | undefined {
  const repo = repositoryOf(ctx.db, project)
  const commit = repo.objects.commit(sha)
  if (!commit) return undefined
  const entry = entryAt(repo, commit.tree, path)
  const blob = entry && entry.mode !== '40000' && entry.mode !== '160000' ? repo.objects.blob(entry.id) : undefined
  return blob ? utf8.decode(blob.data) : undefined
}

/**
 * Gives project `to` a copy of project `from`'s repository (a fork's, an import's): the row the
 * repository follows from, copied, with the built repository's object store shared (objects are
 * content-addressed, so sharing is safe and costs nothing) and its refs copied. A project without
 * a repository gives nothing. gitlab: app/services/projects/fork_service.rb (the fork's repository
 * is a pool member of its source's object pool).
 */
export function copyRepository(db: Db, from: ProjectRecord, to: ProjectRecord): void {
  const row = db.tables.project_repositories.get(from.id)
  if (!row) return
  const repo = repositoryOf(db, from)
  // The refs GitLab keeps for the source's own merge requests, pipelines and environments are not
  // the copy's (Gitaly's `CreateFork` clones branches and tags): the copy's row drops them.
  const internal = [...repo.otherRefs.keys()].filter((ref) => GITLAB_INTERNAL_REFS.some((prefix) => ref.startsWith(prefix)))
  const otherRefs = new Map(repo.otherRefs)
  for (const ref of internal) otherRefs.delete(ref)
  const copied = structuredClone(row)
  if (internal.length > 0) copied.pushes = [...(copied.pushes ?? []), { objects: [], refs: Object.fromEntries(internal.map((ref) => [ref, null])) }]
  const copy = db.tables.project_repositories.insert({ ...copied, id: to.id, project_id: to.id })
  rememberRepository(copy, { objects: repo.objects, branches: new Map(repo.branches), tags: new Map(repo.tags), otherRefs, flatTrees: repo.flatTrees })
}

/** The ref namespaces GitLab writes itself (merge requests' head and merge refs, pipelines', environments', kept-around commits). */
const GITLAB_INTERNAL_REFS = ['refs/merge-requests/', 'refs/pipelines/', 'refs/environments/', 'refs/keep-around/']

/**
 * A project's repository as plain JSON (the row it follows from, without ids), for fakelab's
 * project export; null for a project without a repository.
 */
export function repositorySnapshot(db: Db, project: ProjectRecord): Record<string, unknown> | null {
  const row = db.tables.project_repositories.get(project.id)
  if (!row) return null
  const { id: _id, project_id: _project, ...rest } = structuredClone(row)
  return rest
}

/**
 * Gives `project` the repository a {@link repositorySnapshot} describes (an import).
 * @throws Error when the snapshot is not one (the import marks itself failed).
 */
export function restoreRepository(db: Db, project: ProjectRecord, snapshot: Record<string, unknown>): void {
  if (!Array.isArray(snapshot.commits) || typeof snapshot.default_branch !== 'string' || typeof snapshot.branches !== 'object' || !Array.isArray(snapshot.tags)) {
    throw new Error('The repository in the export file is not valid')
  }
  const row = { ...(structuredClone(snapshot) as unknown as Omit<Tables['project_repositories'], 'id' | 'project_id'>), id: project.id, project_id: project.id }
  db.tables.project_repositories.insert(row)
}
