/**
 * The repository writes GitLab's services make: a commit of file actions on a branch
 * (`Commits::CreateService` and `Files::*Service`, with their validations in GitLab's order),
 * cherry-pick and revert (`Commits::ChangeService`, the shared three-way merge of trees, line by line), and branch
 * creation (`Branches::CreateService`). Each refusal is GitLab's message, thrown as the 400 the
 * API answers; every write goes through {@link RepositoryWrite}, inside the request's transaction.
 * gitlab: app/services/commits/create_service.rb, change_service.rb, files/*.rb,
 * branches/create_service.rb, branches/validate_new_service.rb (13.x), app/models/commit.rb
 * (`cherry_pick_message`, `revert_message`).
 * @module
 */
import { apiMessage, ApiError } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import type { ObjectId } from './git-objects.js'
import type { FlatEntry, Repository } from './repository.build.js'
import { canPushToBranch, protectDefaultBranch } from './repository.protection.js'
import { mergeFlatTrees } from './repository.merge.js'
import { isValidRefName } from './repository.ref-names.js'
import { commitOf, log, resolveCommit } from './repository.service.js'
import { ActionError, commitActions, flatFiles, pusherOf, RepositoryWrite, signatureAt, type CommitAction } from './repository.write.js'

/** What a commit of file actions is asked to do (commits.rb / files.rb params, as the services see them). */
export interface CommitRequest {
  /** The branch to commit into (made when new). */
  branch: string
  /** Where a new branch starts; defaults to `branch`. */
  startBranch?: string | undefined
  /** A commit a new branch starts from (40 hex digits). */
  startSha?: string | undefined
  /** Overwrite `branch` with a commit on `start_branch`/`start_sha`. */
  force?: boolean | undefined
  message: string
  actions: CommitAction[]
  authorName?: string | undefined
  authorEmail?: string | undefined
  /**
   * `last_commit_id` checks, before anything is written: each path's last commit on the start
   * branch must be the given id, else the message is thrown (`file_has_changed?`).
   */
  lastCommitChecks?: { path: string; lastCommitId: string; message: string }[]
}

/** The 400 a validation refusal becomes (`render_api_error!(result[:message], 400)`). */
function refuse(message: string): ApiError {
  return apiMessage(400, message)
}

/** `Gitlab::GitRefValidator.validate` (13.x): git's ref-name rules, no `refs/heads/` or `refs/remotes/` prefix, no leading `-`. */
export function validBranchName(name: string): boolean {
  if (name.startsWith('refs/heads/') || name.startsWith('refs/remotes/') || name.startsWith('-')) return false
  return isValidRefName(name)
}

/** The user the write acts as, for signatures: name and e-mail (`Gitlab::Git::User.from_gitlab`). */
function actor(ctx: Ctx<unknown>): { name: string; email: string } {
  const user = ctx.currentUser!
  return { name: user.name, email: user.email }
}

/**
 * Saves the write; when it is the first push to an empty repository, the branch it made becomes
 * the default branch (Gitaly's root ref is a repository's only branch, and the post-receive
 * `ProtectDefaultBranchService` points HEAD at it: "in case it is not master"), which is then
 * protected. `pushOptions` are a git push's `-o` options, handed on in the `push` fact.
 * gitlab: app/services/git/branch_hooks_service.rb, projects/protect_default_branch_service.rb (13.x).
 */
export function saveWrite(ctx: Ctx<unknown>, project: ProjectRecord, write: RepositoryWrite, pushOptions?: readonly string[]): Repository {
  const wasEmpty = write.before.branches.size === 0
  const after = write.save(pushOptions ? { ...pusherOf(ctx), pushOptions } : pusherOf(ctx))
  if (!wasEmpty) return after
  const [first] = after.branches.keys()
  const head = first !== undefined && !after.branches.has(project.default_branch)
    ? ctx.db.tables.projects.update(project.id, { default_branch: first })
    : project
  if (after.branches.has(head.default_branch)) protectDefaultBranch(ctx.db, head, ctx.now)
  return after
}

/**
 * `Commits::CreateService#execute` for file actions: validations in GitLab's order, the
 * `last_commit_id` checks, then ONE commit on the start point and the branch moved to it.
 * @returns the repository after the write and the new commit's id.
 * @throws ApiError 400 `{message}` with GitLab's text for each refusal (see the module comment).
 */
