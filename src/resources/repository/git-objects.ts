/**
 * A git object database in memory: blobs, trees, commits and annotated tags, encoded exactly as git
 * encodes them (`<type> <size>\0<body>`) and named by the SHA-1 of that encoding, so every id equals
 * what `git hash-object` / `git commit-tree` / `git mktag` compute for the same content. Objects are
 * kept decoded (no zlib: nothing here is written to disk), keyed by id; the store only grows (git's
 * objects are immutable and content-addressed: writing one twice is a no-op).
 *
 * Synchronous on purpose: route handlers run synchronously inside the store transaction
 * (src/core/route.ts), which rules out isomorphic-git (every call awaits its `fs.promises`).
 * SHA-1 comes from @noble/hashes (audited, dependency-free, browser-safe).
 * Source: git's Documentation/technical (object format), `git cat-file -p` output.
 * @module
 */
import { sha1 } from '@noble/hashes/legacy.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { concatUint8Arrays } from 'uint8array-extras'

/** A 40-character lower-case hex object id. */
export type ObjectId = string

/** Git's file modes as written in trees (`100644` file, `100755` executable, `120000` symlink, `40000` tree). */
export type TreeMode = '100644' | '100755' | '120000' | '40000' | '160000'

/** One entry of a tree object. */
export interface TreeEntry {
  readonly mode: TreeMode
  /** One path segment (no slash). */
  readonly name: string
  readonly id: ObjectId
}

/** Who and when, as git writes it in commits and tags. */
export interface Signature {
  readonly name: string
  readonly email: string
  /** Seconds since the epoch. */
  readonly time: number
  /** The offset as git writes it, e.g. `+0000`, `+0200`. */
  readonly offset: string
}

/** A decoded commit. */
export interface CommitObject {
  readonly type: 'commit'
  readonly tree: ObjectId
  readonly parents: readonly ObjectId[]
  readonly author: Signature
  readonly committer: Signature
  /** The message exactly as stored (git keeps what it is given; a trailing newline is part of it). */
  readonly message: string
}

/** A decoded annotated tag. */
export interface TagObject {
  readonly type: 'tag'
  readonly object: ObjectId
  readonly objectType: 'commit' | 'tree' | 'blob' | 'tag'
  readonly tag: string
  readonly tagger: Signature
  readonly message: string
}

/** A decoded tree: entries in git's order (see {@link compareTreeEntries}). */
export interface TreeObject {
  readonly type: 'tree'
  readonly entries: readonly TreeEntry[]
}

/** A blob: its bytes. */
export interface BlobObject {
  readonly type: 'blob'
  readonly data: Uint8Array
}

/** Any stored object. */
export type GitObject = BlobObject | TreeObject | CommitObject | TagObject

const utf8 = new TextEncoder()

/** The UTF-8 bytes of a string. */
function encodeText(text: string): Uint8Array {
  // TextEncoder costs a native call each time: short ASCII strings (tree entries, object
  // headers: several per object written) are copied in JS instead.
  if (text.length > 64) return utf8.encode(text)
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x7f) return utf8.encode(text)
    out[i] = c
  }
  return out
}

/** Hex digit (char code) → its value, for {@link writeHex}. */
const HEX_VALUE = new Uint8Array(128)
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i
}

/** Writes the 20 bytes a 40-digit hex id stands for into `out` at `at` (tree bodies hold raw ids). */
function writeHex(hex: string, out: Uint8Array, at: number): void {
  for (let i = 0; i < 20; i++) out[at + i] = (HEX_VALUE[hex.charCodeAt(2 * i)]! << 4) | HEX_VALUE[hex.charCodeAt(2 * i + 1)]!
}

/** `Name <email> <seconds> <offset>`, git's identity line. */
function formatSignature(s: Signature): string {
  return `${s.name} <${s.email}> ${s.time} ${s.offset}`
}

/** The SHA-1 of git's encoding of an object of `type` with this body. */
function hashObject(type: GitObject['type'], body: Uint8Array): ObjectId {
  // Header and body fed in turn: no copy of the body into one buffer.
  return bytesToHex(sha1.create().update(encodeText(`${type} ${body.length}\0`)).update(body).digest())
}

