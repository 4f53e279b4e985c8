/**
 * GitLab's Markdown rendering for `POST /markdown`: CommonMark with GitLab's extensions (tables,
 * strikethrough, autolinks) through markdown-it, with `data-sourcepos` on block elements as
 * CommonMarker's SOURCEPOS option writes it; the full (GFM) pipeline adds `dir="auto"`, task lists
 * (`TaskListFilter`), emoji (`EmojiFilter`) and the reference filters: `#1`, `!1`, `~label`,
 * `~"two words"`, `%milestone`, `%"two words"` (in the project given, or `group/project#1` anywhere)
 * and `@username`, each a link only when the record exists and the current user may read it (the
 * redactor's rule), else plain text; links off GitLab's host get `rel="nofollow noreferrer
 * noopener" target="_blank"` (`ExternalLinkFilter`). Raw HTML in the text is escaped.
 * gitlab: lib/banzai/pipeline/{full,gfm,plain_markdown}_pipeline.rb, lib/banzai/filter/
 * {markdown,task_list,emoji,external_link}_filter.rb, lib/banzai/filter/references/*_reference_filter.rb,
 * lib/banzai/reference_redactor.rb (13.12).
 * @module
 */
import MarkdownIt from 'markdown-it'
import type Token from 'markdown-it/lib/token.mjs'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import type { PresentCtx } from '../../entities/urls.js'
import { canReadProject, issueVisibleTo } from '../../rules/access.js'
import { glEmoji } from '../../rules/emoji.js'
import { issueByIid } from '../issues/issues.public.js'
import { labelsOfGroup, labelsOfProject } from '../labels/labels.public.js'
import { canReadMergeRequest, mergeRequestByIid } from '../merge-requests/merge-requests.public.js'
import { milestonesOfGroup, milestonesOfProject } from '../milestones/milestones.public.js'

/** What a rendering reads: the store and viewer, and the project references resolve in (null: none). */
export interface MarkdownContext extends PresentCtx {
  readonly currentUser: UserRecord | null
  readonly today: string
  readonly project: ProjectRecord | null
}

/** Elements the full pipeline marks `dir="auto"`. */
const DIR_AUTO = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'table'])

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** `line:col-line:col` of a block from its line range: its first character to the end of its last non-blank line. */
function sourcepos(lines: readonly string[], map: [number, number]): string {
  const first = lines[map[0]] ?? ''
  let last = map[1] - 1
  while (last > map[0] && (lines[last] ?? '').trim() === '') last--
  const startCol = first.length - first.trimStart().length + 1
  const endCol = Math.max((lines[last] ?? '').trimEnd().length, 1)
  return `${map[0] + 1}:${startCol}-${last + 1}:${endCol}`
}

let engines: { plain: MarkdownIt; full: MarkdownIt } | undefined

function engine(gfm: boolean): MarkdownIt {
  if (!engines) {
    const make = (full: boolean) => {
      const md = new MarkdownIt('default', { html: false, linkify: true })
      md.core.ruler.push('gitlab_blocks', (state) => {
        const lines = state.src.split('\n')
        for (const token of state.tokens) {
          if (token.nesting !== 1 || !token.map) continue
          token.attrSet('data-sourcepos', sourcepos(lines, token.map))
          if (full && DIR_AUTO.has(token.tag)) token.attrSet('dir', 'auto')
        }
        if (full) taskLists(state.tokens)
      })
      if (full) {
        // ExternalLinkFilter: a link off GitLab's host opens in a new tab, without referrer.
        md.renderer.rules.link_open = (tokens, idx, options, env: { internalHost?: string }, self) => {
          const token = tokens[idx]!
          if (!isInternal(token.attrGet('href') ?? '', env.internalHost ?? '')) {
            token.attrSet('rel', 'nofollow noreferrer noopener')
            token.attrSet('target', '_blank')
          }
          return self.renderToken(tokens, idx, options)
        }
      }
      return md
    }
    engines = { plain: make(false), full: make(true) }
  }
  return gfm ? engines.full : engines.plain
}

