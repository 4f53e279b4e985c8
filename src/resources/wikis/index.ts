/**
 * The wikis area: a project's wiki pages (list, get, create, update, delete) and attachments, kept
 * as tables rather than the `<project>.wiki` repository, with the `wiki_page` fact its writes
 * publish (webhooks deliver it as the Wiki Page Hook). Group wikis are paid (Premium): not here.
 * gitlab: lib/api/wikis.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { wikiFragment } from './wikis.scenario.js'
import { wikiTables } from './wikis.tables.js'
import type { WikiAttachment as WikiAttachmentPresenter, WikiPage as WikiPagePresenter, WikiPageBasic as WikiPageBasicPresenter } from './wikis.entities.js'

export type { WikiAttachmentRecord, WikiFormat, WikiPageRecord } from './wikis.tables.js'
export type { WikiPageFields } from './wikis.scenario.js'
export type { WikiPageAction, WikiPageFact } from './wikis.events.js'

/** GitLab's `WikiPageBasic` entity. */
export type WikiPageBasic = ReturnType<typeof WikiPageBasicPresenter>
/** GitLab's `WikiPage` entity. */
export type WikiPage = ReturnType<typeof WikiPagePresenter>
/** GitLab's `WikiAttachment` entity. */
export type WikiAttachment = ReturnType<typeof WikiAttachmentPresenter>

/** The wikis area. */
export const wikis: Area = {
  name: 'wikis',
  load: async () => {
    const { wikiRoutes } = await import('./wikis.routes.js')
    return { api: wikiRoutes }
  },
  tables: wikiTables,
  scenario: wikiFragment,
}
