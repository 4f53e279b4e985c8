/**
 * `CGI.unescapeHTML(Sanitize.clean(value))`: how GitLab models store user text that must not carry
 * HTML (label titles and descriptions, milestone titles). Elements are removed with their text
 * kept, except elements whose contents go too (`script`, `style`, ...); block elements become a
 * space (Sanitize's `whitespace_elements`); comments are dropped; character references decoded.
 * spec-gap: Sanitize is an HTML5 parser; these patterns agree with it on ordinary input such as
 * `foo & bar 1.1 -> 2.2` or `<b>v3</b>`.
 * Source: gitlab: app/models/label.rb `sanitize_value`, app/models/concerns/timebox.rb `sanitize_title`.
 * @module
 */

/** Elements Sanitize drops with everything inside them (an unclosed one runs to the end). */
const DROPPED_ELEMENTS = /<(script|style|iframe|math|noembed|noframes|noscript|plaintext|svg|xmp)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi
/** Elements Sanitize replaces with whitespace (`whitespace_elements`). */
const WHITESPACE_ELEMENTS = /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|footer|h[1-6]|header|hgroup|hr|li|nav|ol|p|pre|section|ul)\b[^>]*>/gi
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** Removes HTML from `value` and decodes character references; whitespace is not stripped. */
export function sanitizeHtml(value: string): string {
  return value
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(DROPPED_ELEMENTS, '')
    .replace(WHITESPACE_ELEMENTS, ' ')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);/g, (whole, ref: string) => {
      if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16))
      if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10))
      return ENTITIES[ref.toLowerCase()] ?? whole
    })
}