/** Whether a link stays on GitLab's host (or is relative): `ExternalLinkFilter#internal_url?`. */
function isInternal(href: string, internalHost: string): boolean {
  try {
    const url = new URL(href)
    return !/^https?:$/.test(url.protocol) || url.hostname.toLowerCase() === internalHost
  } catch {
    return true
  }
}

/** `TaskListFilter`: a list item starting `[ ]` or `[x]` gets its checkbox, its list `class="task-list"`. */
function taskLists(tokens: Token[]): void {
  const lists: Token[] = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') lists.push(token)
    else if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') lists.pop()
    else if (token.type === 'list_item_open') {
      const inline = tokens[i + 2]
      const first = inline?.type === 'inline' ? inline.children?.[0] : undefined
      const match = first?.type === 'text' ? /^\[([ xX])\](?=\s|$)/.exec(first.content) : null
      if (!inline || !first || !match) continue
      token.attrJoin('class', 'task-list-item')
      const list = lists.at(-1)
      if (list && !(list.attrGet('class') ?? '').split(' ').includes('task-list')) list.attrJoin('class', 'task-list')
      first.content = first.content.slice(3)
      const box = new (first.constructor as typeof Token)('html_inline', '', 0)
      box.content = `<input type="checkbox" class="task-list-item-checkbox"${match[1] === ' ' ? '' : ' checked'} disabled>`
      inline.children!.unshift(box)
    }
  }
}

