/**
 * Writing to a project's repository: the primitive every write route (and the merge of a merge
 * request) builds on. A {@link RepositoryWrite} stages new objects in a child of the repository's
 * object store and ref moves in copies of its ref maps; {@link RepositoryWrite.save} then records
 * them as one push in the project's `project_repositories` row. Nothing outside the row changes, so
 * the request's store transaction covers the write: a request that fails after `save` restores the
 * row, and the repository built for the old row (its objects untouched) is the one read again.
 *
 * {@link commitActions} makes ONE commit from a parent and a list of file actions (create, update,
 * move, delete, chmod), with Gitaly's refusals (`UserCommitFiles`, 13.x) as {@link ActionError}s.
 * SHAs are deterministic: the signatures carry the caller's name, e-mail and the (frozen) clock.
 * Source: issue 26 items 2 and 5; gitlab: app/services/files/multi_service.rb,
 * app/services/commits/create_service.rb; gitaly: internal/git2go/commit.go (index errors).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { uint8ArrayToBase64 } from 'uint8array-extras'
import { ObjectStore, type GitObject, type ObjectId, type Signature, type TreeEntry, type TreeMode } from './git-objects.js'
import { refSlot, rememberRepository, repositoryOf, type FlatEntry, type Repository } from './repository.build.js'
import type { ProjectRepositoryRecord, RepositoryPush, StoredObject } from './repository.tables.js'
import { publish } from '../../rules/events.js'

/** One ref a push moved: its full name, and the commit (or tag object) before and after; null for none. */
export interface RefUpdate {
  /** `refs/heads/<branch>` or `refs/tags/<tag>`. */
  readonly ref: string
  /** What the ref pointed at before the push; null when the push created it. */
  readonly before: ObjectId | null
  /** What it points at after; null when the push deleted it. */
  readonly after: ObjectId | null
}

/** Who pushed, when and where: the acting user (null for none), the request's instant (ISO 8601) and base URL. */
export interface Pusher {
  readonly userId: number | null
  readonly at: string
  readonly baseUrl: string
  /** The push options a `git push -o <option>` sent (`ci.skip`, `merge_request.create`, …); none for the API's writes. */
  readonly pushOptions?: readonly string[]
}

/**
 * The `push` fact: one saved {@link RepositoryWrite} that moved refs (an API commit, a branch or tag
 * created or deleted, a merge, a rebase, or a push over git's HTTP protocol), published once per
 * push with every ref it moved, in the order they were set. Webhooks turn it into push and tag push
 * events, the events API into `pushed to` / `pushed new` / `deleted` events.
 * gitlab: app/services/git/process_ref_changes_service.rb, git/branch_push_service.rb, git/tag_push_service.rb.
 */
export interface PushFact {
  /** The project whose repository was pushed to (the row as it is now). */
  readonly project: ProjectRecord
  /** The refs it moved. */
  readonly refs: readonly RefUpdate[]
  /** The repository after the push (its objects and refs), to read the pushed commits from. */
  readonly repository: Repository
  /** The repository before the push. */
  readonly previous: Repository
  /**
   * The push options sent with a push over git (`git push -o merge_request.create`), as sent, in
   * order; empty for the API's writes. gitlab: lib/gitlab/push_options.rb.
   */
  readonly pushOptions: readonly string[]
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A push to a project's repository (see {@link PushFact}). */
    push: PushFact
  }
}

function stored(o: GitObject): StoredObject {
  switch (o.type) {
    case 'blob':
      return { type: 'blob', base64: uint8ArrayToBase64(o.data) }
    case 'tree':
      return { type: 'tree', entries: o.entries.map((e) => ({ mode: e.mode, name: e.name, id: e.id })) }
    case 'commit':
      return { type: 'commit', tree: o.tree, parents: [...o.parents], author: o.author, committer: o.committer, message: o.message }
    case 'tag':
      return { type: 'tag', object: o.object, objectType: o.objectType, tag: o.tag, tagger: o.tagger, message: o.message }
  }
}

