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

/** A project's scenario repository (`id` is the project's id). */
export interface ProjectRepositoryRecord extends Row {
  project_id: number
  /** The project's default branch when the scenario was loaded: where new branches start by default. */
  default_branch: string
  commits: RepositoryCommitSpec[]
  /** Extra branches: name → reference (key, branch or tag), resolved after every commit. */
  branches: Record<string, string>
  tags: RepositoryTagSpec[]
}

declare module '../../db/schema.js' {
  interface Tables {
    project_repositories: ProjectRepositoryRecord
  }
}

/** The table and its index. */
export const repositoryTables = {
  project_repositories: table<ProjectRepositoryRecord>(['project_id']),
}
