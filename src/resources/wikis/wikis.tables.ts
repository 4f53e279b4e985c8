/**
 * The wikis area's tables. A project's wiki (GitLab's `<project>.wiki` repository) is kept as a
 * table of pages (`wiki_pages`: slug, title, format, content; one row per page, its latest
 * version) and one of attachments committed to it (`wiki_attachments`, the bytes in base64), not
 * as git objects: nothing in the 13.12 API reads a wiki's history or clones it, so a table is what
 * the routes need (docs/spec-gaps.md). gitlab: app/models/wiki.rb, app/models/wiki_page.rb,
 * app/services/wikis/create_attachment_service.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** The markups a page may be written in (`Wiki::MARKUPS`), with their file extensions. */
export const WIKI_FORMATS = { markdown: 'md', rdoc: 'rdoc', asciidoc: 'asciidoc', org: 'org' } as const

/** A page's markup. */
export type WikiFormat = keyof typeof WIKI_FORMATS

/** A wiki page of a project (its latest version). */
export interface WikiPageRecord extends Row {
  project_id: number
  /** The page's path without its extension (`dir/page-name`): what the API calls its slug. */
  slug: string
  format: WikiFormat
  content: string
  /** Who wrote the latest version (a commit author), or null (a scenario page without one). */
  author_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A file uploaded to a project's wiki (`uploads/<32 hex>/<name>` on a branch). */
export interface WikiAttachmentRecord extends Row {
  project_id: number
  file_name: string
  file_path: string
  branch: string
  /** The bytes, standard base64. */
  base64: string
  author_id: number
  created_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    wiki_pages: WikiPageRecord
    wiki_attachments: WikiAttachmentRecord
  }
}

/** The tables and their indexes. */
export const wikiTables = {
  wiki_pages: table<WikiPageRecord>(['project_id']),
  wiki_attachments: table<WikiAttachmentRecord>(['project_id']),
}