/** A write in progress on one project's repository (see the module comment). */
export class RepositoryWrite {
  /** The repository as it reads with this write's objects and ref moves: read through it while writing. */
  readonly repo: Repository
  /** The repository before this write. */
  readonly before: Repository
  private readonly objects: ObjectStore
  private readonly branches: Map<string, ObjectId>
  private readonly tags: Map<string, ObjectId>
  private readonly otherRefs: Map<string, ObjectId>
  private readonly refs: Record<string, ObjectId | null> = {}

  /**
   * @param db the request's store (`ctx.db`).
   * @param project the project whose repository is written.
   */
  private readonly db: Db
  private readonly project: ProjectRecord

  constructor(db: Db, project: ProjectRecord) {
    this.db = db
    this.project = project
    this.before = repositoryOf(db, project)
    this.objects = this.before.objects.child()
    this.branches = new Map(this.before.branches)
    this.tags = new Map(this.before.tags)
    this.otherRefs = new Map(this.before.otherRefs)
    const shared = db.tables.project_repositories.get(project.id) !== undefined
    this.repo = { objects: this.objects, branches: this.branches, tags: this.tags, otherRefs: this.otherRefs, flatTrees: shared ? this.before.flatTrees : new Map() }
  }

  /** Points branch `name` at the commit `id`, or deletes it (null). */
  setBranch(name: string, id: ObjectId | null): void {
    if (id === null) this.branches.delete(name)
    else this.branches.set(name, id)
    this.refs[`refs/heads/${name}`] = id
  }

  /** Points tag `name` at `id` (a tag object or a commit), or deletes it (null). */
  setTag(name: string, id: ObjectId | null): void {
    if (id === null) this.tags.delete(name)
    else this.tags.set(name, id)
    this.refs[`refs/tags/${name}`] = id
  }

  /**
   * Points the ref of full name `ref` at `id`, or deletes it (null): a branch (`refs/heads/…`), a
   * tag (`refs/tags/…`) or any other ref (`refs/notes/…`), as a push over git names them.
   */
  setRef(ref: string, id: ObjectId | null): void {
    const [map, name] = refSlot({ branches: this.branches, tags: this.tags, otherRefs: this.otherRefs }, ref)
    if (id === null) map.delete(name)
    else map.set(name, id)
    this.refs[ref] = id
  }

  /** Stores an annotated tag object (see `ObjectStore.writeTag`). */
  writeTag(tag: Parameters<ObjectStore['writeTag']>[0]): ObjectId {
    return this.objects.writeTag(tag)
  }

  /** Stores a commit object whose tree is already stored (a merge commit, a cherry-pick). */
  writeCommit(commit: Parameters<ObjectStore['writeCommit']>[0]): ObjectId {
    return this.objects.writeCommit(commit)
  }

  /** Stores a tree from flattened entries (path → mode and blob id); returns the root tree's id. */
  writeFlatTree(files: ReadonlyMap<string, FlatEntry>): ObjectId {
    return writeFlat(this.objects, files)
  }

  /** Stores a blob. */
  writeBlob(content: Uint8Array | string): ObjectId {
    return this.objects.writeBlob(content)
  }

  /** Stores any decoded object as it is (a pushed pack's); returns its id. */
  writeObject(object: GitObject): ObjectId {
    switch (object.type) {
      case 'blob':
        return this.objects.writeBlob(object.data)
      case 'tree':
        return this.objects.writeTree(object.entries)
      case 'commit':
        return this.objects.writeCommit(object)
      case 'tag':
        return this.objects.writeTag(object)
    }
  }

