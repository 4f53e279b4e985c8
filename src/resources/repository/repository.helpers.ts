/**
 * What the repository routes share: the `download_code` gate, branch facts, file lookups and the
 * headers GitLab's files API sets. gitlab: lib/api/helpers.rb, files.rb, entities/branch.rb (13.x),
 * app/policies/project_policy.rb (`download_code`: public access, internal access of a
 * non-external user, Reporter+, administrators).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { forbidden, grapeError, notFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { findProject } from '../../rules/finders.js'
import type { ObjectId } from './git-objects.js'
import { repositoryOf, type Repository } from './repository.build.js'
import type { BranchFacts } from './repository.entities.js'
import { canPushToBranch, developersCan, isProtectedBranch } from './repository.protection.js'
import { ancestors, commitOf, entryAt, log, resolveCommit } from './repository.service.js'

/** Whether the user may read the project's code (`download_code`), the project being readable. */
export function canDownloadCode(ctx: Pick<Ctx<unknown>, 'db' | 'currentUser' | 'today'>, project: ProjectRecord): boolean {
  const user = ctx.currentUser
  if (project.visibility === 'public') return true
  if (!user) return false
  if (user.admin) return true
  if (project.visibility === 'internal' && !user.external) return true
  return projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.REPORTER
}

/**
 * `user_project` then `authorize! :download_code`: the project and its repository.
 * @throws ApiError 404 `{"message":"404 Project Not Found"}`, 403 `{"message":"403 Forbidden"}`.
 */
export function readable(ctx: Ctx<{ id: string }>): { project: ProjectRecord; repo: Repository } {
  const project = findProject(ctx, ctx.params.id)
  if (!canDownloadCode(ctx, project)) throw forbidden()
  return { project, repo: repositoryOf(ctx.db, project) }
}

export const projectId = { id: p.string({ required: true }) }

/** Byte order of names, as git lists refs. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * GitLab's ref search (`BranchesFinder`/`TagsFinder` 13.x): `^term` a prefix, `term$` a suffix,
 * else a substring; case-insensitive.
 */
export function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true
  const n = name.toLowerCase()
  const s = search.toLowerCase()
  if (s.startsWith('^')) return n.startsWith(s.slice(1))
  if (s.endsWith('$')) return n.endsWith(s.slice(0, -1))
  return n.includes(s)
}

/**
 * A branch's facts for the `Branch` entity (13.x): `merged`: its tip is an ancestor of the default
 * branch's tip and not that tip (Repository#merged_to_root_ref?); `protected`,
 * `developers_can_push`/`_merge` and `can_push` from the project's protected branches
 * (`ProtectedBranch.protected?`, `developers_can?`, `UserAccess#can_push_to_branch?`).
 */
export function branchFacts(ctx: Ctx<unknown>, repo: Repository, project: ProjectRecord, name: string, headAncestors: ReadonlySet<ObjectId> | null): BranchFacts {
  const tip = repo.branches.get(name)!
  const headTip = repo.branches.get(project.default_branch)
  return {
    merged: headTip !== undefined && tip !== headTip && (headAncestors?.has(tip) ?? false),
    protected: isProtectedBranch(ctx.db, project, repo, name),
    developers_can_push: developersCan(ctx.db, project, name, 'push'),
    developers_can_merge: developersCan(ctx.db, project, name, 'merge'),
    can_push: canPushToBranch(ctx, project, repo, name),
    default: name === project.default_branch,
  }
}

export function headAncestorsOf(repo: Repository, project: ProjectRecord): Set<ObjectId> | null {
  const headTip = repo.branches.get(project.default_branch)
  return headTip === undefined ? null : ancestors(repo, headTip)
}

/** The Grape `file_path: true` validator: no `..` segment, not absolute. */
export function checkFilePath(path: string): void {
  if (path.startsWith('/') || path.split('/').includes('..')) throw grapeError('file_path should be a valid file path')
}

/** `X-Gitlab-<Field-Name>` headers of the file metadata (files.rb `set_http_headers`). */
export function fileHeaders(data: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(data)) {
    headers[`x-gitlab-${key.split('_').join('-')}`] = value === null || value === undefined ? '' : String(value)
  }
  return headers
}

/** `Content-Type` of a raw blob: text as UTF-8 text, anything with a NUL byte as binary (Workhorse). */
export function rawHeaders(data: Uint8Array, name: string): Record<string, string> {
  const binary = data.subarray(0, 8000).includes(0)
  return {
    'content-type': binary ? 'application/octet-stream' : 'text/plain; charset=utf-8',
    'content-disposition': `${binary ? 'attachment' : 'inline'}; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  }
}

/**
 * The commit `revision` names in the project's repository (`user_project.commit(revision)`, then
 * `not_found! 'Commit'` unless there is one), in the forms {@link resolveCommit} reads.
 * @throws ApiError 404 `{"message":"404 Commit Not Found"}`.
 */
export function commitNamed(repo: Repository, project: ProjectRecord, revision: string): ObjectId {
  const id = resolveCommit(repo, revision, project.default_branch)
  if (id === undefined) throw notFound('Commit')
  return id
}

/**
 * The file at `file_path` in the commit `ref` names (files.rb `assign_file_vars!`).
 * @throws ApiError 404 `Commit Not Found`, then 404 `File Not Found`.
 */
export function fileAt(ctx: Ctx<{ id: string; file_path: string; ref?: string | undefined }>) {
  checkFilePath(ctx.params.file_path)
  const { project, repo } = readable(ctx)
  const commitId = commitNamed(repo, project, ctx.params.ref ?? 'HEAD')
  const path = ctx.params.file_path
  const entry = entryAt(repo, commitOf(repo, commitId).tree, path)
  const blob = entry && entry.mode !== '40000' ? repo.objects.blob(entry.id) : undefined
  if (!entry || !blob) throw notFound('File')
  const lastCommit = log(repo, [commitId], { path, limit: 1 })[0]
  const name = path.split('/').filter((s) => s !== '').pop() ?? path
  const data = {
    file_name: name,
    file_path: path,
    size: blob.data.length,
    encoding: 'base64',
    content_sha256: bytesToHex(sha256(blob.data)),
    ref: ctx.params.ref ?? null,
    blob_id: entry.id,
    commit_id: commitId,
    last_commit_id: lastCommit ?? null,
  }
  return { data, blob, project, repo }
}

