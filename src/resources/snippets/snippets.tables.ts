/**
 * The snippets area's tables: snippets (personal and project ones) and the small git repository
 * each holds its files in (`snippet_repositories`: the commits, oldest first, each with every file
 * it leaves, from which `snippets.repository.ts` builds real git objects on first read).
 * The area writes `user_agent_details` rows too (the issues area's table), as GitLab's spam check
 * records how a snippet was created.
 * gitlab: db/structure.sql (`snippets`, `snippet_repositories`), app/models/snippet.rb,
 * app/models/snippet_repository.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp, type Visibility } from '../../db/schema.js'

/** A snippet: personal (`project_id` null) or of a project. */
export interface SnippetRecord extends Row {
  title: string
  description: string
  visibility: Visibility
  author_id: number
  project_id: number | null
  /**
   * The legacy `file_name` column: the name given at creation (or by a later `file_name`); the
   * entity shows the repository's first file instead whenever the repository has one.
   */
  file_name: string
  repository_storage: string
  created_at: Timestamp
  updated_at: Timestamp
}

/** One commit of a snippet repository: every file it leaves (path → UTF-8 text), its author and instant. */
export interface SnippetCommitSpec {
  /** Path → text, in the order the files were written. */
  files: [string, string][]
  message: string
  author_name: string
  author_email: string
  /** The author and committer date. */
  at: Timestamp
}

/** A snippet's repository (`id` is the snippet's id): its commits on `master`, oldest first. */
export interface SnippetRepositoryRecord extends Row {
  snippet_id: number
  commits: SnippetCommitSpec[]
}

declare module '../../db/schema.js' {
  interface Tables {
    snippets: SnippetRecord
    snippet_repositories: SnippetRepositoryRecord
  }
}

/** The tables and their indexes. */
export const snippetTables = {
  snippets: table<SnippetRecord>(['project_id', 'author_id']),
  snippet_repositories: table<SnippetRepositoryRecord>(['snippet_id']),
}
