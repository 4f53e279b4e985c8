/**
 * The repository area's table: one row per project whose scenario entry has a `repository:`
 * section, holding that section with every default resolved at load (authors' names and e-mails,
 * dates, branches). The git objects are not stored: they follow from the row, and are built on the
 * first request that reads the repository (see `repository.build.ts`), so a scenario load (and the
 * state export the CLI starts from) pays only for this row.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'
import type { Signature, TreeMode } from './git-objects.js'

/** One commit of a scenario repository, defaults resolved. */
export interface RepositoryCommitSpec {
  /** The name later commits, branches and tags may use for it, or null. */
  key: string | null
  /** The branch it is committed on (and moves forward). */
  branch: string
  /** References to its parents (keys, branches or tags at that point); null = the branch's tip. */
  parents: string[] | null
  /** Where a new branch starts when `parents` is null and `branch` does not exist yet; null = the default branch. */
  from: string | null
  author_name: string
  author_email: string
  authored_date: Timestamp
  committer_name: string
  committer_email: string
  committed_date: Timestamp
  message: string
  /** Path → text (UTF-8), or null to delete the file; applied to the first parent's files. */
  files: Record<string, string | null>
}

/** One tag of a scenario repository, defaults resolved. */
export interface RepositoryTagSpec {
  name: string
  /** What it points at (a key, branch or tag). */
  ref: string
  /** The annotation's message, or null for a lightweight tag. */
  message: string | null
  tagger_name: string
  tagger_email: string
  /** The tag date; null = the tagged commit's committer date. */
  tagged_date: Timestamp | null
}

/** A git object as a push keeps it: decoded, JSON-safe (a blob's bytes in standard base64). */
export type StoredObject =
  | { type: 'blob'; base64: string }
  | { type: 'tree'; entries: { mode: TreeMode; name: string; id: string }[] }
  | { type: 'commit'; tree: string; parents: string[]; author: Signature; committer: Signature; message: string }
  | { type: 'tag'; object: string; objectType: 'commit' | 'tree' | 'blob' | 'tag'; tag: string; tagger: Signature; message: string }

/**
 * One write through the API (a commit, a branch or tag made or deleted): the objects it added and
 * the refs it moved, in order. Kept in the row so that the repository still follows from the row
 * alone (state export, restore) and a rolled-back request, which restores the row, leaves nothing.
 */
export interface RepositoryPush {
  objects: StoredObject[]
  /** Full ref name (`refs/heads/main`, `refs/tags/v1`) → the object it points at, or null when deleted. */
  refs: Record<string, string | null>
}

/** A project's scenario repository (`id` is the project's id). */
export interface ProjectRepositoryRecord extends Row {
  project_id: number
  /** The project's default branch when the scenario was loaded: where new branches start by default. */
  default_branch: string
  commits: RepositoryCommitSpec[]
  /** Extra branches: name → reference (key, branch or tag), resolved after every commit. */
  branches: Record<string, string>
  tags: RepositoryTagSpec[]
  /** What the API wrote since, oldest first (absent: nothing). */
  pushes?: RepositoryPush[]
}

/** Who a protected branch lets do something: a role (`access_level`), or one user or group (EE). */
export interface ProtectedRefAccessSpec {
  /** 0 No one, 30 Developers + Maintainers, 40 Maintainers, 60 Admins (EE); null for a user or group. */
  access_level: number | null
  user_id: number | null
  group_id: number | null
}

/** A protected branch (gitlab: app/models/protected_branch.rb, its access-level tables embedded). */
export interface ProtectedBranchRecord extends Row {
  project_id: number
  /** A branch name, or a pattern with `*` wildcards (`release/*`). */
  name: string
  push_access_levels: ProtectedRefAccessSpec[]
  merge_access_levels: ProtectedRefAccessSpec[]
  /** EE: who may unprotect it; empty = Maintainers (the policy's default). */
  unprotect_access_levels: ProtectedRefAccessSpec[]
  allow_force_push: boolean
  /** EE: pushes need code owners' approval. */
  code_owner_approval_required: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    project_repositories: ProjectRepositoryRecord
    protected_branches: ProtectedBranchRecord
  }
}

/** The tables and their indexes. */
export const repositoryTables = {
  project_repositories: table<ProjectRepositoryRecord>(['project_id']),
  protected_branches: table<ProtectedBranchRecord>(['project_id']),
}