/**
 * Git's tree order: byte order of the names, a tree's name compared as if it ended in `/`
 * (git's `base_name_compare`), so `a.txt` sorts before the tree `a` (`a/`), and `a-b` before `a/`.
 */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  const na = a.name
  const nb = b.name
  // The keys are the names plus `/` for a tree, read without building them (a tree is sorted on
  // every write). UTF-16 code units order as UTF-8 bytes do (both as code points) except a
  // surrogate against a unit from U+E000 up: only then are the UTF-8 bytes compared.
  const la = a.mode === '40000' ? na.length + 1 : na.length
  const lb = b.mode === '40000' ? nb.length + 1 : nb.length
  const n = Math.min(la, lb)
  for (let i = 0; i < n; i++) {
    const x = i < na.length ? na.charCodeAt(i) : 0x2f
    const y = i < nb.length ? nb.charCodeAt(i) : 0x2f
    if (x === y) continue
    if (x < 0xd800 || y < 0xd800) return x - y
    return compareBytes(a, b)
  }
  // A prefix ending in a lone high surrogate encodes as U+FFFD, whose bytes may sort after the rest.
  const last = n > 0 && n <= na.length ? na.charCodeAt(n - 1) : 0
  if (last >= 0xd800 && last <= 0xdbff) return compareBytes(a, b)
  return la - lb
}