/** A reference in text: `[prefix][path]#1`, `!1`, `~x`, `~"x y"`, `%x`, `%"x y"`, `@user`, or `:emoji:`. */
const REFERENCE = /(^|[^\w/&])(?:((?:[\w.-]+\/)+[\w.-]+)?([#!])(\d+)|([~%])(?:"([^"]+)"|([\w.?&-]+))|@([\w.][\w.-]*[\w-]|[\w])|:([a-z0-9_+-]+):)/g

/** The reference filters and the emoji filter over one text node's content: HTML. */
function references(ctx: MarkdownContext, text: string): string {
  let out = ''
  let at = 0
  for (const m of text.matchAll(REFERENCE)) {
    const start = m.index + m[1]!.length
    const html = referenceHtml(ctx, m)
    if (html === undefined) continue
    out += escapeHtml(text.slice(at, start)) + html
    at = m.index + m[0].length
  }
  return out + escapeHtml(text.slice(at))
}

function attrs(pairs: [string, string | number][]): string {
  return pairs.map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`).join('')
}

function referenceHtml(ctx: MarkdownContext, m: RegExpMatchArray): string | undefined {
  const { db } = ctx
  const [, , path, sigil, number, labelSigil, quoted, bare, username, emoji] = m
  if (emoji !== undefined) return glEmoji(emoji)
  if (username !== undefined) {
    const user = db.findUserByUsername(username)
    if (!user) return undefined
    return `<a href="${ctx.baseUrl}/${user.username}"${attrs([['data-user', user.id], ['data-reference-type', 'user'], ['data-container', 'body'], ['data-placement', 'top'], ['class', 'gfm gfm-project_member js-user-link'], ['title', user.name]])}>@${escapeHtml(user.username)}</a>`
  }
  const project = path === undefined ? ctx.project : (db.findProjectByFullPath(path) ?? null)
  if (!project || !canReadProject(db, ctx.currentUser, project, ctx.today)) return undefined
  const projectPath = db.projectFullPath(project)
  const original = m[0].slice(m[1]!.length)
  const common = (type: string, key: string, id: number): [string, string | number][] => [
    ['data-reference-type', type], ['data-original', original], ['data-link', 'false'], ['data-link-reference', 'false'], ['data-project', project.id], [key, id], ['data-container', 'body'], ['data-placement', 'top'],
  ]
  if (sigil === '#') {
    const issue = issueByIid(db, project.id, Number(number))
    if (!issue || !issueVisibleTo(db, ctx.currentUser, project, ctx.today)(issue)) return undefined
    return `<a href="${ctx.baseUrl}/${projectPath}/-/issues/${issue.iid}"${attrs([...common('issue', 'data-issue', issue.id), ['title', issue.title], ['class', 'gfm gfm-issue has-tooltip']])}>${escapeHtml(original)}</a>`
  }
  if (sigil === '!') {
    const mr = mergeRequestByIid(db, project.id, Number(number))
    if (!mr || !canReadMergeRequest(ctx, project, mr)) return undefined
    return `<a href="${ctx.baseUrl}/${projectPath}/-/merge_requests/${mr.iid}"${attrs([...common('merge_request', 'data-merge-request', mr.id), ['title', mr.title], ['class', 'gfm gfm-merge_request has-tooltip']])}>${escapeHtml(original)}</a>`
  }
  const name = quoted ?? bare!
  const groups = ancestorsOf(ctx, project)
  if (labelSigil === '~') {
    const label = [...labelsOfProject(db, project.id), ...groups.flatMap((id) => labelsOfGroup(db, id))].find((l) => l.title === name)
    if (!label) return undefined
    const light = textIsLight(label.color)
    return `<span class="gl-label gl-label-sm"><a href="${ctx.baseUrl}/${projectPath}/-/issues?label_name=${encodeURIComponent(label.title)}"${attrs([...common('label', 'data-label', label.id), ['title', label.description ?? ''], ['class', 'gfm gfm-label has-tooltip gl-link gl-label-link']])}><span class="gl-label-text ${light ? 'gl-label-text-light' : 'gl-label-text-dark'}" data-container="body" data-html="true" style="background-color: ${escapeHtml(label.color)}">${escapeHtml(label.title)}</span></a></span>`
  }
  const milestone = [...milestonesOfProject(db, project.id), ...groups.flatMap((id) => milestonesOfGroup(db, id))].find((ms) => ms.title === name)
  if (!milestone) return undefined
  const where = milestone.group_id !== null ? `groups/${db.groupFullPath(db.tables.groups.get(milestone.group_id)!)}` : projectPath
  return `<a href="${ctx.baseUrl}/${where}/-/milestones/${milestone.iid}"${attrs([...common('milestone', 'data-milestone', milestone.id), ['title', milestone.description ?? ''], ['class', 'gfm gfm-milestone has-tooltip']])}>${escapeHtml(original)}</a>`
}

/** The project's group and its ancestors' ids, nearest first (labels and milestones are inherited). */
function ancestorsOf(ctx: MarkdownContext, project: ProjectRecord): number[] {
  if (project.namespace_type !== 'group') return []
  const ids: number[] = []
  for (let group = ctx.db.tables.groups.get(project.namespace_id); group; group = group.parent_id === null ? undefined : ctx.db.tables.groups.get(group.parent_id)) ids.push(group.id)
  return ids
}

/** `LabelsHelper#text_color_for_bg` inverted: white text (`-light`) on a dark background. */
function textIsLight(color: string): boolean {
  const hex = color.replace('#', '')
  const full = hex.length === 3 ? hex.split('').map((c) => c + c).join('') : hex
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16))
  return r! + g! + b! <= 500
}

/**
 * Renders `text` as `POST /markdown` does: the full pipeline when `gfm`, else the plain Markdown one.
 * @returns HTML, each block on its own line as CommonMarker writes it.
 */
export function renderMarkdown(ctx: MarkdownContext, text: string, gfm: boolean): string {
  const md = engine(gfm)
  let internalHost = ''
  try {
    internalHost = new URL(ctx.baseUrl).hostname.toLowerCase()
  } catch {
    // no base URL: every absolute link is external
  }
  const env = { internalHost }
  const tokens = md.parse(text, env)
  if (gfm) {
    for (const block of tokens) {
      if (block.type !== 'inline' || !block.children) continue
      let inLink = 0
      const children: Token[] = []
      for (const child of block.children) {
        if (child.type === 'link_open') inLink++
        if (child.type === 'link_close') inLink--
        if (child.type === 'text' && inLink === 0 && /[#!~%@:]/.test(child.content)) {
          const html = references(ctx, child.content)
          if (html !== escapeHtml(child.content)) {
            const token = new (child.constructor as typeof Token)('html_inline', '', 0)
            token.content = html
            children.push(token)
            continue
          }
        }
        children.push(child)
      }
      block.children = children
    }
  }
  return md.renderer.render(tokens, md.options, env).replace(/\n$/, '')
}
