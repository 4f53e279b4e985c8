/**
 * `LabelBasic` (GitLab 13.x lib/api/entities/label_basic.rb), how labels appear inside other
 * entities (issues with `with_labels_details`), and the single-line Markdown of its description.
 * The label routes' own entities (`Label`, `GroupLabel`, `ProjectLabel`) live in the labels area.
 * Source: api-spec.md "Label (project and group)"; gitlab-behaviour.md §12.1.
 * @module
 */
import { textColor } from '../core/color.js'
import type { Tables } from '../db/schema.js'
import type { PresentCtx } from './urls.js'

/** The labels area's record (merged into `Tables`; this folder imports no area). */
type LabelRecord = Tables['labels']

/** `{id, name, color, description, description_html, text_color}`: how labels appear inside other entities. */
export function LabelBasic(label: LabelRecord, _ctx: PresentCtx) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: renderSingleLineMarkdown(label.description),
    text_color: textColor(label.color),
  }
}

// ---- description_html -----------------------------------------------------------------------

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }
const LINK_ATTRS = 'rel="nofollow noreferrer noopener" target="_blank"'

function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c] ?? c)
}

/**
 * A deterministic stand-in for GitLab's single-line markdown pipeline (`cache_markdown_field
 * :description, pipeline: :single_line`): no paragraph wrapper; HTML-escaped text; inline code,
 * `**strong**`/`__strong__`, `*em*`/`_em_`, `~~del~~`, `[text](url)` links and bare http(s) URLs.
 * GitLab references (`#1`, `~bug`, `@user`) are left as text. A null description stays null.
 * // spec-gap: the full Banzai pipeline is out of scope; plain descriptions render exactly as GitLab does.
 */
export function renderSingleLineMarkdown(text: string | null): string | null {
  if (text === null) return null
  const stash: string[] = []
  const keep = (html: string): string => `\u0000${stash.push(html) - 1}\u0000`
  let html = escapeHtml(text)
  html = html.replace(/`([^`]+)`/g, (_, code: string) => keep(`<code>${code}</code>`))
  html = html.replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, (_, label: string, url: string) =>
    keep(`<a href="${url}" ${LINK_ATTRS}>${label}</a>`))
  html = html.replace(/\bhttps?:\/\/[^\s<\u0000]+/g, (url) => keep(`<a href="${url}" ${LINK_ATTRS}>${url}</a>`))
  html = html.replace(/\*\*(?=\S)(.+?)\*\*/g, '<strong>$1</strong>')
  html = html.replace(/(^|[^\w])__(?=\S)(.+?)__(?=[^\w]|$)/g, '$1<strong>$2</strong>')
  html = html.replace(/\*(?=\S)([^*]+?)\*/g, '<em>$1</em>')
  html = html.replace(/(^|[^\w])_(?=\S)([^_]+?)_(?=[^\w]|$)/g, '$1<em>$2</em>')
  html = html.replace(/~~(?=\S)(.+?)~~/g, '<del>$1</del>')
  return html.replace(/\u0000(\d+)\u0000/g, (_, i: string) => stash[Number(i)] ?? '')
}
