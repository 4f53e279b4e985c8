/**
 * The repository write routes: branches (create, delete, delete merged), tags (create, delete),
 * commits (create with `actions`, cherry-pick, revert). Each first finds the project and needs
 * `download_code` (the APIs' `before` block), then the write's own permission, then GitLab's
 * service checks; protected branches are enforced (see `repository.protection.ts`).
 * gitlab: lib/api/branches.rb, tags.rb, commits.rb (13.x); app/services/branches/*,
 * tags/create_service.rb, tags/destroy_service.rb, commits/*; lib/gitlab/checks/branch_check.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { apiMessage, ApiError, forbidden, grapeError, notFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { acceptedReply, created, noContent, ok } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { findProject } from '../../rules/finders.js'
import { branchesInUse } from './repository.branch-use.js'
import { Branch, Commit, CommitDetail, Tag } from './repository.entities.js'
import { branchFacts, commitNamed, headAncestorsOf, projectId, readable } from './repository.helpers.js'
import { canPushCode } from '../../rules/protected-refs.js'
import { branchCreationRefusal, branchDeletionRefusal, canPushToBranch, isProtectedBranch } from './repository.protection.js'
import { isValidRefName } from './repository.ref-names.js'
import { ancestors, commitOf, diffStats, diffTrees, peelToCommit, resolveCommit } from './repository.service.js'
import { changeCommit, commitFiles, createBranch, validBranchName } from './repository-writes.service.js'
import { createTagRelease } from './repository.tag-release.js'
import { protectedTagRefusal } from '../protected-tags/protected-tags.public.js'
import { pusherOf, RepositoryWrite, signatureAt, type CommitAction } from './repository.write.js'

/** `authorize_push_project`: `push_code` or 403 `{"message":"403 Forbidden"}`. */
function authorizePush(ctx: Ctx<unknown>, project: ProjectRecord): void {
  if (!canPushCode(ctx, project)) throw forbidden()
}

/** Ruby's lenient `Base64.decode64`: characters outside the alphabet are skipped. */
export function decodeBase64(text: string): Uint8Array {
  let clean = text.replace(/[^A-Za-z0-9+/]/g, '')
  // A lone last character carries fewer than 8 bits: Ruby drops it, atob would refuse it.
  if (clean.length % 4 === 1) clean = clean.slice(0, -1)
  const binary = atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '='))
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

const ACTIONS = ['create', 'update', 'move', 'delete', 'chmod'] as const

/**
 * The `actions[]` of POST commits, validated as Grape does (commits.rb `requires :actions, type: Array`):
 * `actions[i][action] does not have a valid value`, `actions[i][file_path] is missing`, and the
 * per-action `previous_path` (move), `content` (update), `execute_filemode` (chmod).
 * @throws ApiError 400 `{"error": ...}` at the first problem.
 */
function parseActions(raw: unknown): { actions: CommitAction[]; lastCommitIds: { path: string; id: string }[] } {
  if (!Array.isArray(raw) || raw.length === 0) throw grapeError(raw === undefined ? 'actions is missing' : 'actions is invalid')
  const actions: CommitAction[] = []
  const lastCommitIds: { path: string; id: string }[] = []
  raw.forEach((item, i) => {
    const at = (field: string) => `actions[${i}][${field}]`
    if (typeof item !== 'object' || item === null) throw grapeError(`${at('action')} is missing`)
    const a = item as Record<string, unknown>
    const str = (field: string) => (typeof a[field] === 'string' ? (a[field] as string) : typeof a[field] === 'number' ? String(a[field]) : undefined)
    const action = str('action')
    if (action === undefined) throw grapeError(`${at('action')} is missing`)
    if (!(ACTIONS as readonly string[]).includes(action)) throw grapeError(`${at('action')} does not have a valid value`)
    const filePath = str('file_path')
    if (filePath === undefined) throw grapeError(`${at('file_path')} is missing`)
    const encoding = str('encoding') ?? 'text'
    if (encoding !== 'text' && encoding !== 'base64') throw grapeError(`${at('encoding')} does not have a valid value`)
    const previousPath = str('previous_path')
    if (action === 'move' && previousPath === undefined) throw grapeError(`${at('previous_path')} is missing`)
    const content = str('content')
    if (action === 'update' && content === undefined) throw grapeError(`${at('content')} is missing`)
    let executeFilemode: boolean | undefined
    if (action === 'chmod') {
      const v = a.execute_filemode
      if (v === undefined) throw grapeError(`${at('execute_filemode')} is missing`)
      executeFilemode = v === true || v === 'true' || v === '1' || v === 1
      if (!executeFilemode && !(v === false || v === 'false' || v === '0' || v === 0)) throw grapeError(`${at('execute_filemode')} is invalid`)
    }
    const bytes = content === undefined || action === 'delete' || action === 'chmod'
      ? undefined
      : encoding === 'base64' ? decodeBase64(content) : new TextEncoder().encode(content)
    actions.push({ action: action as CommitAction['action'], file_path: filePath, previous_path: previousPath, content: bytes, execute_filemode: executeFilemode })
    const last = str('last_commit_id')
    if (last !== undefined && ['update', 'move', 'delete', 'chmod'].includes(action)) lastCommitIds.push({ path: previousPath ?? filePath, id: last })
  })
  return { actions, lastCommitIds }
}

