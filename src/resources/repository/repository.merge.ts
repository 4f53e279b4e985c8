/**
 * The three-way merge of trees that merges, rebases, cherry-picks and reverts share: the change
 * from `base` to `theirs` applied to `ours`, path by path, and a file both sides changed merged
 * line by line (diff3, through node-diff3) as git's recursive strategy does, a conflict only where
 * their changes overlap (or touch adjacent lines, as diff3 counts them). What git cannot merge
 * line by line is a conflict too: a file deleted on one side and changed on the other, binary
 * content (a NUL byte in its first 8000 bytes, or text that is not UTF-8), symbolic links and
 * submodules changed on both sides, modes changed differently, and a path that is a file on one
 * side and a directory on the other.
 * Sources: gitaly's UserMergeBranch / UserCherryPick / UserRevert (libgit2's `git_merge_trees`
 * with the default file favour: conflicts fail the call), git's merge-file (diff3).
 * @module
 */
import { diff3Merge } from 'node-diff3'
import type { ObjectStore, TreeMode } from './git-objects.js'
import type { FlatEntry } from './repository.build.js'

/** git's binary check (`buffer_is_binary`): a NUL byte in the first 8000 bytes. */
const BINARY_PROBE = 8000

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The blob's text as lines with their line ends (the last without one if it has none), or null for binary. */
function lines(objects: ObjectStore, entry: FlatEntry | undefined): string[] | null {
  if (entry === undefined) return []
  const data = objects.blob(entry.id)?.data
  if (!data || data.subarray(0, BINARY_PROBE).includes(0)) return null
  let text: string
  try {
    text = utf8.decode(data)
  } catch {
    return null
  }
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? []
}

/** Whether two entries are the same file (mode and blob); both absent count as the same. */
function same(a: FlatEntry | undefined, b: FlatEntry | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.id === b.id && a.mode === b.mode)
}

/** A regular file's mode (git merges only those by content). */
function regular(mode: TreeMode): boolean {
  return mode === '100644' || mode === '100755'
}

/**
 * Merges one path both sides changed differently from `base`: the mode as one side changed it,
 * the content merged line by line into a blob written to `objects`.
 * @returns the merged entry, or null on a conflict.
 */
function mergeEntry(objects: ObjectStore, base: FlatEntry | undefined, ours: FlatEntry | undefined, theirs: FlatEntry | undefined): FlatEntry | null {
  if (ours === undefined || theirs === undefined || !regular(ours.mode) || !regular(theirs.mode)) return null
  let mode: TreeMode
  if (ours.mode === theirs.mode) mode = ours.mode
  else if (base !== undefined && ours.mode === base.mode) mode = theirs.mode
  else if (base !== undefined && theirs.mode === base.mode) mode = ours.mode
  else return null
  if (ours.id === theirs.id) return { id: ours.id, mode }
  if (base !== undefined && ours.id === base.id) return { id: theirs.id, mode }
  if (base !== undefined && theirs.id === base.id) return { id: ours.id, mode }
  const [a, o, b] = [lines(objects, ours), lines(objects, base), lines(objects, theirs)]
  if (a === null || o === null || b === null) return null
  const merged: string[] = []
  for (const region of diff3Merge(a, o, b, { excludeFalseConflicts: true })) {
    if (region.conflict) return null
    merged.push(...(region.ok ?? []))
  }
  return { id: objects.writeBlob(merged.join('')), mode }
}

/**
 * The three-way merge of flat trees (path → entry): the change from `base` to `theirs` applied to
 * `ours`. A path changed on one side only takes that side; changed alike on both, once; changed
 * differently, its lines merged (see the module comment). Merged blobs are written to `objects`
 * (a write's store, or a scratch `child()` store when only the outcome matters).
 * @returns the merged flat tree, or null on a conflict.
 */
export function mergeFlatTrees(objects: ObjectStore, base: ReadonlyMap<string, FlatEntry>, ours: ReadonlyMap<string, FlatEntry>, theirs: ReadonlyMap<string, FlatEntry>): Map<string, FlatEntry> | null {
  const out = new Map(ours)
  for (const path of new Set([...base.keys(), ...theirs.keys()])) {
    const be = base.get(path)
    const te = theirs.get(path)
    const oe = ours.get(path)
    if (same(te, be) || same(oe, te)) continue
    if (same(oe, be)) {
      if (te) out.set(path, te)
      else out.delete(path)
      continue
    }
    const merged = mergeEntry(objects, be, oe, te)
    if (merged === null) return null
    out.set(path, merged)
  }
  // A path that is a file on one side and a directory on the other.
  for (const path of out.keys()) {
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++) if (out.has(parts.slice(0, i).join('/'))) return null
  }
  return out
}