/** {@link compareTreeEntries} on the UTF-8 bytes of the keys. */
function compareBytes(a: TreeEntry, b: TreeEntry): number {
  const ka = utf8.encode(a.mode === '40000' ? `${a.name}/` : a.name)
  const kb = utf8.encode(b.mode === '40000' ? `${b.name}/` : b.name)
  const n = Math.min(ka.length, kb.length)
  for (let i = 0; i < n; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!
  return ka.length - kb.length
}



/** The body of a tree object: `<mode> <name>\0<20-byte id>` per entry, in tree order. */
function treeBody(entries: readonly TreeEntry[]): Uint8Array {
  // One buffer, sized from the UTF-8 lengths: a tree is rewritten on every commit below it.
  const heads = entries.map((e) => encodeText(`${e.mode} ${e.name}\0`))
  let length = 0
  for (const h of heads) length += h.length + 20
  const out = new Uint8Array(length)
  let at = 0
  for (let i = 0; i < entries.length; i++) {
    const head = heads[i]!
    out.set(head, at)
    writeHex(entries[i]!.id, out, at + head.length)
    at += head.length + 20
  }
  return out
}

function commitBody(c: Omit<CommitObject, 'type'>): Uint8Array {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${formatSignature(c.author)}`, `committer ${formatSignature(c.committer)}`]
  return encodeText(`${lines.join('\n')}\n\n${c.message}`)
}

function tagBody(t: Omit<TagObject, 'type'>): Uint8Array {
  return encodeText(`object ${t.object}\ntype ${t.objectType}\ntag ${t.tag}\ntagger ${formatSignature(t.tagger)}\n\n${t.message}`)
}

/** An object as git stores it loose, before compression: `<type> <size>\0<body>` (its id is this's SHA-1). */
export function encodeObject(object: GitObject): Uint8Array {
  const body = object.type === 'blob' ? object.data
    : object.type === 'tree' ? treeBody(object.entries)
    : object.type === 'commit' ? commitBody(object)
    : tagBody(object)
  return concatUint8Arrays([encodeText(`${object.type} ${body.length}\0`), body])
}

/**
 * The object database of one repository: write objects (each returns its id), read them back.
 * Reads of a missing id return undefined; reads of the wrong type too (`commit(treeId)`).
 */
export class ObjectStore {
  private readonly objects = new Map<ObjectId, GitObject>()
  /** Memo of commits' generation numbers (see {@link generation}), kept beside the commit's object. */
  private readonly generations = new Map<ObjectId, number>()
  /** The store this one extends (reads fall through to it; it is never written through this one). */
  private readonly parent: ObjectStore | undefined
  private readonly depth: number

  /**
   * @param parent a store whose objects this one shows as its own without copying them: a write
   *   (see `repository.write.ts`) stages its new objects in a child of the repository's store, so
   *   the parent stays as it was when the write is rolled back.
   */
  constructor(parent?: ObjectStore) {
    this.parent = parent
    this.depth = parent ? parent.depth + 1 : 0
  }

  /**
   * A new child of this store (see the constructor). Past 16 levels the chain is flattened into
   * one copy, so a read never walks more than 16 maps, whatever the number of writes.
   */
  child(): ObjectStore {
    if (this.depth < 16) return new ObjectStore(this)
    const flat = new ObjectStore()
    for (let s: ObjectStore | undefined = this; s; s = s.parent) {
      for (const [id, o] of s.objects) if (!flat.objects.has(id)) flat.objects.set(id, o)
      for (const [id, g] of s.generations) flat.generations.set(id, g)
    }
    return new ObjectStore(flat)
  }

  /** The objects written to this store itself, not to its parents, in the order written. */
  ownObjects(): IterableIterator<GitObject> {
    return this.objects.values()
  }

  /** How many objects are stored (parents included). */
  get size(): number {
    return this.objects.size + (this.parent?.size ?? 0)
  }

  /** Whether `id` names a stored object. */
  has(id: ObjectId): boolean {
    return this.objects.has(id) || (this.parent?.has(id) ?? false)
  }

  /** The object named `id`. */
  get(id: ObjectId): GitObject | undefined {
    return this.objects.get(id) ?? this.parent?.get(id)
  }

  /** The stored ids starting with `prefix` (lower-case hex), at most `limit` of them. */
  idsWithPrefix(prefix: string, limit = 2): ObjectId[] {
    const out: ObjectId[] = []
    for (let s: ObjectStore | undefined = this; s; s = s.parent) {
      for (const id of s.objects.keys()) {
        if (id.startsWith(prefix) && !out.includes(id)) {
          out.push(id)
          if (out.length >= limit) return out
        }
      }
    }
    return out
  }

  /** Stores a blob of these bytes (or this text, as UTF-8). */
  writeBlob(content: Uint8Array | string): ObjectId {
    const data = typeof content === 'string' ? encodeText(content) : content
    const id = hashObject('blob', data)
    if (!this.has(id)) this.objects.set(id, { type: 'blob', data })
    return id
  }

  /** Stores a tree of these entries (sorted here into git's order; names must be unique). */
  writeTree(entries: readonly TreeEntry[]): ObjectId {
    const sorted = [...entries]
    // Usually in order already (a tree rewritten keeps its entries' order): sorted only when not.
    for (let i = 1; i < sorted.length; i++) {
      if (compareTreeEntries(sorted[i - 1]!, sorted[i]!) > 0) {
        sorted.sort(compareTreeEntries)
        break
      }
    }
    const id = hashObject('tree', treeBody(sorted))
    if (!this.has(id)) this.objects.set(id, { type: 'tree', entries: sorted })
    return id
  }

  /** Stores a commit. */
  writeCommit(commit: Omit<CommitObject, 'type'>): ObjectId {
    const id = hashObject('commit', commitBody(commit))
    if (!this.has(id)) {
      this.objects.set(id, { type: 'commit', ...commit, parents: [...commit.parents] })
      // Numbered now when its parents are (a history is written oldest first): no walk later.
      let max = 0
      for (const parent of commit.parents) {
        const g = this.knownGeneration(parent)
        if (g === undefined) return id
        max = Math.max(max, g)
      }
      this.generations.set(id, max + 1)
    }
    return id
  }

  /** Stores an annotated tag. */
  writeTag(tag: Omit<TagObject, 'type'>): ObjectId {
    const id = hashObject('tag', tagBody(tag))
    if (!this.has(id)) this.objects.set(id, { type: 'tag', ...tag })
    return id
  }

  /**
   * The generation number of the commit `id` (git's commit-graph "topological level"): 1 for a root
   * commit, else one more than its parents' highest; undefined when `id` is not a stored commit.
   * A commit's generation is always above its ancestors', so a walk looking for an ancestor of
   * generation g need not go below g. Follows from the id alone (a commit names its parents), so
   * it is memoised with the commit, where the parents of this store (and every later write) find it.
   */
  generation(id: ObjectId): number | undefined {
    const known = this.knownGeneration(id)
    if (known !== undefined || !this.commit(id)) return known
    // Depth-first, iteratively (histories are deeper than the call stack): a commit is numbered
    // once every parent is.
    const stack: ObjectId[] = [id]
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      if (this.knownGeneration(top) !== undefined) {
        stack.pop()
        continue
      }
      let max = 0
      let ready = true
      for (const parent of this.commit(top)!.parents) {
        const g = this.knownGeneration(parent)
        if (g !== undefined) max = Math.max(max, g)
        else if (this.commit(parent)) {
          ready = false
          stack.push(parent)
        }
      }
      if (!ready) continue
      stack.pop()
      this.owner(top).generations.set(top, max + 1)
    }
    return this.knownGeneration(id)
  }

  private knownGeneration(id: ObjectId): number | undefined {
    for (let s: ObjectStore | undefined = this; s; s = s.parent) {
      const g = s.generations.get(id)
      if (g !== undefined) return g
    }
    return undefined
  }

  /** The store (this one or a parent) holding the object `id`, known to be stored. */
  private owner(id: ObjectId): ObjectStore {
    let s: ObjectStore = this
    while (!s.objects.has(id) && s.parent) s = s.parent
    return s
  }

  /** The blob named `id`. */
  blob(id: ObjectId): BlobObject | undefined {
    const o = this.get(id)
    return o?.type === 'blob' ? o : undefined
  }

  /** The tree named `id`. */
  tree(id: ObjectId): TreeObject | undefined {
    const o = this.get(id)
    return o?.type === 'tree' ? o : undefined
  }

  /** The commit named `id`. */
  commit(id: ObjectId): CommitObject | undefined {
    const o = this.get(id)
    return o?.type === 'commit' ? o : undefined
  }

  /** The annotated tag named `id`. */
  tag(id: ObjectId): TagObject | undefined {
    const o = this.get(id)
    return o?.type === 'tag' ? o : undefined
  }
}