/** `find_branch!`: 400 for an invalid name, 404 `Branch Not Found` for a missing one. */
function findBranch(repo: { branches: ReadonlyMap<string, string> }, name: string): string {
  if (!isValidRefName(name)) throw apiMessage(400, 'The branch refname is invalid')
  const tip = repo.branches.get(name)
  if (tip === undefined) throw notFound('Branch')
  return tip
}

/** Every write route of the repository area but the files API's and protected branches'. */
export const repositoryWriteRoutes: Route[] = [
  // gitlab: lib/api/branches.rb
  route('POST /projects/:id/repository/branches', {
    params: { ...projectId, branch: p.string({ required: true, allowBlank: false }), ref: p.string({ required: true, allowBlank: false }) },
    handler(ctx) {
      const { project } = readable(ctx)
      authorizePush(ctx, project)
      const name = ctx.params.branch
      const repo = createBranch(ctx, project, name, ctx.params.ref, (before, commit) =>
        branchCreationRefusal(ctx, project, before, name, () => [...before.branches].some(([b, tip]) => isProtectedBranch(ctx.db, project, before, b) && ancestors(before, tip).has(commit))))
      return created(Branch(repo, name, project, ctx, branchFacts(ctx, repo, project, name, headAncestorsOf(repo, project))))
    },
  }),

  route('DELETE /projects/:id/repository/branches/:branch', {
    params: { ...projectId, branch: p.string({ required: true, allowBlank: false }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      authorizePush(ctx, project)
      const tip = findBranch(repo, ctx.params.branch)
      checkUnmodifiedSince(ctx, new Date(commitOf(repo, tip).author.time * 1000).toISOString())
      // Branches::DeleteService: a pre-receive refusal is its 400.
      const refusal = branchDeletionRefusal(ctx, project, repo, ctx.params.branch)
      if (refusal) throw apiMessage(400, refusal)
      const write = new RepositoryWrite(ctx.db, project)
      write.setBranch(ctx.params.branch, null)
      write.save(pusherOf(ctx))
      return noContent()
    },
  }),

  route('DELETE /projects/:id/repository/merged_branches', {
    params: projectId,
    handler(ctx) {
      const { project, repo } = readable(ctx)
      // Branches::DeleteMergedService: async in GitLab (DeleteMergedBranchesWorker), whose run
      // refuses a user without push_code silently; fakelab runs it at once, so its effect shows
      // on the next read. Kept: the default branch, protected ones, and every branch an open
      // merge request of the project uses as source or target.
      if (canPushCode(ctx, project)) {
        const head = repo.branches.get(project.default_branch)
        const merged = head === undefined ? new Set<string>() : ancestors(repo, head)
        const inUse = branchesInUse(ctx.db, project.id)
        const write = new RepositoryWrite(ctx.db, project)
        for (const [name, tip] of repo.branches) {
          if (name === project.default_branch || tip === head || !merged.has(tip) || inUse.has(name) || isProtectedBranch(ctx.db, project, repo, name)) continue
          write.setBranch(name, null)
        }
        write.save(pusherOf(ctx))
      }
      return acceptedReply()
    },
  }),

  // gitlab: lib/api/tags.rb, app/services/tags/create_service.rb, destroy_service.rb
  route('POST /projects/:id/repository/tags', {
    params: {
      ...projectId,
      tag_name: p.string({ required: true }),
      ref: p.string({ required: true }),
      message: p.string(),
      release_description: p.string(),
    },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      authorizePush(ctx, project)
      const name = ctx.params.tag_name
      if (!validBranchName(name)) throw apiMessage(400, 'Tag name invalid')
      if (repo.tags.has(name)) throw apiMessage(400, `Tag ${name} already exists`)
      const target = resolveCommit(repo, ctx.params.ref, project.default_branch)
      if (target === undefined) throw apiMessage(400, `Target ${ctx.params.ref} is invalid`)
      // Gitaly's UserCreateTag runs the pre-receive hook last: TagCheck's refusal, as the service's 400.
      const refusal = protectedTagRefusal(ctx, project, name, null, target)
      if (refusal) throw apiMessage(400, refusal)
      const write = new RepositoryWrite(ctx.db, project)
      const message = ctx.params.message?.trim()
      const user = ctx.currentUser!
      // `message&.strip`: an empty message makes a lightweight tag, as Gitaly's UserCreateTag does.
      const ref = message
        ? write.writeTag({ object: target, objectType: 'commit', tag: name, tagger: signatureAt(user.name, user.email, ctx.now), message: `${message}\n` })
        : target
      write.setTag(name, ref)
      const after = write.save(pusherOf(ctx))
      // Deprecated since 11.7, still in 13.x: a non-blank `release_description` makes the tag's release.
      const description = ctx.params.release_description
      if (description !== undefined && description.trim() !== '') createTagRelease(ctx, project, name, description)
      return created(Tag(after, name, peelToCommit(after, ref)!, project, ctx))
    },
  }),

  route('DELETE /projects/:id/repository/tags/:tag_name', {
    params: { ...projectId, tag_name: p.string({ required: true }) },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      authorizePush(ctx, project)
      const target = repo.tags.get(ctx.params.tag_name)
      if (target === undefined) throw notFound('Tag')
      checkUnmodifiedSince(ctx, new Date(commitOf(repo, peelToCommit(repo, target)!).committer.time * 1000).toISOString())
      // UserDeleteTag's pre-receive hook: a protected tag is never deleted (TagCheck 13.12), 400 from Tags::DestroyService.
      const refusal = protectedTagRefusal(ctx, project, ctx.params.tag_name, target, null)
      if (refusal) throw apiMessage(400, refusal)
      const write = new RepositoryWrite(ctx.db, project)
      write.setTag(ctx.params.tag_name, null)
      write.save(pusherOf(ctx))
      return noContent()
    },
  }),

  // gitlab: lib/api/commits.rb, app/services/files/multi_service.rb
  route('POST /projects/:id/repository/commits', {
    params: {
      ...projectId,
      branch: p.string({ required: true, allowBlank: false }),
      commit_message: p.string({ required: true }),
      start_branch: p.string(),
      start_sha: p.string(),
      start_project: p.integerOrString(),
      author_email: p.string(),
      author_name: p.string(),
      stats: p.boolean({ default: true }),
      force: p.boolean({ default: false }),
    },
    rules: { mutuallyExclusive: [['start_branch', 'start_sha']] },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const { actions, lastCommitIds } = parseActions(ctx.raw.actions)
      if (ctx.params.start_project !== undefined) {
        const start = findProject(ctx, ctx.params.start_project)
        // spec-gap: forks are not simulated; no project is in another's fork network.
        throw forbidden(`Project is not included in the fork network for ${ctx.db.projectFullName(start)}`)
      }
      if (!canPushToBranch(ctx, project, repo, ctx.params.branch)) throw forbidden('You are not allowed to push into this branch')
      const { repo: after, id } = commitFiles(ctx, project, {
        branch: ctx.params.branch,
        startBranch: ctx.params.start_branch,
        startSha: ctx.params.start_sha,
        force: ctx.params.force,
        message: ctx.params.commit_message,
        actions,
        authorName: ctx.params.author_name,
        authorEmail: ctx.params.author_email,
        lastCommitChecks: lastCommitIds.map((c) => ({ path: c.path, lastCommitId: c.id, message: `The file has changed since you started editing it: ${c.path}` })),
      })
      const commit = commitOf(after, id)
      const parent = commit.parents[0]
      const stats = ctx.params.stats ? diffStats(diffTrees(after, parent === undefined ? null : commitOf(after, parent).tree, commit.tree)) : null
      return created(CommitDetail(after, id, project, ctx, stats))
    },
  }),

  ...(['cherry_pick', 'revert'] as const).map((action) =>
    route(`POST /projects/:id/repository/commits/:sha/${action}`, {
      params: {
        ...projectId,
        sha: p.string({ required: true }),
        branch: p.string({ required: true, allowBlank: false }),
        dry_run: p.boolean({ default: false }),
        ...(action === 'cherry_pick' ? { message: p.string() } : {}),
      },
      handler(ctx: Ctx<{ id: string; sha: string; branch: string; dry_run: boolean; message?: string | undefined }>) {
        const { project, repo } = readable(ctx)
        if (!canPushToBranch(ctx, project, repo, ctx.params.branch)) throw forbidden('You are not allowed to push into this branch')
        const commit = commitNamed(repo, project, ctx.params.sha)
        findBranch(repo, ctx.params.branch)
        const result = changeCommit(ctx, project, action, commit, ctx.params.branch, { message: ctx.params.message, dryRun: ctx.params.dry_run })
        if ('error_code' in result) {
          throw new ApiError(400, { message: result.message, error_code: result.error_code, ...(ctx.params.dry_run ? { dry_run: 'error' } : {}) })
        }
        if (ctx.params.dry_run) return ok({ dry_run: 'success' })
        return created(Commit(result.repo, result.id, project, ctx))
      },
    }),
  ),
]
