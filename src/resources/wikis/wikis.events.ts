/**
 * The `wiki_page` fact: a project's wiki page was created, updated or deleted (through the API),
 * published by the wikis service inside the request's transaction. Webhooks turn it into the Wiki
 * Page Hook (`object_kind: wiki_page`). gitlab: app/services/wiki_pages/base_service.rb
 * (`execute_hooks`), lib/gitlab/data_builder/wiki_page.rb (13.12).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import type { WikiPageRecord } from './wikis.tables.js'

/** What happened to a wiki page, as the hook's `action` names it. */
export type WikiPageAction = 'create' | 'update' | 'delete'

/** The `wiki_page` fact. */
export interface WikiPageFact {
  readonly action: WikiPageAction
  /** The page's project (the row as it is now). */
  readonly project: ProjectRecord
  /** The page as it is after the change (as it was, for a delete). */
  readonly page: WikiPageRecord
  /** The page's title as GitLab shows it (its slug's last segment, hyphens as spaces). */
  readonly title: string
  /** The commit message the request gave (`message`), or null for GitLab's default one. */
  readonly message: string | null
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A project wiki page created, updated or deleted (see {@link WikiPageFact}). */
    wiki_page: WikiPageFact
  }
}
