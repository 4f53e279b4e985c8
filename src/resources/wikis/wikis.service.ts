/**
 * Writing a project's wiki: create, update and delete a page (publishing the `wiki_page` fact),
 * and commit an attachment. Every check runs before the first write.
 * gitlab: app/services/wiki_pages/{create,update,destroy}_service.rb, app/models/wiki_page.rb
 * (`create`, `update`, validations), app/models/wiki.rb, app/services/wikis/create_attachment_service.rb (13.12).
 * @module
 */
import { validationFailed } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { publish } from '../../rules/events.js'
import { storedBytes } from '../../rules/uploads.js'
import type { WikiPageAction } from './wikis.events.js'
import { directoryOf, slugForTitle, titleOfSlug } from './wikis.slug.js'
import type { WikiAttachmentRecord, WikiFormat, WikiPageRecord } from './wikis.tables.js'

/** Who writes, when and where (a request's context). */
export interface WikiWriteCtx {
  readonly db: Db
  readonly currentUser: { readonly id: number } | null
  readonly now: string
  readonly baseUrl: string
}

/** The project's page with that slug (`Wiki#find_page`, which takes a title's spelling too), if any. */
export function findWikiPage(db: Db, project: ProjectRecord, slug: string): WikiPageRecord | undefined {
  const wanted = slugForTitle(slug)
  return db.tables.wiki_pages.where('project_id', project.id).find((page) => page.slug === slug || page.slug === wanted)
}

/** The project's pages in path order (`Wiki#list_pages`: Gitaly lists them sorted by path). */
export function wikiPagesOf(db: Db, project: ProjectRecord): WikiPageRecord[] {
  return db.tables.wiki_pages.where('project_id', project.id).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
}

/** `WikiPage` validations: a title (after trimming) that names a path, no other page at that path. */
function checkTitle(db: Db, project: ProjectRecord, title: string, slug: string, self: WikiPageRecord | null): void {
  if (title.trim() === '' || slug === '') throw validationFailed({ title: ["can't be blank"] })
  const taken = db.tables.wiki_pages.where('project_id', project.id).some((page) => page.slug === slug && page.id !== self?.id)
  // spec-gap: Gitaly's DuplicatePageError text is not in the 13.12 sources at hand; GitLab prefixes it with "Duplicate page: ".
  if (taken) throw validationFailed({ base: ['Duplicate page: A page with that title already exists'] })
}

function announce(ctx: WikiWriteCtx, project: ProjectRecord, page: WikiPageRecord, action: WikiPageAction, message: string | undefined): void {
  publish(ctx.db, 'wiki_page', { action, project, page, title: titleOfSlug(page.slug), message: message ?? null, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}

/**
 * `WikiPages::CreateService`: a page at the title's path.
 * @throws ApiError 400 `{"message":{"title":["can't be blank"]}}`, `{"message":{"base":["Duplicate page: …"]}}`.
 */
export function createWikiPage(ctx: WikiWriteCtx, project: ProjectRecord, input: { title: string; content: string; format: WikiFormat; message?: string | undefined }): WikiPageRecord {
  const slug = slugForTitle(input.title.trim())
  checkTitle(ctx.db, project, input.title, slug, null)
  const page = ctx.db.tables.wiki_pages.insert({ project_id: project.id, slug, format: input.format, content: input.content, author_id: ctx.currentUser?.id ?? null, created_at: ctx.now, updated_at: ctx.now })
  announce(ctx, project, page, 'create', input.message)
  return page
}

/**
 * `WikiPages::UpdateService`: new content, format and, with a title, a new path (a title without
 * `/` keeps the page's directory).
 * @throws ApiError 400 as {@link createWikiPage}.
 */
export function updateWikiPage(ctx: WikiWriteCtx, project: ProjectRecord, page: WikiPageRecord, input: { title?: string | undefined; content?: string | undefined; format: WikiFormat; message?: string | undefined }): WikiPageRecord {
  const changes: Partial<WikiPageRecord> = { format: input.format, updated_at: ctx.now, author_id: ctx.currentUser?.id ?? page.author_id }
  if (input.title !== undefined && input.title.trim() !== '') {
    const slug = slugForTitle(input.title.trim(), directoryOf(page.slug))
    checkTitle(ctx.db, project, input.title, slug, page)
    changes.slug = slug
  }
  if (input.content !== undefined) changes.content = input.content
  const updated = ctx.db.tables.wiki_pages.update(page.id, changes)
  announce(ctx, project, updated, 'update', input.message)
  return updated
}

/** `WikiPages::DestroyService`. */
export function deleteWikiPage(ctx: WikiWriteCtx, project: ProjectRecord, page: WikiPageRecord): void {
  ctx.db.tables.wiki_pages.delete(page.id)
  announce(ctx, project, page, 'delete', undefined)
}

/** The longest file name kept (`Wikis::CreateAttachmentService::MAX_FILENAME_LENGTH`). */
const MAX_FILENAME_LENGTH = 255

/**
 * `clean_file_name`: cut to 255 characters (keeping the extension), then every character
 * CarrierWave's `sanitize_regexp` refuses (`[^[:word:].\-+]`) made `_`.
 */
function cleanFileName(name: string): string {
  let fileName = name.split(/[\\/]/).pop() ?? name
  if (fileName.length > MAX_FILENAME_LENGTH) {
    const dot = fileName.lastIndexOf('.')
    const extension = dot > 0 ? fileName.slice(dot) : ''
    fileName = fileName.slice(0, MAX_FILENAME_LENGTH - extension.length) + extension
  }
  return fileName.replace(/[^\p{L}\p{N}_.\-+]/gu, '_')
}

/**
 * `Wikis::CreateAttachmentService`: the file committed at `uploads/<32 hex>/<clean name>` on the
 * branch (default `master`).
 * @param secret 32 lower-case hex digits (`SecureRandom.hex`).
 */
export function createWikiAttachment(ctx: WikiWriteCtx & { readonly currentUser: { readonly id: number } }, project: ProjectRecord, fileName: string, bytes: Uint8Array, branch: string, secret: string): WikiAttachmentRecord {
  const name = cleanFileName(fileName)
  return ctx.db.tables.wiki_attachments.insert({
    project_id: project.id,
    file_name: name,
    file_path: `uploads/${secret}/${name}`,
    branch,
    base64: storedBytes(bytes),
    author_id: ctx.currentUser.id,
    created_at: ctx.now,
  })
}
