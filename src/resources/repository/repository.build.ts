/**
 * A project's repository as the routes read it: its object database, branches and tags, built
 * from the project's `project_repositories` row on first use and kept while that row is unchanged
 * (a WeakMap keyed by the row: a restore or a new scenario brings new rows, hence a rebuild, which
 * gives the same objects since they follow from the row alone). Projects without a row have an
 * empty repository (no branch, no tag, no commit), as a GitLab project nobody pushed to.
 * Source: issue 26 item 1.
 * @module
 */
import { base64ToUint8Array } from 'uint8array-extras'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { ObjectStore, type ObjectId, type Signature, type TreeEntry, type TreeMode } from './git-objects.js'
import type { ProjectRepositoryRecord, RepositoryPush } from './repository.tables.js'

/** A built repository: objects and references. */
export interface Repository {
  readonly objects: ObjectStore
  /** Branch name → commit id. */
  readonly branches: ReadonlyMap<string, ObjectId>
  /** Tag name → what the tag ref points at: an annotated tag object's id, or a commit id (lightweight). */
  readonly tags: ReadonlyMap<string, ObjectId>
  /**
   * Every other ref a push over git stored, by full name (`refs/notes/commits`,
   * `refs/notes/semantic-release`, `refs/custom/x`) → the object it points at. GitLab keeps them in
   * the repository and advertises them; its API's branch and tag routes never show them.
   */
  readonly otherRefs: ReadonlyMap<string, ObjectId>
  /**
   * Memo of flattened trees (tree id → path → entry). No reader fills it any more (tree diffs walk
   * the changed subtrees only); writes still hand it on.
   */
  readonly flatTrees: Map<ObjectId, ReadonlyMap<string, FlatEntry>>
}

/** A blob (or submodule) entry of a flattened tree. */
export interface FlatEntry {
  readonly id: ObjectId
  readonly mode: TreeMode
}

const built = new WeakMap<ProjectRepositoryRecord, Repository>()

/** `2021-03-01T09:00:00.000Z` → a git signature at that instant, in UTC. */
function signature(name: string, email: string, isoDate: string): Signature {
  return { name, email, time: Math.floor(Date.parse(isoDate) / 1000), offset: '+0000' }
}

/**
 * Writes the trees for `changes` applied to the tree `base` (null: empty), rewriting only the trees
 * on the changed paths, and returns the new root tree's id. A path whose text is null is deleted;
 * a tree left empty disappears, as git stores no empty tree. A new file is `100644`; a changed one
 * keeps its mode.
 */
function applyChanges(objects: ObjectStore, base: ObjectId | null, changes: ReadonlyMap<string, ObjectId | null>): ObjectId {
  return writeLevel(objects, base, [...changes].map(([path, id]) => [path.split('/').filter((s) => s !== ''), id]))
}

function writeLevel(objects: ObjectStore, base: ObjectId | null, changes: [string[], ObjectId | null][]): ObjectId {
  const entries = new Map<string, TreeEntry>()
  for (const e of (base === null ? undefined : objects.tree(base))?.entries ?? []) entries.set(e.name, e)
  const nested = new Map<string, [string[], ObjectId | null][]>()
  for (const [segments, id] of changes) {
    const [name, ...rest] = segments
    if (name === undefined) continue
    if (rest.length > 0) {
      let list = nested.get(name)
      if (!list) nested.set(name, (list = []))
      list.push([rest, id])
    } else if (id === null) entries.delete(name)
    else {
      const old = entries.get(name)
      const mode: TreeMode = old && old.mode !== '40000' ? old.mode : '100644'
      entries.set(name, { mode, name, id })
    }
  }
  for (const [name, list] of nested) {
    const old = entries.get(name)
    const subtree = writeLevel(objects, old?.mode === '40000' ? old.id : null, list)
    if (objects.tree(subtree)!.entries.length === 0) entries.delete(name)
    else entries.set(name, { mode: '40000', name, id: subtree })
  }
  return objects.writeTree([...entries.values()])
}

