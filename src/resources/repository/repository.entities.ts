/**
 * The repository presenters, named after GitLab's entities: `Commit`, `CommitDetail`, `Branch`,
 * `Tag`, `TreeObject`, `Diff`, `Compare`, `BasicRef`. gitlab: lib/api/entities/commit.rb,
 * commit_detail.rb, commit_stats.rb, branch.rb, tag.rb, tree_object.rb, diff.rb, compare.rb (13.x).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import type { ObjectId, Signature, TreeEntry } from './git-objects.js'
import type { Repository } from './repository.build.js'
import { commitOf, type FileDiff } from './repository.service.js'
import { commitPipeline } from './repository.commit-pipeline.js'
import { tagRelease } from './repository.tag-release.js'
import { isProtectedTag } from '../protected-tags/protected-tags.public.js'

/**
 * A git signature's instant as GitLab renders commit times: ISO 8601 with milliseconds in the
 * signature's own offset (`2021-03-01T09:00:00.000+00:00`; Gitlab::Git::Commit parses it with `%z`).
 */
function gitTime(s: Signature): string {
  // A commit shows its dates again and again (lists, compares): signatures never change, so each
  // is rendered once.
  let text = gitTimes.get(s)
  if (text === undefined) gitTimes.set(s, (text = renderGitTime(s)))
  return text
}

const gitTimes = new WeakMap<Signature, string>()

function renderGitTime(s: Signature): string {
  const sign = s.offset.startsWith('-') ? -1 : 1
  const minutes = sign * (Number(s.offset.slice(1, 3)) * 60 + Number(s.offset.slice(3, 5)))
  const local = new Date((s.time + minutes * 60) * 1000).toISOString().slice(0, 23)
  return `${local}${s.offset.slice(0, 3)}:${s.offset.slice(3, 5)}`
}

/** A commit's title: its message's first line (`Commit#full_title`). */
function commitTitle(message: string): string {
  return message.split(/[\r\n]/, 1)[0] ?? ''
}

/** `Commit` (13.x): `created_at` is the committer date, `short_id` the first 8 hex digits. */
export function Commit(repo: Repository, id: ObjectId, project: ProjectRecord, ctx: PresentCtx) {
  const c = commitOf(repo, id)
  return {
    id,
    short_id: id.slice(0, 8),
    created_at: gitTime(c.committer),
    parent_ids: [...c.parents],
    title: commitTitle(c.message),
    message: c.message,
    author_name: c.author.name,
    author_email: c.author.email,
    authored_date: gitTime(c.author),
    committer_name: c.committer.name,
    committer_email: c.committer.email,
    committed_date: gitTime(c.committer),
    trailers: {},
    web_url: `${projectWebUrl(ctx, project)}/-/commit/${id}`,
  }
}

/** `CommitStats`: lines added, removed, and both. */
export interface CommitStats {
  additions: number
  deletions: number
  total: number
}

/** `CommitWithStats`: `Commit` and its `stats`. */
export function CommitWithStats(repo: Repository, id: ObjectId, project: ProjectRecord, ctx: PresentCtx, stats: CommitStats) {
  return { ...Commit(repo, id, project, ctx), stats }
}

/**
 * `CommitDetail` (13.x): `Commit`, then `stats` (when asked), `status` (of the commit's newest
 * pipeline), `project_id` and `last_pipeline` (that pipeline as `PipelineBasic`, when the caller
 * may read it), as the runners area's lookup gives them (see `repository.commit-pipeline.ts`).
 */
export function CommitDetail(repo: Repository, id: ObjectId, project: ProjectRecord, ctx: PresentCtx, stats: CommitStats | null) {
  const pipeline = commitPipeline(ctx, project, id)
  return {
    ...Commit(repo, id, project, ctx),
    ...(stats ? { stats } : {}),
    status: pipeline.status,
    project_id: project.id,
    last_pipeline: pipeline.last_pipeline,
  }
}

/** What a branch's protection allows (see `branchProtection` in the routes). */
export interface BranchFacts {
  merged: boolean
  protected: boolean
  developers_can_push: boolean
  developers_can_merge: boolean
  can_push: boolean
  default: boolean
}

/** `Branch` (13.x). */
export function Branch(repo: Repository, name: string, project: ProjectRecord, ctx: PresentCtx, facts: BranchFacts) {
  return {
    name,
    commit: Commit(repo, repo.branches.get(name)!, project, ctx),
    merged: facts.merged,
    protected: facts.protected,
    developers_can_push: facts.developers_can_push,
    developers_can_merge: facts.developers_can_merge,
    can_push: facts.can_push,
    default: facts.default,
    web_url: `${projectWebUrl(ctx, project)}/-/tree/${name}`,
  }
}

/**
 * `Tag` (13.x): `target` is what the ref points at (the tag object for an annotated tag),
 * `commit` the commit it leads to. `message` is the annotation without its trailing newlines, ""
 * for a lightweight tag (Gitaly's `Tag.message`). `release` is the tag's release `{tag_name,
 * description}` or null (see `repository.tag-release.ts`); `protected`, `ProtectedTag.protected?`.
 */
export function Tag(repo: Repository, name: string, commitId: ObjectId, project: ProjectRecord, ctx: PresentCtx) {
  const target = repo.tags.get(name)!
  const tag = repo.objects.tag(target)
  return {
    name,
    message: tag ? tag.message.replace(/\n+$/, '') : '',
    target,
    commit: Commit(repo, commitId, project, ctx),
    release: tagRelease(ctx.db, project.id, name),
    protected: isProtectedTag(ctx.db, project.id, name),
  }
}

/** `TreeObject`: one entry of a tree listing, `mode` as six octal digits (`040000`, `100644`). */
export function TreeObject(entry: TreeEntry, path: string) {
  return {
    id: entry.id,
    name: entry.name,
    type: entry.mode === '40000' ? 'tree' : entry.mode === '160000' ? 'commit' : 'blob',
    path,
    mode: entry.mode.padStart(6, '0'),
  }
}

/** `Diff`: one changed file (see {@link FileDiff}). */
export function Diff(d: FileDiff) {
  return {
    old_path: d.old_path,
    new_path: d.new_path,
    a_mode: d.a_mode,
    b_mode: d.b_mode,
    new_file: d.new_file,
    renamed_file: d.renamed_file,
    deleted_file: d.deleted_file,
    diff: d.diff,
  }
}
