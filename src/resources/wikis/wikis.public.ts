/**
 * What other areas may read of project wikis: a project's pages in path order and the file path
 * each has in the wiki repository (`<slug>.<extension>`), as project search's `wiki_blobs` scope
 * reads them. gitlab: app/models/wiki.rb, app/models/wiki_page.rb (13.12).
 * @module
 */
import { WIKI_FORMATS, type WikiPageRecord } from './wikis.tables.js'

export { wikiPagesOf } from './wikis.service.js'

/** The page's file path in the wiki repository: its slug and its markup's extension (`home.md`). */
export function wikiPagePath(page: WikiPageRecord): string {
  return `${page.slug}.${WIKI_FORMATS[page.format]}`
}