/** Builds the repository a row describes (see the module comment). */
export function buildRepository(row: ProjectRepositoryRecord): Repository {
  const head = row.default_branch
  const objects = new ObjectStore()
  const branches = new Map<string, ObjectId>()
  const keys = new Map<string, ObjectId>()
  const tags = new Map<string, ObjectId>()
  // The scenario check makes sure every reference names something: a miss is a programming error.
  const resolve = (ref: string): ObjectId => {
    const id = keys.get(ref) ?? branches.get(ref) ?? tags.get(ref)
    if (id === undefined) throw new Error(`repository of project ${row.project_id}: unknown reference ${JSON.stringify(ref)}`)
    return id
  }
  const peel = (id: ObjectId): ObjectId => {
    let tag = objects.tag(id)
    while (tag) {
      id = tag.object
      tag = objects.tag(id)
    }
    return id
  }
  for (const c of row.commits) {
    const tip = branches.get(c.branch)
    const parents = c.parents
      ? c.parents.map((ref) => peel(resolve(ref)))
      : tip !== undefined ? [tip] : c.from !== null ? [peel(resolve(c.from))] : branches.has(head) ? [branches.get(head)!] : []
    const base = parents[0] === undefined ? null : objects.commit(parents[0])!.tree
    const changes = new Map<string, ObjectId | null>()
    for (const [path, text] of Object.entries(c.files)) changes.set(path, text === null ? null : objects.writeBlob(text))
    const tree = applyChanges(objects, base, changes)
    const id = objects.writeCommit({
      tree,
      parents,
      author: signature(c.author_name, c.author_email, c.authored_date),
      committer: signature(c.committer_name, c.committer_email, c.committed_date),
      message: c.message,
    })
    branches.set(c.branch, id)
    if (c.key !== null) keys.set(c.key, id)
  }
  for (const [name, ref] of Object.entries(row.branches)) branches.set(name, peel(resolve(ref)))
  for (const t of row.tags) {
    const target = resolve(t.ref)
    if (t.message === null) {
      tags.set(t.name, target)
      continue
    }
    const object = objects.get(target)!
    const date = t.tagged_date ?? new Date(objects.commit(peel(target))!.committer.time * 1000).toISOString()
    tags.set(t.name, objects.writeTag({
      object: target,
      objectType: object.type,
      tag: t.name,
      tagger: signature(t.tagger_name, t.tagger_email, date),
      message: t.message,
    }))
  }
  const otherRefs = new Map<string, ObjectId>()
  for (const push of row.pushes ?? []) applyPush(objects, { branches, tags, otherRefs }, push)
  return { objects, branches, tags, otherRefs, flatTrees: new Map() }
}

/** Writes a push's objects and moves its refs (see {@link RepositoryPush}). */
function applyPush(objects: ObjectStore, refs: RefMaps, push: RepositoryPush): void {
  for (const o of push.objects) {
    if (o.type === 'blob') objects.writeBlob(base64ToUint8Array(o.base64))
    else if (o.type === 'tree') objects.writeTree(o.entries)
    else if (o.type === 'commit') objects.writeCommit(o)
    else objects.writeTag(o)
  }
  for (const [ref, id] of Object.entries(push.refs)) {
    const [map, name] = refSlot(refs, ref)
    if (id === null) map.delete(name)
    else map.set(name, id)
  }
}

/** A repository's three ref maps, writable. */
interface RefMaps {
  readonly branches: Map<string, ObjectId>
  readonly tags: Map<string, ObjectId>
  readonly otherRefs: Map<string, ObjectId>
}

/**
 * Where a full ref name lives: `refs/heads/<b>` in the branches under `<b>`, `refs/tags/<t>` in the
 * tags under `<t>`, any other ref in the other refs under its full name.
 */
export function refSlot<M extends ReadonlyMap<string, ObjectId>>(refs: { branches: M; tags: M; otherRefs: M }, ref: string): [M, string] {
  if (ref.startsWith('refs/heads/')) return [refs.branches, ref.slice(11)]
  if (ref.startsWith('refs/tags/')) return [refs.tags, ref.slice(10)]
  return [refs.otherRefs, ref]
}

/**
 * Remembers `repo` as the repository `row` describes, so the next {@link repositoryOf} for the
 * row answers it without a rebuild (a write builds its result from the repository before it).
 */
export function rememberRepository(row: ProjectRepositoryRecord, repo: Repository): void {
  built.set(row, repo)
}

/** The repository of a project with no `repository:` section: nothing in it (never written to). */
const EMPTY: Repository = { objects: new ObjectStore(), branches: new Map(), tags: new Map(), otherRefs: new Map(), flatTrees: new Map() }

/** The project's repository, built on first use (see the module comment). */
export function repositoryOf(db: Db, project: ProjectRecord): Repository {
  const row = db.tables.project_repositories.get(project.id)
  if (!row) return EMPTY
  let repo = built.get(row)
  if (!repo) {
    repo = buildRepository(row)
    built.set(row, repo)
  }
  return repo
}