export function commitFiles(ctx: Ctx<unknown>, project: ProjectRecord, request: CommitRequest): { repo: Repository; id: ObjectId } {
  const write = new RepositoryWrite(ctx.db, project)
  const repo = write.repo
  const empty = repo.branches.size === 0
  const { branch, startSha, force } = request
  const startBranch = request.startBranch ?? (startSha === undefined ? branch : undefined)
  const different = startBranch !== branch || startSha !== undefined
  if (!canPushToBranch(ctx, project, repo, branch)) throw refuse('You are not allowed to push into this branch')
  let start: ObjectId | undefined
  if (startSha !== undefined) {
    if (startBranch !== undefined) throw refuse("You can't pass both start_branch and start_sha")
    if (!/^[0-9a-fA-F]{40}$/.test(startSha)) throw refuse(`Invalid start_sha '${startSha}'`)
    start = repo.objects.commit(startSha.toLowerCase()) ? startSha.toLowerCase() : undefined
    if (start === undefined) throw refuse(`Cannot find start_sha '${startSha}'`)
  }
  if (startBranch !== undefined) {
    if (!empty && !repo.branches.has(startBranch)) throw refuse('You can only create or edit files when you are on a branch')
    start = repo.branches.get(startBranch)
  }
  if (!empty && different && repo.branches.has(branch) && !force) {
    throw refuse(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`)
  }
  if (different) {
    const problem = !validBranchName(branch) ? 'Branch name is invalid' : repo.branches.has(branch) && !force ? 'Branch already exists' : null
    if (problem) throw refuse(`Something went wrong when we tried to create '${branch}' for you: ${problem}`)
  }
  for (const check of request.lastCommitChecks ?? []) {
    if (start === undefined) continue
    const last = log(repo, [start], { path: check.path, limit: 1 })[0]
    if (last !== undefined && last !== check.lastCommitId) throw refuse(check.message)
  }
  const me = actor(ctx)
  const committer = signatureAt(me.name, me.email, ctx.now)
  const author = signatureAt(request.authorName || me.name, request.authorEmail || me.email, ctx.now)
  let id: ObjectId
  try {
    id = commitActions(write, { parents: start === undefined ? [] : [start], message: request.message, author, committer }, request.actions)
  } catch (error) {
    if (error instanceof ActionError) throw refuse(error.message)
    throw error
  }
  write.setBranch(branch, id)
  return { repo: saveWrite(ctx, project, write), id }
}

/** How a cherry-pick or revert ended: the new commit, or GitLab's error and its `error_code`. */
export type ChangeResult = { id: ObjectId; repo: Repository } | { message: string; error_code: 'empty' | 'conflict' }

/**
 * `Commits::CherryPickService` / `RevertService` on `branch`: applies the commit's change (or its
 * reverse) to the branch tip as a new commit. Messages: `Commit#cherry_pick_message` (the commit's
 * message, a blank line, `(cherry picked from commit <sha>)`) or `Commit#revert_message`
 * (`Revert "<title>"`, a blank line, `This reverts commit <sha>`), unless `message` is given;
 * a cherry-pick keeps the commit's author, a revert is the user's.
 * With `dryRun`, nothing is written. Refusals (`Commits::ChangeService`): nothing to change
 * (`empty`) or a conflict (`conflict`), both "Sorry, we cannot <act> this commit automatically. …".
 */
export function changeCommit(ctx: Ctx<unknown>, project: ProjectRecord, action: 'cherry_pick' | 'revert', commitId: ObjectId, branch: string, options: { message?: string | undefined; dryRun: boolean }): ChangeResult {
  const write = new RepositoryWrite(ctx.db, project)
  const repo = write.repo
  const commit = commitOf(repo, commitId)
  const tip = repo.branches.get(branch)!
  const parent = commit.parents[0]
  const parentFiles = flatFiles(repo, parent === undefined ? null : commitOf(repo, parent).tree)
  const commitFiles = flatFiles(repo, commit.tree)
  const ours = flatFiles(repo, commitOf(repo, tip).tree)
  const [base, theirs] = action === 'cherry_pick' ? [parentFiles, commitFiles] : [commitFiles, parentFiles]
  // The merge's blobs go to the write's store (saved with the commit, dropped on a dry run).
  const merged = mergeFlatTrees(repo.objects, base, ours, theirs)
  const act = action === 'cherry_pick' ? 'cherry-pick' : 'revert'
  const failure = (code: 'empty' | 'conflict'): ChangeResult => ({
    message: `Sorry, we cannot ${act} this commit automatically. This commit may already have been ${act}ed, or a more recent commit may have updated some of its content.`,
    error_code: code,
  })
  if (merged === null) return failure('conflict')
  const tree = write.writeFlatTree(merged)
  if (tree === commitOf(repo, tip).tree) return failure('empty')
  const title = commit.message.split(/[\r\n]/, 1)[0] ?? ''
  const message = options.message ?? (action === 'cherry_pick'
    ? `${commit.message}\n\n(cherry picked from commit ${commitId})`
    : `Revert "${title.trim()}"\n\nThis reverts commit ${commitId}`)
  const me = actor(ctx)
  const committer = signatureAt(me.name, me.email, ctx.now)
  const author = action === 'cherry_pick' ? commit.author : committer
  const id = write.writeCommit({ tree, parents: [tip], author, committer, message })
  if (options.dryRun) return { id, repo }
  write.setBranch(branch, id)
  return { id, repo: saveWrite(ctx, project, write) }
}

/**
 * `Branches::CreateService#execute` after the push check: an empty repository first gets an empty
 * `README.md` on the default branch ("Add README.md"), then the name is validated and the branch
 * made at the commit `ref` names.
 * @throws ApiError 400 "Branch name is invalid", "Branch already exists", "Invalid reference name: <name>",
 *   or a pre-receive refusal (`refusal(repo, commit)` returns it).
 */
export function createBranch(ctx: Ctx<unknown>, project: ProjectRecord, name: string, ref: string, refusal: (repo: Repository, commit: ObjectId) => string | null): Repository {
  let repo: Repository = new RepositoryWrite(ctx.db, project).repo
  if (repo.branches.size === 0) {
    repo = commitFiles(ctx, project, {
      branch: project.default_branch,
      message: 'Add README.md',
      actions: [{ action: 'create', file_path: 'README.md', content: new Uint8Array() }],
    }).repo
  }
  if (!validBranchName(name)) throw refuse('Branch name is invalid')
  if (repo.branches.has(name)) throw refuse('Branch already exists')
  const target = resolveCommit(repo, ref, project.default_branch)
  // 13.x names the new branch here, not the ref (`error("Invalid reference name: #{branch_name}")`).
  if (target === undefined) throw refuse(`Invalid reference name: ${name}`)
  const problem = refusal(repo, target)
  if (problem) throw refuse(problem)
  const write = new RepositoryWrite(ctx.db, project)
  write.setBranch(name, target)
  return saveWrite(ctx, project, write)
}
