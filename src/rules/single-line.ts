/**
 * GitLab's single-line Markdown pipeline (`Banzai::Pipeline::SingleLinePipeline`), which renders a
 * label's `description_html` (`cache_markdown_field :description, pipeline: :single_line`).
 *
 * Despite the name it renders no Markdown: its filters are `HtmlEntityFilter` (HTML-escape),
 * `SanitizationFilter`, `AssetProxyFilter`, `EmojiFilter`, `AutolinkFilter`, `ExternalLinkFilter`
 * and the reference filters. GitLab's own spec says so ("does not process markdown": `_italic_`
 * stays `_italic_`; "escapes HTML": `<p>Hello<br>World</p>` becomes
 * `&lt;p&gt;Hello&lt;br&gt;World&lt;/p&gt;`). The result, as libxml2 serialises it, is the text
 * with `&`, `<` and `>` escaped (quotes come back unescaped) and `scheme://…` URLs turned into
 * links; links to other hosts get `rel="nofollow noreferrer noopener" target="_blank"`.
 *
 * spec-gap: the emoji filter (`:smile:` and emoji characters become `<gl-emoji>` elements, which
 * needs GitLab's emoji table), the reference filters (`#1`, `@user`, `!1`, commit SHAs become links
 * to existing records) and the IDN / right-to-left-override link tooltips are not rendered; such
 * text stays plain text.
 *
 * Linear time: one left-to-right pass; no backtracking regular expression.
 * Sources: gitlab: lib/banzai/pipeline/single_line_pipeline.rb, lib/banzai/filter/html_entity_filter.rb,
 * lib/banzai/filter/autolink_filter.rb (`LINK_PATTERN`, `autolink_match`),
 * lib/banzai/filter/external_link_filter.rb, lib/gitlab/utils/sanitize_node_link.rb,
 * spec/lib/banzai/pipeline/single_line_pipeline_spec.rb; gitlab-behaviour.md §12.1.
 * @module
 */

/** Ruby's `[[:space:]]` (Unicode White_Space), for `String#blank?`. */
const RUBY_BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/

/** Characters that make the slow path necessary: escaping, or the `:` of a URL. */
const NEEDS_WORK = /[&<>:]/

/**
 * `description_html` for a description: `""` for none (GitLab's `cacheless_render` returns
 * `text.to_s` for blank text, and the cache column is filled on save), the text itself for blank
 * text, else the single-line pipeline's HTML.
 * @param baseUrl where GitLab serves (`ctx.baseUrl`): links to its host get no `rel`/`target`,
 *   as `ExternalLinkFilter#internal_url?` decides.
 * @example renderSingleLine('**bold** & <b>', 'http://gitlab.test') // '**bold** &amp; &lt;b&gt;'
 */
export function renderSingleLine(text: string | null, baseUrl: string): string {
  if (text === null || RUBY_BLANK.test(text)) return text ?? ''
  // Fast path for plain text: nothing to escape and no URL, so the pipeline returns it unchanged.
  if (!NEEDS_WORK.test(text)) return text
  return memo.get(baseUrl, text) ?? memo.set(baseUrl, text, render(text, internalHost(baseUrl)))
}

/** The host of `baseUrl`, lower-case (empty when it is no URL). */
function internalHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname.toLowerCase()
  } catch {
    return ''
  }
}

// ---- memo -------------------------------------------------------------------------------------

/**
 * A bounded cache of rendered descriptions, per base URL, oldest evicted first. Reads of the same
 * description then only copy (GitLab caches the rendered column instead; see STYLE §6). Bounded by
 * total characters so a few huge descriptions cannot hold memory.
 */
class RenderMemo {
  private readonly entries = new Map<string, Map<string, string>>()
  /** Insertion order of cached (host, text) pairs, oldest from `head` on. */
  private order: [string, string][] = []
  private head = 0
  private size = 0
  private readonly maxChars: number

  constructor(maxChars: number) {
    this.maxChars = maxChars
  }

  get(host: string, text: string): string | undefined {
    return this.entries.get(host)?.get(text)
  }

