/**
 * `CGI.unescapeHTML(Sanitize.clean(value))`: how GitLab models store user text that must not carry
 * HTML (label titles and descriptions, milestone titles).
 *
 * What the Ruby pipeline does, step by step (sanitize 5.2.1 with its default config, on Nokogumbo
 * 2.0, in GitLab 13.x):
 * 1. `preprocess` removes C0/C1 control characters other than tab, line feed, form feed and
 *    carriage return, and the Unicode noncharacters, from the raw text.
 * 2. Nokogumbo parses the rest as an HTML5 fragment (body context) with the full WHATWG tree
 *    construction: text found directly inside table structure is foster-parented before the table,
 *    misnested formatting elements go through the adoption agency, `<select>` keeps only options.
 *    Character references in text are decoded: `&#0;`, surrogates and references above U+10FFFF
 *    become U+FFFD, `&#128;`–`&#159;` follow windows-1252 (`&#128;` → `€`), legacy names work
 *    without `;` (`&amp`, `&copy`, `&notit;` → `¬it;`), unknown names (`&foo;`, `&constructor;`)
 *    stay text. Line breaks are normalised and NUL dropped.
 * 3. Sanitize walks the tree in document order and removes every element (none is allowed):
 *    `iframe, math, noembed, noframes, noscript, plaintext, script, style, svg, xmp` with their
 *    content, the others keeping their content. An element of `whitespace_elements` (`address,
 *    article, aside, blockquote, br, dd, div, dl, dt, footer, h1–h6, header, hgroup, hr, li, nav,
 *    ol, p, pre, section, ul`) leaves a space before it, and one after it when it had any child
 *    node. Comments, DOCTYPEs and processing instructions go.
 * 4. Nokogumbo serialises the text, escaping `&`, `<`, `>` and U+00A0 (as `&nbsp;`).
 * 5. `CGI.unescapeHTML` decodes `&amp;`, `&lt;`, `&gt;` (and `&quot;`, `&apos;`, numeric
 *    references, none of which step 4 writes). It does not know `&nbsp;`.
 * So steps 4–5 give the text back unchanged except that every U+00A0 becomes the six characters
 * `&nbsp;`, and CGI never sees a reference the client wrote: `&amp;#99999999;` is stored as
 * `&#99999999;`, `&#99999999;` as U+FFFD.
 *
 * Step 2 is parse5 (the WHATWG parser jsdom uses; gumbo, under Nokogumbo, implements the same
 * algorithm), in the body context and with scripting off, as gumbo parses (`<noscript>` content is
 * markup). Steps 1, 3 and 4–5 are ours. Text without `<` and `&` has no markup and no reference,
 * so it never reaches parse5: the CLI bundle loads parse5 only for the first text that does
 * (scripts/build-cli.mjs).
 *
 * Runs in linear time: parse5's tree construction answers its stack questions from indexes, and
 * the walk below visits each node once, without recursion. Whitespace is not stripped here;
 * callers strip titles.
 * spec-gap: Nokogumbo refuses a fragment nested more than 400 elements deep (`ArgumentError:
 * Document tree depth limit exceeded`, a 500 in GitLab); fakelab never answers 500 for input, so
 * such text is cleaned like any other.
 * Source: gitlab: app/models/label.rb `sanitize_value`, app/models/concerns/timebox.rb
 * `sanitize_title`; sanitize 5.2.1 lib/sanitize.rb (`preprocess`, `REGEX_UNSUITABLE_CHARS`,
 * `node!`, `traverse`), lib/sanitize/config/default.rb, lib/sanitize/transformers/clean_element.rb;
 * nokogumbo 2.0.2 lib/nokogumbo/html5.rb `escape_text`; WHATWG HTML §13.2.6 "Tree construction".
 * @module
 */
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5'

type Element = DefaultTreeAdapterTypes.Element
type ChildNode = DefaultTreeAdapterTypes.ChildNode

/** The HTML namespace, as parse5 writes it on HTML elements. */
const HTML_NS = 'http://www.w3.org/1999/xhtml'

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
 * Characters Sanitize removes before parsing (`REGEX_UNSUITABLE_CHARS`: C0/C1 controls other than
 * tab, line feed, form feed and carriage return, and the Unicode noncharacters). NUL stays: the
 * parser drops it from text itself.
 */
