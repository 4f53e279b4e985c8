/**
 * The wiki entities: `WikiPageBasic` `{format, slug, title}`, `WikiPage` (+ `content`, `encoding`)
 * and `WikiAttachment` `{file_name, file_path, branch, link: {url, markdown}}`.
 * gitlab: lib/api/entities/wiki_page_basic.rb, wiki_page.rb, wiki_attachment.rb,
 * lib/gitlab/file_markdown_link_builder.rb (13.12).
 * @module
 */
import { extensionOf } from '../../rules/uploads.js'
import { titleOfSlug } from './wikis.slug.js'
import type { WikiAttachmentRecord, WikiPageRecord } from './wikis.tables.js'

/** `Entities::WikiPageBasic`. */
export function WikiPageBasic(page: WikiPageRecord) {
  return { format: page.format, slug: page.slug, title: titleOfSlug(page.slug) }
}

/** `Entities::WikiPage`: the basic fields, the raw content and its encoding (always UTF-8 here). */
export function WikiPage(page: WikiPageRecord) {
  return { format: page.format, slug: page.slug, title: titleOfSlug(page.slug), content: page.content, encoding: 'UTF-8' }
}

/** The extensions GitLab embeds (`Gitlab::FileTypeDetection`: images, videos, audio). */
const EMBEDDABLE = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp', 'mp4', 'm4v', 'mov', 'webm', 'ogv', 'mp3', 'oga', 'ogg', 'spx', 'wav'])

/**
 * `FileMarkdownLinkBuilder#markdown_link`: `[name](url)`, with `!` and the name without its
 * extension for an embeddable file; `]` in the name escaped.
 */
function markdownLink(fileName: string, url: string): string {
  const embeddable = EMBEDDABLE.has(extensionOf(fileName))
  const name = embeddable ? fileName.replace(/\.[^.]*$/, '') : fileName
  const link = `[${name.replace(/]/g, '\\]')}](${url})`
  return embeddable ? `!${link}` : link
}

/** `Entities::WikiAttachment`. */
export function WikiAttachment(attachment: WikiAttachmentRecord) {
  return {
    file_name: attachment.file_name,
    file_path: attachment.file_path,
    branch: attachment.branch,
    link: { url: attachment.file_path, markdown: markdownLink(attachment.file_name, attachment.file_path) },
  }
}
