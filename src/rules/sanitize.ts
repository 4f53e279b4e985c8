/**
 * `CGI.unescapeHTML(Sanitize.clean(value))`: how GitLab models store user text that must not carry
 * HTML (label titles and descriptions, milestone titles).
 *
 * What the Ruby pipeline does, step by step (sanitize 5.2.1 with its default config, on Nokogumbo
 * 2.0, in GitLab 13.x):
 * 1. `preprocess` removes C0/C1 control characters other than tab, line feed, form feed and
 *    carriage return, and the Unicode noncharacters, from the raw text.
 * 2. Nokogumbo parses the rest as an HTML5 fragment (body context), decoding character references
 *    in text: `&#0;`, surrogates and references above U+10FFFF become U+FFFD, `&#128;`–`&#159;`
 *    follow windows-1252 (`&#128;` → `€`), legacy names work without `;` (`&amp`, `&copy`,
 *    `&notit;` → `¬it;`), unknown names (`&foo;`, `&constructor;`) stay text. Line breaks are
 *    normalised and NUL dropped.
 * 3. Sanitize removes every element (none is allowed): `iframe, math, noembed, noframes, noscript,
 *    plaintext, script, style, svg, xmp` with their content, the others keeping their content.
 *    An element of `whitespace_elements` (`address, article, aside, blockquote, br, dd, div, dl, dt,
 *    footer, h1–h6, header, hgroup, hr, li, nav, ol, p, pre, section, ul`) leaves a space before
 *    it, and one after it when it had any child node. Comments, DOCTYPEs and processing
 *    instructions go.
 * 4. Nokogumbo serialises the text, escaping `&`, `<`, `>` and U+00A0 (as `&nbsp;`).
 * 5. `CGI.unescapeHTML` decodes `&amp;`, `&lt;`, `&gt;` (and `&quot;`, `&apos;`, numeric
 *    references, none of which step 4 writes). It does not know `&nbsp;`.
 * So steps 4–5 give the text back unchanged except that every U+00A0 becomes the six characters
 * `&nbsp;`, and CGI never sees a reference the client wrote: `&amp;#99999999;` is stored as
 * `&#99999999;`, `&#99999999;` as U+FFFD.
 *
 * Runs in linear time (see rules/html5.ts). Whitespace is not stripped here; callers strip titles.
 * spec-gap: Nokogumbo refuses a fragment nested more than 400 elements deep (`ArgumentError:
 * Document tree depth limit exceeded`, a 500 in GitLab); fakelab never answers 500 for input, so
 * such text is cleaned like any other.
 * Source: gitlab: app/models/label.rb `sanitize_value`, app/models/concerns/timebox.rb
 * `sanitize_title`; sanitize 5.2.1 lib/sanitize.rb, lib/sanitize/config/default.rb,
 * lib/sanitize/transformers/clean_element.rb; nokogumbo 2.0.2 lib/nokogumbo/html5.rb `escape_text`.
 * @module
 */
import { Ns, parseFragment, type FragmentHandler, type Namespace } from './html5.js'

/** Elements Sanitize removes together with their content (`remove_contents` of the default config). */
const REMOVE_CONTENTS: ReadonlySet<string> = new Set([
  'iframe', 'math', 'noembed', 'noframes', 'noscript', 'plaintext', 'script', 'style', 'svg', 'xmp',
])

/** Sanitize's `whitespace_elements`: each becomes `' '` before and (when it had children) after. */
const WHITESPACE_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'footer', 'h1', 'h2', 'h3', 'h4',
  'h5', 'h6', 'header', 'hgroup', 'hr', 'li', 'nav', 'ol', 'p', 'pre', 'section', 'ul',
])

/**
 * Collects the text Sanitize keeps. `dropped` counts the open elements inside (and including) the
 * outermost element whose content is removed.
 */
class CleanText implements FragmentHandler {
  private readonly parts: string[] = []
  private dropped = 0

  open(name: string, ns: Namespace): void {
    if (this.dropped > 0 || REMOVE_CONTENTS.has(name) || ns !== Ns.HTML) {
      this.dropped++
      return
    }
    if (WHITESPACE_ELEMENTS.has(name)) this.parts.push(' ')
  }

  close(name: string, ns: Namespace, hadChild: boolean): void {
    if (this.dropped > 0) {
      this.dropped--
      return
    }
    if (ns === Ns.HTML && hadChild && WHITESPACE_ELEMENTS.has(name)) this.parts.push(' ')
  }

  text(data: string): void {
    if (this.dropped === 0) this.parts.push(data)
  }

  result(): string {
    return this.parts.join('')
  }
}

/**
 * What GitLab stores for `value` after `CGI.unescapeHTML(Sanitize.clean(value))`: markup removed,
 * character references decoded, U+00A0 written as `&nbsp;`. Surrounding whitespace is kept.
 * Never throws, for any string (a reference above U+10FFFF becomes U+FFFD).
 * @example sanitizeHtml('x&#99999999;') // 'x\uFFFD'
 * @example sanitizeHtml('<p>a</p>b') // ' a b'
 */
export function sanitizeHtml(value: string): string {
  // Fast path: without `<` and `&` there is no markup and no reference; only the input-stream
  // preprocessing could change the text.
  if (!/[<&\0\r\u0001-\u0008\u000b\u000e-\u001f\u007f-\u00a0\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]/.test(value)) return value
  const clean = new CleanText()
  parseFragment(value, clean)
  return clean.result().replaceAll('\u00a0', '&nbsp;')
}