const UNSUITABLE = /[\u0001-\u0008\u000b\u000e-\u001f\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff\u{1fffe}\u{1ffff}\u{2fffe}\u{2ffff}\u{3fffe}\u{3ffff}\u{4fffe}\u{4ffff}\u{5fffe}\u{5ffff}\u{6fffe}\u{6ffff}\u{7fffe}\u{7ffff}\u{8fffe}\u{8ffff}\u{9fffe}\u{9ffff}\u{afffe}\u{affff}\u{bfffe}\u{bffff}\u{cfffe}\u{cffff}\u{dfffe}\u{dffff}\u{efffe}\u{effff}\u{ffffe}\u{fffff}\u{10fffe}\u{10ffff}]/gu

/** A UTF-16 surrogate that is not part of a pair (`String#toWellFormed`, not in every runtime yet). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * The input as the parser sees it: Sanitize's unsuitable characters removed, lone surrogates
 * (which a UTF-8 string cannot hold) replaced by U+FFFD, and line breaks normalised (`\r\n` and
 * `\r` become `\n`, the HTML input stream preprocessing).
 */
function preprocess(input: string): string {
  return input.replace(LONE_SURROGATE, '\ufffd').replace(UNSUITABLE, '').replace(/\r\n?/g, '\n')
}

/**
 * The fragment context: `Nokogiri::HTML5.fragment` parses in a `<body>`, where parse5 would
 * otherwise use a `<template>` (which, unlike a body, accepts `<tr>` and `<td>` at the top).
 * parse5 only reads its tag name and namespace.
 */
const BODY_CONTEXT = { nodeName: 'body', tagName: 'body', attrs: [], namespaceURI: HTML_NS, childNodes: [], parentNode: null } as unknown as Element

/** A node's children in the tree Sanitize walks: a `<template>`'s are its content's, as in gumbo. */
function childrenOf(element: Element): ChildNode[] {
  return 'content' in element ? (element as DefaultTreeAdapterTypes.Template).content.childNodes : element.childNodes
}

/** An element being walked: its children, the next one to visit, and the element itself. */
interface Frame {
  readonly nodes: ChildNode[]
  next: number
  readonly element: Element | null
}

/**
 * The text Sanitize keeps of a parsed fragment (step 3): a pre-order walk, as Sanitize's
 * `traverse` does, with an explicit stack so that deep nesting cannot overflow the call stack.
 */
function cleanText(nodes: ChildNode[]): string {
  const parts: string[] = []
  const stack: Frame[] = [{ nodes, next: 0, element: null }]
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    if (frame.next === frame.nodes.length) {
      stack.pop()
      const element = frame.element
      // `unless node.children.empty?`: any child node counts, a comment or an element dropped later too.
      if (element && frame.nodes.length > 0 && WHITESPACE_ELEMENTS.has(element.tagName)) parts.push(' ')
      continue
    }
    const node = frame.nodes[frame.next++]!
    if (node.nodeName === '#text') {
      parts.push((node as DefaultTreeAdapterTypes.TextNode).value)
    } else if ('tagName' in node) {
      // SVG and MathML elements only occur inside `svg` and `math`, whose content goes.
      if (node.namespaceURI !== HTML_NS || REMOVE_CONTENTS.has(node.tagName)) continue
      if (WHITESPACE_ELEMENTS.has(node.tagName)) parts.push(' ')
      stack.push({ nodes: childrenOf(node), next: 0, element: node })
    }
  }
  return parts.join('')
}

/**
 * What GitLab stores for `value` after `CGI.unescapeHTML(Sanitize.clean(value))`: markup removed,
 * character references decoded, U+00A0 written as `&nbsp;`. Surrounding whitespace is kept.
 * Never throws, for any string (a reference above U+10FFFF becomes U+FFFD).
 * @example sanitizeHtml('x&#99999999;') // 'x\uFFFD'
 * @example sanitizeHtml('<p>a</p>b') // ' a b'
 * @example sanitizeHtml('<table><tr><td>a</td></tr>b</table>') // 'ba' (foster parenting)
 */
export function sanitizeHtml(value: string): string {
  // Fast path: nothing that parsing or preprocessing would change.
  if (!/[<&\0\r\u0001-\u0008\u000b\u000e-\u001f\u007f-\u00a0\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]/.test(value)) return value
  const input = preprocess(value)
  // Without `<` and `&` the whole text is one run of character data in the body, where the tree
  // builder ignores NUL: no need to load the parser.
  const text =
    !input.includes('<') && !input.includes('&')
      ? input.replaceAll('\0', '')
      : cleanText(parseFragment(BODY_CONTEXT, input, { scriptingEnabled: false }).childNodes)
  return text.replaceAll('\u00a0', '&nbsp;')
}