  /**
   * Records the write as one push in the project's row (inserting the row for a repository nobody
   * wrote to), inside the caller's store transaction, and returns the repository after it; then
   * publishes the `push` fact ({@link PushFact}) when a ref moved.
   * A write that changed no ref and wrote no object stores nothing.
   * @param pusher who pushed, and when.
   */
  save(pusher: Pusher): Repository {
    const objects = [...this.objects.ownObjects()].map(stored)
    if (objects.length === 0 && Object.keys(this.refs).length === 0) return this.before
    const push: RepositoryPush = { objects, refs: { ...this.refs } }
    const table = this.db.tables.project_repositories
    const row = table.get(this.project.id)
    const next: ProjectRepositoryRecord = row
      ? table.update(row.id, { pushes: [...(row.pushes ?? []), push] })
      : table.insert({
          id: this.project.id,
          project_id: this.project.id,
          default_branch: this.project.default_branch,
          commits: [],
          branches: {},
          tags: [],
          pushes: [push],
        })
    const after: Repository = { objects: this.objects, branches: new Map(this.branches), tags: new Map(this.tags), otherRefs: new Map(this.otherRefs), flatTrees: this.repo.flatTrees }
    rememberRepository(next, after)
    // The push fact tells of branches and tags only, as GitLab's post-receive processes only those
    // (`Git::ProcessRefChangesService`: a notes ref moves nothing else).
    const refs = Object.entries(this.refs)
      .filter(([ref]) => ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/'))
      .map(([ref, id]): RefUpdate => ({ ref, before: refTarget(this.before, ref), after: id }))
    if (refs.length > 0) publish(this.db, 'push', { project: this.project, refs, repository: after, previous: this.before, pushOptions: pusher.pushOptions ?? [], actorId: pusher.userId, at: pusher.at, baseUrl: pusher.baseUrl })
    return after
  }
}

/** Every blob path of a tree with its mode and id (`dir/file` → entry). */
export function flatFiles(repo: Repository, treeId: ObjectId | null): Map<string, FlatEntry> {
  const out = new Map<string, FlatEntry>()
  if (treeId === null) return out
  const walk = (id: ObjectId, prefix: string) => {
    for (const e of repo.objects.tree(id)?.entries ?? []) {
      if (e.mode === '40000') walk(e.id, `${prefix}${e.name}/`)
      else out.set(`${prefix}${e.name}`, { id: e.id, mode: e.mode })
    }
  }
  walk(treeId, '')
  return out
}

/** Writes the trees of a flat file list; returns the root tree's id (the empty tree for none). */
function writeFlat(objects: ObjectStore, files: ReadonlyMap<string, FlatEntry>): ObjectId {
  interface Dir { files: TreeEntry[]; dirs: Map<string, Dir> }
  const root: Dir = { files: [], dirs: new Map() }
  for (const [path, entry] of files) {
    const parts = path.split('/')
    const name = parts.pop()!
    let dir = root
    for (const part of parts) {
      let next = dir.dirs.get(part)
      if (!next) dir.dirs.set(part, (next = { files: [], dirs: new Map() }))
      dir = next
    }
    dir.files.push({ mode: entry.mode, name, id: entry.id })
  }
  const write = (dir: Dir): ObjectId => objects.writeTree([
    ...dir.files,
    ...[...dir.dirs].map(([name, sub]): TreeEntry => ({ mode: '40000', name, id: write(sub) })),
  ])
  return write(root)
}

/** One file action of a commit (commits.rb `actions[]`, files.rb's single-file writes). */
export interface CommitAction {
  action: 'create' | 'update' | 'move' | 'delete' | 'chmod'
  file_path: string
  /** `move`: the file's old path. */
  previous_path?: string | undefined
  /** The new bytes; for `move`, undefined keeps the moved file's content. */
  content?: Uint8Array | undefined
  /** `chmod`: true makes the file executable (`100755`), false not (`100644`). */
  execute_filemode?: boolean | undefined
}

/** A refused action: Gitaly's index error, whose message GitLab answers as it is (400). */
export class ActionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ActionError'
  }
}

/** Gitaly's path check: no empty path, no `..` segment; returns the path without leading or doubled slashes. */
function cleanPath(path: string): string {
  const parts = path.split('/').filter((s) => s !== '' && s !== '.')
  if (parts.length === 0) throw new ActionError('You must provide a file path')
  if (parts.includes('..')) throw new ActionError('Path cannot include directory traversal')
  return parts.join('/')
}

/** What the commit says about itself besides its tree. */
export interface CommitInfo {
  /** Its parents, first parent first ([] for a root commit). */
  parents: readonly ObjectId[]
  message: string
  author: Signature
  committer: Signature
}