  set(host: string, text: string, html: string): string {
    const cost = text.length + html.length
    if (cost > this.maxChars) return html
    let byText = this.entries.get(host)
    if (!byText) this.entries.set(host, (byText = new Map()))
    byText.set(text, html)
    this.order.push([host, text])
    this.size += cost
    // Evict the oldest entries first; compact the queue once half of it is spent.
    while (this.size > this.maxChars && this.head < this.order.length) {
      const [oldHost, oldText] = this.order[this.head++]!
      const map = this.entries.get(oldHost)
      const old = map?.get(oldText)
      if (old === undefined) continue
      map!.delete(oldText)
      this.size -= oldText.length + old.length
    }
    if (this.head > this.order.length / 2) {
      this.order = this.order.slice(this.head)
      this.head = 0
    }
    return html
  }
}

const memo = new RenderMemo(8_000_000)

// ---- the pipeline ------------------------------------------------------------------------------

/** libxml2's escaping of a text node (`&`, `<`, `>`; quotes and U+00A0 stay). */
function escapeText(text: string): string {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const entity = c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : c === 0x3e ? '&gt;' : null
    if (entity) {
      out += text.slice(last, i) + entity
      last = i + 1
    }
  }
  return last === 0 ? text : out + text.slice(last)
}

/** libxml2's escaping of an attribute value: `&`, `<`, `>` and `"`. */
function escapeAttribute(text: string): string {
  return escapeText(text).replaceAll('"', '&quot;')
}

const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a
const isSchemeChar = (c: number): boolean => isLower(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d
/** Ruby's `\s`: space, tab, line feed, vertical tab, form feed, carriage return. */
const isRubySpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d)
/** `(?<!\?|!|\.|,|:)`: characters a link may not end with. */
const isTrailingPunctuation = (c: number): boolean => c === 0x3f || c === 0x21 || c === 0x2e || c === 0x2c || c === 0x3a

/**
 * The next match of `LINK_PATTERN` = `([a-z][a-z0-9\+\.-]+://[^\s>]+)(?<!\?|!|\.|,|:)` at or after
 * `from`, as Ruby's leftmost-first search finds it, or null.
 */
function nextLink(text: string, from: number): [number, number] | null {
  let colon = text.indexOf('://', from)
  while (colon >= 0) {
    // The scheme is the run of scheme characters before `://`, starting at its first lower-case
    // letter, with at least one character after that letter.
    let runStart = colon
    while (runStart > from && isSchemeChar(text.charCodeAt(runStart - 1))) runStart--
    let start = runStart
    while (start < colon - 1 && !isLower(text.charCodeAt(start))) start++
    if (start < colon - 1) {
      let end = colon + 3
      while (end < text.length) {
        const c = text.charCodeAt(end)
        if (isRubySpace(c) || c === 0x3e) break
        end++
      }
      while (end > colon + 3 && isTrailingPunctuation(text.charCodeAt(end - 1))) end--
      if (end > colon + 3) return [start, end]
    }
    colon = text.indexOf('://', colon + 1)
  }
  return null
}

/** `Gitlab::Utils::SanitizeNodeLink#safe_protocol?`: not `data`, `javascript` or `vbscript`. */
function safeProtocol(scheme: string): boolean {
  const cleaned = scheme.toLowerCase().replace(/[^a-z+.-]+/g, '')
  return cleaned !== 'data' && cleaned !== 'javascript' && cleaned !== 'vbscript'
}

/** Closing punctuation → its opening partner (`AutolinkFilter::PUNCTUATION_PAIRS`). */
const PUNCTUATION_PAIRS: ReadonlyMap<string, string> = new Map([
  ["'", "'"],
  ['"', '"'],
  [')', '('],
  [']', '['],
  ['}', '{'],
])

const count = (text: string, char: string): number => text.split(char).length - 1

