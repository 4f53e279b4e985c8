/**
 * A snippet's git repository: built from its `snippet_repositories` row (one commit per create or
 * update, on `master`, 13.12's default branch for snippets) into real git objects with the
 * repository area's object store, on first read, and kept while the row is unchanged (a WeakMap
 * keyed by the row, as the repository area keeps projects'). So commit SHAs are git's and a file is
 * found by branch, `HEAD`, a full SHA or an unambiguous prefix, as Gitaly's `FindCommit` finds it.
 * gitlab: app/models/snippet.rb (`list_files`, `blobs`), app/models/snippet_repository.rb
 * (`multi_files_action`), lib/gitlab/git/repository.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import { ObjectStore, signatureAt, type ObjectId, type TreeEntry } from '../repository/repository.public.js'
import type { SnippetCommitSpec, SnippetRecord, SnippetRepositoryRecord } from './snippets.tables.js'

/** The branch a snippet repository's commits are on (`Gitlab::DefaultBranch` for snippets, 13.12). */
export const SNIPPET_ROOT_REF = 'master'

/** A built snippet repository: its objects, the commits oldest first, and the tip's files. */
export interface SnippetRepository {
  readonly objects: ObjectStore
  /** Commit ids, oldest first. */
  readonly commits: readonly ObjectId[]
  /** The files at the tip (path → text), in git's path order; empty for an empty repository. */
  readonly files: ReadonlyMap<string, string>
}

const built = new WeakMap<SnippetRepositoryRecord, SnippetRepository>()
const EMPTY: SnippetRepository = { objects: new ObjectStore(), commits: [], files: new Map() }

/** Writes the trees for `files` (path → blob id; paths may hold `/`) and returns the root tree's id. */
function writeTree(objects: ObjectStore, files: readonly [string[], ObjectId][]): ObjectId {
  const entries: TreeEntry[] = []
  const nested = new Map<string, [string[], ObjectId][]>()
  for (const [[name, ...rest], id] of files) {
    if (name === undefined) continue
    if (rest.length === 0) entries.push({ mode: '100644', name, id })
    else {
      let list = nested.get(name)
      if (!list) nested.set(name, (list = []))
      list.push([rest, id])
    }
  }
  for (const [name, list] of nested) entries.push({ mode: '40000', name, id: writeTree(objects, list) })
  return objects.writeTree(entries)
}

function build(row: SnippetRepositoryRecord): SnippetRepository {
  const objects = new ObjectStore()
  const commits: ObjectId[] = []
  let parent: ObjectId | undefined
  let files = new Map<string, string>()
  for (const spec of row.commits) {
    const blobs = spec.files.map(([path, text]): [string[], ObjectId] => [path.split('/'), objects.writeBlob(text)])
    const tree = writeTree(objects, blobs)
    const sig = signatureAt(spec.author_name, spec.author_email, spec.at)
    parent = objects.writeCommit({ tree, parents: parent ? [parent] : [], author: sig, committer: sig, message: spec.message })
    commits.push(parent)
    files = new Map(spec.files)
  }
  // `ls_files` lists paths in git's (byte) order.
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return { objects, commits, files: sorted }
}

/** The snippet's repository (empty when it has none yet). */
export function snippetRepository(db: Db, snippet: SnippetRecord): SnippetRepository {
  const row = db.tables.snippet_repositories.get(snippet.id)
  if (!row || row.commits.length === 0) return EMPTY
  let repo = built.get(row)
  if (!repo) built.set(row, (repo = build(row)))
  return repo
}

/**
 * The files at the commit `ref` names (`master`, `HEAD`, a SHA or a prefix of at least 4 hex
 * digits naming one commit), or undefined when it names none.
 */
export function filesAt(db: Db, snippet: SnippetRecord, ref: string): ReadonlyMap<string, string> | undefined {
  const row = db.tables.snippet_repositories.get(snippet.id)
  const repo = snippetRepository(db, snippet)
  if (!row || repo.commits.length === 0) return undefined
  let index = -1
  if (ref === SNIPPET_ROOT_REF || ref === 'HEAD' || ref === `refs/heads/${SNIPPET_ROOT_REF}`) index = repo.commits.length - 1
  else if (/^[0-9a-f]{4,40}$/i.test(ref)) {
    const matches = repo.commits.flatMap((id, i) => (id.startsWith(ref.toLowerCase()) ? [i] : []))
    if (matches.length === 1) index = matches[0]!
  }
  const spec = row.commits[index]
  return spec ? new Map(spec.files) : undefined
}

/**
 * Appends one commit leaving `files` (the whole new file set) to the snippet's repository, creating
 * the repository on the first; a commit that changes nothing is not made (Gitaly's
 * `UserCommitFiles` refuses an empty change and GitLab reports nothing).
 */
export function commitSnippetFiles(db: Db, snippet: SnippetRecord, files: readonly [string, string][], author: { name: string; email: string }, at: string, message: string): void {
  const table = db.tables.snippet_repositories
  const row = table.get(snippet.id)
  const spec: SnippetCommitSpec = { files: files.map(([path, text]) => [path, text]), message, author_name: author.name, author_email: author.email, at }
  if (!row) {
    table.insert({ id: snippet.id, snippet_id: snippet.id, commits: [spec] })
    return
  }
  const last = row.commits[row.commits.length - 1]
  if (last && JSON.stringify(last.files) === JSON.stringify(spec.files)) return
  table.update(row.id, { commits: [...row.commits, spec] })
}