/**
 * Applies `actions`, in order, to the tree of `info.parents[0]` (none: an empty tree) and stores
 * one commit of the result. Refusals, checked against the files as the earlier actions left them:
 * `create` of an existing file "A file with this name already exists" (of an existing directory
 * "A directory with this name already exists"); `update`, `delete`, `chmod` and the source of a
 * `move` that is missing "A file with this name doesn't exist"; a `move` onto an existing file
 * "A file with this name already exists"; an empty path or one with `..` as Gitaly answers.
 * @returns the new commit's id (nothing moves a ref: see {@link RepositoryWrite.setBranch}).
 * @throws ActionError as above, before anything is stored.
 */
export function commitActions(write: RepositoryWrite, info: CommitInfo, actions: readonly CommitAction[]): ObjectId {
  const repo = write.repo
  const parent = info.parents[0]
  const files = flatFiles(repo, parent === undefined ? null : repo.objects.commit(parent)!.tree)
  const isDir = (path: string) => {
    const prefix = `${path}/`
    for (const p of files.keys()) if (p.startsWith(prefix)) return true
    return false
  }
  const staged = new Map<string, { mode: TreeMode; content: Uint8Array | ObjectId }>()
  for (const a of actions) {
    const path = cleanPath(a.file_path)
    const existing = files.get(path)
    switch (a.action) {
      case 'create': {
        if (existing) throw new ActionError('A file with this name already exists')
        if (isDir(path)) throw new ActionError('A directory with this name already exists')
        const segments = path.split('/')
        for (let i = 1; i < segments.length; i++) if (files.has(segments.slice(0, i).join('/'))) throw new ActionError('A file with this name already exists')
        files.set(path, { mode: '100644', id: '' })
        staged.set(path, { mode: '100644', content: a.content ?? new Uint8Array() })
        break
      }
      case 'update':
        if (!existing) throw new ActionError("A file with this name doesn't exist")
        staged.set(path, { mode: existing.mode, content: a.content ?? new Uint8Array() })
        break
      case 'delete':
        if (!existing) throw new ActionError("A file with this name doesn't exist")
        files.delete(path)
        staged.delete(path)
        break
      case 'chmod': {
        if (!existing) throw new ActionError("A file with this name doesn't exist")
        const mode: TreeMode = a.execute_filemode ? '100755' : '100644'
        files.set(path, { ...existing, mode })
        const pending = staged.get(path)
        if (pending) pending.mode = mode
        break
      }
      case 'move': {
        const from = cleanPath(a.previous_path ?? '')
        const source = files.get(from)
        if (!source) throw new ActionError("A file with this name doesn't exist")
        if (from !== path && files.has(path)) throw new ActionError('A file with this name already exists')
        const pending = staged.get(from)
        files.delete(from)
        staged.delete(from)
        files.set(path, { mode: source.mode, id: source.id })
        if (a.content !== undefined) staged.set(path, { mode: source.mode, content: a.content })
        else if (pending) staged.set(path, pending)
        break
      }
    }
  }
  for (const [path, s] of staged) {
    files.set(path, { mode: s.mode, id: typeof s.content === 'string' ? s.content : write.writeBlob(s.content) })
  }
  const tree = write.writeFlatTree(files)
  return write.writeCommit({ tree, parents: [...info.parents], author: info.author, committer: info.committer, message: info.message })
}

/** A git signature at an ISO 8601 instant (`ctx.now`), in UTC. */
export function signatureAt(name: string, email: string, isoDate: string): Signature {
  return { name, email, time: Math.floor(Date.parse(isoDate) / 1000), offset: '+0000' }
}

/** What the full ref name `ref` (`refs/heads/…`, `refs/tags/…`, `refs/notes/…`) points at in `repo`, null when it does not exist. */
export function refTarget(repo: Repository, ref: string): ObjectId | null {
  const [map, name] = refSlot(repo, ref)
  return map.get(name) ?? null
}

/** The {@link Pusher} of a request: its acting user (null when anonymous) and its instant. */
export function pusherOf(ctx: { readonly currentUser: { readonly id: number } | null; readonly now: string; readonly baseUrl: string }): Pusher {
  return { userId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl }
}