/** Addressable's character classes (`Addressable::URI::CharacterClasses`), as sets of ASCII characters. */
const UNRESERVED = 'A-Za-z0-9\\-._~'
const SUB_DELIMS = "!$&'()*+,;="
const PCHAR = `${UNRESERVED}${SUB_DELIMS}:@`
const NOT_IN = {
  scheme: new RegExp(`[^A-Za-z0-9\\-+.]`, 'gu'),
  authority: new RegExp(`[^${PCHAR}\\[\\]]`, 'gu'),
  path: new RegExp(`[^${PCHAR}/]`, 'gu'),
  query: new RegExp(`[^${PCHAR}/?]`, 'gu'),
}

const percentEncode = (char: string): string =>
  [...new TextEncoder().encode(char)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')

/**
 * `Addressable::URI.encode`: each component percent-encoded with its character class (so `%`
 * itself becomes `%25`, and non-ASCII characters their UTF-8 bytes).
 */
function addressableEncode(url: string, schemeEnd: number): string {
  const scheme = url.slice(0, schemeEnd)
  let rest = url.slice(schemeEnd + 3)
  const hash = rest.indexOf('#')
  const fragment = hash < 0 ? null : rest.slice(hash + 1)
  if (hash >= 0) rest = rest.slice(0, hash)
  const question = rest.indexOf('?')
  const query = question < 0 ? null : rest.slice(question + 1)
  if (question >= 0) rest = rest.slice(0, question)
  const slash = rest.indexOf('/')
  const authority = slash < 0 ? rest : rest.slice(0, slash)
  const path = slash < 0 ? '' : rest.slice(slash)
  let out = `${scheme.replace(NOT_IN.scheme, percentEncode)}://${authority.replace(NOT_IN.authority, percentEncode)}`
  out += path.replace(NOT_IN.path, percentEncode)
  if (query !== null) out += `?${query.replace(NOT_IN.query, percentEncode)}`
  if (fragment !== null) out += `#${fragment.replace(NOT_IN.query, percentEncode)}`
  return out
}

/** The host part of an encoded URL's authority (no user info, no port), lower-cased. */
function hostOf(href: string, schemeEnd: number): string {
  const rest = href.slice(schemeEnd + 3)
  let authority = rest
  for (const stop of ['/', '?', '#']) {
    const i = authority.indexOf(stop)
    if (i >= 0) authority = authority.slice(0, i)
  }
  const at = authority.lastIndexOf('@')
  if (at >= 0) authority = authority.slice(at + 1)
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.split(':')[0]!
  return host.toLowerCase()
}

/**
 * `AutolinkFilter#autolink_match` followed by `ExternalLinkFilter`: the link element for a raw URL,
 * plus whatever trailing characters were left outside it.
 */
function linkHtml(url: string, internalHost: string): string {
  const schemeEnd = url.indexOf('://')
  if (!safeProtocol(url.slice(0, schemeEnd))) return escapeText(url)
  // Trailing `&` and `<` (HTML entities in the escaped text GitLab matches on) stay outside.
  let end = url.length
  while (end > schemeEnd + 3 && (url[end - 1] === '&' || url[end - 1] === '<')) end--
  let link = url.slice(0, end)
  let dropped = url.slice(end)
  const last = link[link.length - 1] ?? ''
  const open = PUNCTUATION_PAIRS.get(last)
  if (open !== undefined && (open === last || count(link, open) !== count(link, last))) {
    dropped = last + dropped
    link = link.slice(0, -1)
  }
  const href = addressableEncode(link, schemeEnd)
  const scheme = link.slice(0, schemeEnd)
  const external = (scheme === 'http' || scheme === 'https') && hostOf(href, schemeEnd) !== internalHost
  const attrs = external ? ' rel="nofollow noreferrer noopener" target="_blank"' : ''
  return `<a href="${escapeAttribute(href)}"${attrs}>${escapeText(link)}</a>${escapeText(dropped)}`
}

function render(text: string, internalHost: string): string {
  let out = ''
  let pos = 0
  for (let match = nextLink(text, 0); match; match = nextLink(text, pos)) {
    const [start, end] = match
    out += escapeText(text.slice(pos, start)) + linkHtml(text.slice(start, end), internalHost)
    pos = end
  }
  return out + escapeText(text.slice(pos))
}
