/**
 * A linear-time HTML5 fragment reader: the WHATWG tokenizer and the part of tree construction
 * that decides which text lands in which element, for a fragment parsed in a `<body>` context (what
 * `Nokogiri::HTML5.fragment`, and so Ruby's Sanitize, does with user text). It builds no tree: it
 * reports element starts and ends (with whether the element got any child node) and decoded text,
 * in document order, to a {@link FragmentHandler}.
 *
 * Why our own tokenizer: htmlparser2's `Parser` keeps its stack with `unshift`/`indexOf` (quadratic
 * on deep nesting), its `Tokenizer` can only be imported through an entry that also loads
 * domhandler and domutils (about 30 ms of cold start), and it parts from the HTML5 tokenizer where
 * gumbo (Sanitize's parser) follows it: `<![CDATA[` in HTML content, and the script-data escape
 * states (`<script><!--<script></script>x</script>` ends at the second `</script>`). Character
 * references are decoded by the `entities` package, whose HTML5 decoder matches gumbo's (U+FFFD for
 * `&#0;`, surrogates and references above U+10FFFF, the windows-1252 table for 0x80–0x9F, legacy
 * names without `;`, unknown names kept as text).
 *
 * Linear time: every scan moves forward and never revisits input, and every question about the
 * stack of open elements ("is there a `p` in button scope?", "where is the nearest special
 * element?") is answered in O(1) from per-name and per-category position stacks instead of a walk.
 *
 * Follows gumbo as vendored in Nokogumbo 2.0 (GitLab 13.x: sanitize 5.2.1, nokogumbo ~> 2.0) and the
 * WHATWG "in body" and "in foreign content" insertion modes, checked against Sanitize 6.0 on
 * Nokogiri 1.13 (the same gumbo). spec-gap: the table insertion modes (foster parenting moves text
 * found directly inside `<table>` before the table), the `<select>` modes, the adoption agency
 * algorithm and the reconstruction of active formatting elements are not modelled: table and select
 * elements are read like any other element, and a misnested formatting end tag is handled by the
 * "any other end tag" rule. These change which element holds a text node only in malformed
 * markup, and change the stored text only for text directly inside table structure.
 * @module
 */
import { decodeHTML } from 'entities/decode'

/** Namespaces of elements. */
export const Ns = { HTML: 0, SVG: 1, MATHML: 2 } as const
/** One of {@link Ns}. */
export type Namespace = (typeof Ns)[keyof typeof Ns]

/** What a fragment reader reports, in document order. Text is already decoded. */
export interface FragmentHandler {
  /** An element was inserted (as a child of the element last opened and not yet closed). */
  open(name: string, ns: Namespace): void
  /**
   * The element opened last and not yet closed ends. `hadChild` tells whether any node (element,
   * text or comment) was inserted into it.
   */
  close(name: string, ns: Namespace, hadChild: boolean): void
  /** Character data inserted into the current element. Never empty. */
  text(data: string): void
}

// ---- element categories (WHATWG "special", scopes, implied end tags) -------------------------

const set = (names: string): ReadonlySet<string> => new Set(names.split(' '))

const SPECIAL = set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup ' +
    'dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head ' +
    'header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes ' +
    'noscript object ol p param plaintext pre script section select source style summary table tbody td template ' +
    'textarea tfoot th thead title tr track ul wbr xmp',
)
const DEFAULT_SCOPE = set('applet caption html table td th marquee object template')
const MATHML_TEXT_INTEGRATION = set('mi mo mn ms mtext')
const SVG_HTML_INTEGRATION = set('foreignobject desc title')
const HEADINGS = set('h1 h2 h3 h4 h5 h6')
const IMPLIED_END = set('dd dt li optgroup option p rb rp rt rtc')
const VOID = set('area base basefont bgsound br col embed hr img input keygen link meta param source track wbr frame')
/** Start tags that close an open `p` in button scope before inserting themselves. */
const CLOSES_P = set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup ' +
    'main menu nav ol p section summary ul',
)
/** End tags that close the element with that name when it is in scope. */
const BLOCK_END = set(
  'address article aside blockquote button center details dialog dir div dl fieldset figcaption figure footer form ' +
    'header hgroup listing main menu nav ol pre section summary ul applet marquee object',
)
/** Start tags ignored in body (table parts outside a table, document-level elements). */
const IGNORED_IN_BODY = set('caption col colgroup frame head tbody td tfoot th thead tr html body frameset')
/** Start tags that the "in template" mode hands to the "in head" rules without leaving it. */
const IN_HEAD_IN_TEMPLATE = set('base basefont bgsound link meta noframes script style template title')
/** Start tags that break out of SVG and MathML content. */
const BREAKOUT = set(
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta ' +
    'nobr ol p pre ruby s small span strong strike sub sup table tt u ul var',
)

/** How the tokenizer reads what follows a start tag (the content model it switches to). */
type ContentModel = 'data' | 'rcdata' | 'rawtext' | 'script' | 'plaintext'

// Category bits of an open element; each bit has a position stack in the builder.
const C_SPECIAL = 1
const C_SPECIAL_NOT_ADP = 2 // special, except address, div and p (the li/dd/dt walk)
const C_SCOPE = 4 // default scope boundary
const C_LIST_SCOPE = 8 // list item scope boundary
const C_BUTTON_SCOPE = 16 // button scope boundary
const C_HEADING = 32
const C_HTML = 64 // an element in the HTML namespace
const C_HTML_OR_INTEGRATION = 128 // HTML, or an HTML / MathML text integration point (where breakout stops)
const CATEGORY_COUNT = 8
/** Index of a category bit in the builder's position stacks. */
const slot = (bit: number): number => 31 - Math.clz32(bit)

function categories(name: string, ns: Namespace, integration: boolean): number {
  let bits = 0
  if (ns === Ns.HTML) {
    bits |= C_HTML | C_HTML_OR_INTEGRATION
    if (SPECIAL.has(name)) bits |= C_SPECIAL | (name === 'address' || name === 'div' || name === 'p' ? 0 : C_SPECIAL_NOT_ADP)
    if (DEFAULT_SCOPE.has(name)) bits |= C_SCOPE | C_LIST_SCOPE | C_BUTTON_SCOPE
    if (name === 'ol' || name === 'ul') bits |= C_LIST_SCOPE
    if (name === 'button') bits |= C_BUTTON_SCOPE
    if (HEADINGS.has(name)) bits |= C_HEADING
  } else if (
    (ns === Ns.MATHML && (MATHML_TEXT_INTEGRATION.has(name) || name === 'annotation-xml')) ||
    (ns === Ns.SVG && SVG_HTML_INTEGRATION.has(name))
  ) {
    // These foreign elements are special and bound every scope (WHATWG "has an element in scope").
    bits |= C_SPECIAL | C_SPECIAL_NOT_ADP | C_SCOPE | C_LIST_SCOPE | C_BUTTON_SCOPE
  }
  if (integration) bits |= C_HTML_OR_INTEGRATION
  return bits
}

/**
 * The stack of open elements with O(1) scope questions. Position 0 is the fragment's `html` root,
 * which is never reported.
 */
class TreeBuilder {
  private readonly names: string[] = []
  private readonly nss: Namespace[] = []
  private readonly bits: number[] = []
  private readonly hadChild: boolean[] = []
  /** For a `template`: a start tag inside it has left the "in template" mode. */
  private readonly templateLeft: boolean[] = []
  /** Positions of open elements per category bit (index = bit number). */
  private readonly byCategory: number[][] = Array.from({ length: CATEGORY_COUNT }, () => [])
  /** Positions of open HTML elements per name. */
  private readonly htmlByName = new Map<string, number[]>()
  /** Positions of open SVG/MathML elements per lower-case name. */
  private readonly foreignByName = new Map<string, number[]>()
  /** The next character token is ignored when it is a line feed (after `<pre>`, `<listing>`, `<textarea>`). */
  private skipLineFeed = false

  private readonly handler: FragmentHandler

  constructor(handler: FragmentHandler) {
    this.handler = handler
    this.push('html', Ns.HTML, false, false)
  }

  private get top(): number {
    return this.names.length - 1
  }

  private push(name: string, ns: Namespace, integration: boolean, report = true): void {
    const pos = this.names.length
    if (pos > 0) this.hadChild[pos - 1] = true
    const bits = categories(name, ns, integration)
    this.names.push(name)
    this.nss.push(ns)
    this.bits.push(bits)
    this.hadChild.push(false)
    this.templateLeft.push(false)
    for (let b = 0; b < CATEGORY_COUNT; b++) if (bits & (1 << b)) this.byCategory[b]!.push(pos)
    const index = ns === Ns.HTML ? this.htmlByName : this.foreignByName
    const list = index.get(name)
    if (list) list.push(pos)
    else index.set(name, [pos])
    if (report) this.handler.open(name, ns)
  }

  private pop(): void {
    const pos = this.top
    if (pos <= 0) return
    const name = this.names.pop()!
    const ns = this.nss.pop()!
    const bits = this.bits.pop()!
    const hadChild = this.hadChild.pop()!
    this.templateLeft.pop()
    for (let b = 0; b < CATEGORY_COUNT; b++) if (bits & (1 << b)) this.byCategory[b]!.pop()
    ;(ns === Ns.HTML ? this.htmlByName : this.foreignByName).get(name)!.pop()
    this.handler.close(name, ns, hadChild)
  }

  /** Pops elements until the one at `pos` has been popped. */
  private popTo(pos: number): void {
    while (this.top >= pos && this.top > 0) this.pop()
  }

  private last(list: number[] | undefined): number {
    return list && list.length > 0 ? list[list.length - 1]! : -1
  }

  private lastHtml(name: string): number {
    return this.last(this.htmlByName.get(name))
  }

  private lastOf(bit: number): number {
    return this.last(this.byCategory[slot(bit)])
  }

  private inScope(name: string, scopeBit: number): boolean {
    return this.lastHtml(name) > this.lastOf(scopeBit)
  }

  private currentIs(name: string): boolean {
    return this.nss[this.top] === Ns.HTML && this.names[this.top] === name
  }

  private generateImpliedEndTags(except?: string): void {
    while (this.top > 0 && this.nss[this.top] === Ns.HTML) {
      const name = this.names[this.top]!
      if (name === except || !IMPLIED_END.has(name)) return
      this.pop()
    }
  }

  private closePInButtonScope(): void {
    if (this.inScope('p', C_BUTTON_SCOPE)) this.closeElement('p', 'p')
  }

  /** Generates implied end tags (except `except`) and pops until the nearest `name` is popped. */
  private closeElement(name: string, except?: string): void {
    this.generateImpliedEndTags(except)
    this.popTo(this.lastHtml(name))
  }

  /** Closes a `p` in button scope, then inserts `name`; the tokenizer continues in `model`. */
  private insertBlock(name: string, model: ContentModel): ContentModel {
    this.closePInButtonScope()
    this.push(name, Ns.HTML, false)
    return model
  }

  /** Whether the adjusted current node is not an HTML element (CDATA sections are allowed there). */
  inForeignContent(): boolean {
    return this.nss[this.top] !== Ns.HTML
  }

  /** Whether a start tag is processed by the "in body" rules rather than "in foreign content". */
  private startTagIsHtml(name: string): boolean {
    const ns = this.nss[this.top]!
    if (ns === Ns.HTML) return true
    const current = this.names[this.top]!
    if (ns === Ns.MATHML && MATHML_TEXT_INTEGRATION.has(current)) return name !== 'mglyph' && name !== 'malignmark'
    if (ns === Ns.MATHML && current === 'annotation-xml' && name === 'svg') return true
    return (this.bits[this.top]! & C_HTML_OR_INTEGRATION) !== 0
  }

  text(data: string): void {
    if (this.skipLineFeed) {
      this.skipLineFeed = false
      if (data.startsWith('\n')) data = data.slice(1)
    }
    if (data === '') return
    this.hadChild[this.top] = true
    this.handler.text(data)
  }

  comment(): void {
    this.skipLineFeed = false
    this.hadChild[this.top] = true
  }

  /** A start tag token; returns the content model the tokenizer continues in. */
  startTag(name: string, attrs: Map<string, string>, selfClosing: boolean): ContentModel {
    this.skipLineFeed = false
    if (!this.startTagIsHtml(name)) {
      const breakout = BREAKOUT.has(name) || (name === 'font' && (attrs.has('color') || attrs.has('face') || attrs.has('size')))
      if (!breakout) return this.insertForeign(name, this.nss[this.top]!, attrs, selfClosing)
      while (this.top > 0 && !(this.bits[this.top]! & C_HTML_OR_INTEGRATION)) this.pop()
    }
    if (this.currentIs('template') && !IN_HEAD_IN_TEMPLATE.has(name)) this.templateLeft[this.top] = true
    if (this.inSelect()) return this.startTagInSelect(name, attrs, selfClosing)
    return this.startTagInBody(name, attrs, selfClosing)
  }

  /** "in select": a select is open and no template was opened inside it. */
  private inSelect(): boolean {
    const select = this.lastHtml('select')
    return select > 0 && select > this.lastHtml('template')
  }

  private insertForeign(name: string, ns: Namespace, attrs: Map<string, string>, selfClosing: boolean): ContentModel {
    const integration =
      ns === Ns.MATHML
        ? MATHML_TEXT_INTEGRATION.has(name) || (name === 'annotation-xml' && isHtmlEncoding(attrs.get('encoding')))
        : SVG_HTML_INTEGRATION.has(name)
    this.push(name, ns, integration)
    if (selfClosing) this.pop()
    return 'data'
  }

  /**
   * The "in select" insertion mode: only option, optgroup and script-like elements are inserted;
   * other start tags are ignored, and select, input, keygen and textarea close the select first.
   */
  private startTagInSelect(name: string, attrs: Map<string, string>, selfClosing: boolean): ContentModel {
    switch (name) {
      case 'option':
        if (this.currentIs('option')) this.pop()
        this.push(name, Ns.HTML, false)
        return 'data'
      case 'optgroup':
        if (this.currentIs('option')) this.pop()
        if (this.currentIs('optgroup')) this.pop()
        this.push(name, Ns.HTML, false)
        return 'data'
      case 'select':
        this.popTo(this.lastHtml('select'))
        return 'data'
      case 'input':
      case 'keygen':
      case 'textarea':
        this.popTo(this.lastHtml('select'))
        return this.startTagInBody(name, attrs, selfClosing)
      case 'script':
      case 'template':
        return this.startTagInBody(name, attrs, selfClosing)
      default:
        return 'data'
    }
  }

  private endTagInSelect(name: string): void {
    if (name === 'optgroup') {
      if (this.currentIs('option') && this.names[this.top - 1] === 'optgroup') this.pop()
      if (this.currentIs('optgroup')) this.pop()
    } else if (name === 'option') {
      if (this.currentIs('option')) this.pop()
    } else if (name === 'select') {
      this.popTo(this.lastHtml('select'))
    } else if (name === 'script' || name === 'template') {
      this.endTagInBody(name)
    }
  }

  private startTagInBody(name: string, attrs: Map<string, string>, selfClosing: boolean): ContentModel {
    if (IGNORED_IN_BODY.has(name)) return 'data'
    if (CLOSES_P.has(name)) return this.insertBlock(name, 'data')
    if (HEADINGS.has(name)) {
      this.closePInButtonScope()
      if (this.bits[this.top]! & C_HEADING && this.nss[this.top] === Ns.HTML) this.pop()
      this.push(name, Ns.HTML, false)
      return 'data'
    }
    switch (name) {
      case 'pre':
      case 'listing':
        this.skipLineFeed = true
        return this.insertBlock(name, 'data')
      case 'form':
        // The form element pointer: a form inside a form is ignored (outside templates).
        if (this.lastHtml('form') > 0 && this.lastHtml('template') < 0) return 'data'
        return this.insertBlock(name, 'data')
      case 'li':
      case 'dd':
      case 'dt': {
        const closes = name === 'li' ? ['li'] : ['dd', 'dt']
        const boundary = this.lastOf(C_SPECIAL_NOT_ADP)
        // WHATWG: walk up from the current node to the nearest li (dd/dt), stopping at a special
        // element other than address, div and p.
        let target = -1
        for (const n of closes) target = Math.max(target, this.lastHtml(n))
        if (target >= 0 && target >= boundary) {
          this.generateImpliedEndTags(this.names[target])
          this.popTo(target)
        }
        return this.insertBlock(name, 'data')
      }
      case 'plaintext':
        return this.insertBlock(name, 'plaintext')
      case 'button':
        if (this.inScope('button', C_SCOPE)) this.closeElement('button')
        this.push(name, Ns.HTML, false)
        return 'data'
      case 'hr':
        this.closePInButtonScope()
        this.insertVoid(name)
        return 'data'
      case 'image':
        this.insertVoid('img')
        return 'data'
      case 'textarea':
        this.push(name, Ns.HTML, false)
        this.skipLineFeed = true
        return 'rcdata'
      case 'title':
        this.push(name, Ns.HTML, false)
        return 'rcdata'
      case 'xmp':
        return this.insertBlock(name, 'rawtext')
      case 'iframe':
      case 'noembed':
      case 'noframes':
      case 'style':
        this.push(name, Ns.HTML, false)
        return 'rawtext'
      case 'script':
        this.push(name, Ns.HTML, false)
        return 'script'
      case 'optgroup':
      case 'option':
        if (this.currentIs('option')) this.pop()
        this.push(name, Ns.HTML, false)
        return 'data'
      case 'math':
        return this.insertForeign(name, Ns.MATHML, attrs, selfClosing)
      case 'svg':
        return this.insertForeign(name, Ns.SVG, attrs, selfClosing)
    }
    if (VOID.has(name)) this.insertVoid(name)
    else this.push(name, Ns.HTML, false)
    return 'data'
  }

  private insertVoid(name: string): void {
    this.push(name, Ns.HTML, false)
    this.pop()
  }

  /** An end tag token. */
  endTag(name: string): void {
    this.skipLineFeed = false
    if (this.nss[this.top] !== Ns.HTML) {
      // "in foreign content": `</br>` and `</p>` break out; otherwise close the nearest foreign
      // element of that name above the nearest HTML element, or hand the tag to "in body".
      if (name === 'br' || name === 'p') {
        while (this.top > 0 && !(this.bits[this.top]! & C_HTML_OR_INTEGRATION)) this.pop()
      } else {
        const foreign = this.last(this.foreignByName.get(name))
        if (foreign > this.lastOf(C_HTML)) {
          this.popTo(foreign)
          return
        }
      }
    }
    if (this.inSelect()) this.endTagInSelect(name)
    else this.endTagInBody(name)
  }

  private endTagInBody(name: string): void {
    if (name === 'body' || name === 'html') return // no body element in scope in a fragment
    if (name === 'template') {
      const template = this.lastHtml('template')
      if (template > 0) {
        this.generateImpliedEndTags()
        this.popTo(template)
      }
      return
    }
    // "in template": until a start tag moves the template's content to "in body", other end tags
    // are ignored.
    if (this.currentIs('template') && !this.templateLeft[this.top]) return
    if (name === 'p') {
      if (!this.inScope('p', C_BUTTON_SCOPE)) this.insertVoid('p')
      else this.closePInButtonScope()
      return
    }
    if (name === 'br') {
      this.insertVoid('br')
      return
    }
    if (name === 'li' || name === 'dd' || name === 'dt') {
      if (this.inScope(name, name === 'li' ? C_LIST_SCOPE : C_SCOPE)) this.closeElement(name, name)
      return
    }
    if (HEADINGS.has(name)) {
      const heading = this.lastOf(C_HEADING)
      if (heading <= this.lastOf(C_SCOPE)) return
      this.generateImpliedEndTags()
      this.popTo(heading)
      return
    }
    if (BLOCK_END.has(name)) {
      if (this.inScope(name, C_SCOPE)) this.closeElement(name)
      return
    }
    // "Any other end tag" (and, approximately, the adoption agency algorithm): the nearest open
    // element with that name, unless a special element is nearer.
    const target = this.lastHtml(name)
    if (target <= 0 || target < this.lastOf(C_SPECIAL)) return
    this.generateImpliedEndTags(name)
    this.popTo(target)
  }

  end(): void {
    while (this.top > 0) this.pop()
  }
}

function isHtmlEncoding(value: string | undefined): boolean {
  if (value === undefined) return false
  const encoding = decodeHTML(value).toLowerCase()
  return encoding === 'text/html' || encoding === 'application/xhtml+xml'
}

// ---- tokenizer --------------------------------------------------------------------------------

/**
 * Characters Sanitize removes before parsing (`REGEX_UNSUITABLE_CHARS`: C0/C1 controls other than
 * tab, line feed, form feed and carriage return, and the Unicode noncharacters). NUL stays: the
 * parser drops it from text itself. gitlab: sanitize 5.2.1 lib/sanitize.rb `preprocess`.
 */
const UNSUITABLE = /[\u0001-\u0008\u000b\u000e-\u001f\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff\u{1fffe}\u{1ffff}\u{2fffe}\u{2ffff}\u{3fffe}\u{3ffff}\u{4fffe}\u{4ffff}\u{5fffe}\u{5ffff}\u{6fffe}\u{6ffff}\u{7fffe}\u{7ffff}\u{8fffe}\u{8ffff}\u{9fffe}\u{9ffff}\u{afffe}\u{affff}\u{bfffe}\u{bffff}\u{cfffe}\u{cffff}\u{dfffe}\u{dffff}\u{efffe}\u{effff}\u{ffffe}\u{fffff}\u{10fffe}\u{10ffff}]/gu

/**
 * The input as the parser sees it: Sanitize's unsuitable characters removed, lone surrogates
 * (which a UTF-8 string cannot hold) replaced by U+FFFD, and line breaks normalised (`\r\n` and
 * `\r` become `\n`, the HTML input stream preprocessing).
 */
function preprocess(input: string): string {
  return input.replace(LONE_SURROGATE, '\ufffd').replace(UNSUITABLE, '').replace(/\r\n?/g, '\n')
}

/** A UTF-16 surrogate that is not part of a pair (`String#toWellFormed`, not in every runtime yet). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const isAsciiAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
/** Tab, line feed, form feed, space (carriage returns are gone after preprocessing). */
const isSpace = (c: number): boolean => c === 0x09 || c === 0x0a || c === 0x0c || c === 0x20

/** A parsed tag: its lower-case name, attributes (first wins, values undecoded), self-closing flag and end. */
interface Tag {
  name: string
  attrs: Map<string, string>
  selfClosing: boolean
  /** Index just past the tag's `>`. */
  end: number
}

/** Parses the tag whose name starts at `i`; null when the input ends inside it (the tag is dropped). */
function readTag(s: string, i: number): Tag | null {
  const n = s.length
  let j = i
  while (j < n) {
    const c = s.charCodeAt(j)
    if (isSpace(c) || c === 0x2f || c === 0x3e) break
    j++
  }
  if (j >= n) return null
  let name = toLowerAscii(s.slice(i, j))
  if (name.includes('\0')) name = name.replaceAll('\0', '\ufffd')
  const attrs = new Map<string, string>()
  let selfClosing = false
  while (j < n) {
    const c = s.charCodeAt(j)
    if (isSpace(c)) {
      j++
      continue
    }
    if (c === 0x3e) return { name, attrs, selfClosing, end: j + 1 }
    if (c === 0x2f) {
      j++
      if (s.charCodeAt(j) === 0x3e) selfClosing = true
      continue
    }
    selfClosing = false
    // Attribute name: up to space, `/`, `>` or (after its first character) `=`.
    const nameStart = j
    j++
    while (j < n) {
      const d = s.charCodeAt(j)
      if (isSpace(d) || d === 0x2f || d === 0x3e || d === 0x3d) break
      j++
    }
    const attrName = toLowerAscii(s.slice(nameStart, j))
    while (j < n && isSpace(s.charCodeAt(j))) j++
    let value = ''
    if (s.charCodeAt(j) === 0x3d) {
      j++
      while (j < n && isSpace(s.charCodeAt(j))) j++
      const q = s.charCodeAt(j)
      if (q === 0x22 || q === 0x27) {
        const close = s.indexOf(q === 0x22 ? '"' : "'", j + 1)
        if (close < 0) return null
        value = s.slice(j + 1, close)
        j = close + 1
      } else {
        const start = j
        while (j < n) {
          const d = s.charCodeAt(j)
          if (isSpace(d) || d === 0x3e) break
          j++
        }
        value = s.slice(start, j)
      }
    }
    if (!attrs.has(attrName)) attrs.set(attrName, value)
  }
  return null
}

/** ASCII letters lower-cased, everything else kept (the tokenizer's rule for tag and attribute names). */
function toLowerAscii(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0x41 && c <= 0x5a) return text.replace(/[A-Z]/g, (m) => m.toLowerCase())
  }
  return text
}

/** Index of the first `-->` or `--!>` at or after `from`, and its length; [-1, 0] when none. */
function findCommentEnd(s: string, from: number): [number, number] {
  let i = s.indexOf('--', from)
  while (i >= 0) {
    // Skip a run of dashes: the end is the last two dashes of the run followed by `>` or `!>`.
    let k = i + 2
    while (s.charCodeAt(k) === 0x2d) k++
    if (s.charCodeAt(k) === 0x3e) return [k - 2, 3]
    if (s.charCodeAt(k) === 0x21 && s.charCodeAt(k + 1) === 0x3e) return [k - 2, 4]
    i = s.indexOf('--', k)
  }
  return [-1, 0]
}

/** Whether `s` has an end tag for `name` at `i` (`</name` followed by space, `/` or `>`), ASCII case-insensitively. */
function isEndTagFor(s: string, i: number, name: string): boolean {
  if (s.charCodeAt(i) !== 0x3c || s.charCodeAt(i + 1) !== 0x2f) return false
  const end = i + 2 + name.length
  if (end >= s.length) return false
  if (toLowerAscii(s.slice(i + 2, end)) !== name) return false
  const c = s.charCodeAt(end)
  return isSpace(c) || c === 0x2f || c === 0x3e
}

/** Start of the appropriate end tag for `name` at or after `from`, or -1. */
function findEndTag(s: string, from: number, name: string): number {
  let i = s.indexOf('</', from)
  while (i >= 0) {
    if (isEndTagFor(s, i, name)) return i
    i = s.indexOf('</', i + 2)
  }
  return -1
}

/**
 * Where a `<script>` element's content ends: the start of its `</script` end tag, or -1. Follows
 * the WHATWG script data states: after `<!--` the content is "escaped", where a `<script` start
 * makes it "double escaped" until `</script`, so that `<script><!--<script></script>x</script>`
 * ends at the second `</script>`; `-->` (or `<!-->`) returns to plain script data.
 */
function findScriptEnd(s: string, from: number): number {
  const n = s.length
  // 0 plain, 1 escaped, 2 double escaped; dashes counts the `-` just seen in (double) escaped text.
  let mode = 0
  let dashes = 0
  let i = from
  while (i < n) {
    const c = s.charCodeAt(i)
    if (mode === 0) {
      if (c === 0x3c) {
        if (isEndTagFor(s, i, 'script')) return i
        if (s.startsWith('<!--', i)) {
          mode = 1
          dashes = 2
          i += 4
          continue
        }
      }
      i++
      continue
    }
    if (c === 0x2d) {
      dashes++
      i++
      continue
    }
    if (c === 0x3e && dashes >= 2) {
      mode = 0
      dashes = 0
      i++
      continue
    }
    dashes = 0
    if (c === 0x3c) {
      if (mode === 1) {
        if (isEndTagFor(s, i, 'script')) return i
        if (startsTagNamed(s, i + 1, 'script')) {
          mode = 2
          i += 7
          continue
        }
      } else if (s.charCodeAt(i + 1) === 0x2f && startsTagNamed(s, i + 2, 'script')) {
        mode = 1
        i += 8
        continue
      }
    }
    i++
  }
  return -1
}

/** Whether `name` starts at `i`, case-insensitively, followed by space, `/` or `>`. */
function startsTagNamed(s: string, i: number, name: string): boolean {
  const end = i + name.length
  if (end >= s.length || toLowerAscii(s.slice(i, end)) !== name) return false
  const c = s.charCodeAt(end)
  return isSpace(c) || c === 0x2f || c === 0x3e
}

/**
 * Reads `html` as an HTML5 fragment in a `<body>` context and reports what a tree would hold to
 * `handler`, in linear time. Never throws; any string is a valid input.
 * @param html Any text, such as a label description as a client sent it.
 */
export function parseFragment(html: string, handler: FragmentHandler): void {
  const s = preprocess(html)
  const n = s.length
  const tree = new TreeBuilder(handler)
  let pending = '' // raw data text not yet decoded and reported
  const flush = (): void => {
    if (pending === '') return
    const text = decodeHTML(pending).replaceAll('\0', '')
    pending = ''
    if (text !== '') tree.text(text)
  }
  /** Reports raw element content that the parser does not decode (RAWTEXT, script, PLAINTEXT). */
  const rawText = (text: string): void => {
    if (text !== '') tree.text(text.replaceAll('\0', '\ufffd'))
  }
  let i = 0
  while (i < n) {
    const lt = s.indexOf('<', i)
    if (lt < 0) {
      pending += s.slice(i)
      break
    }
    pending += s.slice(i, lt)
    const c = s.charCodeAt(lt + 1)
    if (c === 0x21) {
      // `<!`: comment, DOCTYPE, CDATA section or bogus comment.
      flush()
      if (s.startsWith('--', lt + 2)) {
        const start = lt + 4
        let end: number
        if (s.charCodeAt(start) === 0x3e) end = start + 1
        else if (s.charCodeAt(start) === 0x2d && s.charCodeAt(start + 1) === 0x3e) end = start + 2
        else {
          const [at, length] = findCommentEnd(s, start)
          end = at < 0 ? n : at + length
        }
        tree.comment()
        i = end
      } else if (toLowerAscii(s.slice(lt + 2, lt + 9)) === 'doctype') {
        const gt = s.indexOf('>', lt + 9)
        i = gt < 0 ? n : gt + 1 // a DOCTYPE in body is ignored, and is no child node
      } else if (s.startsWith('[CDATA[', lt + 2) && tree.inForeignContent()) {
        const close = s.indexOf(']]>', lt + 9)
        rawText(s.slice(lt + 9, close < 0 ? n : close))
        i = close < 0 ? n : close + 3
      } else {
        const gt = s.indexOf('>', lt + 2)
        tree.comment()
        i = gt < 0 ? n : gt + 1
      }
      continue
    }
    if (c === 0x3f) {
      // `<?`: bogus comment up to `>`.
      flush()
      const gt = s.indexOf('>', lt + 2)
      tree.comment()
      i = gt < 0 ? n : gt + 1
      continue
    }
    if (c === 0x2f) {
      const d = s.charCodeAt(lt + 2)
      if (isAsciiAlpha(d)) {
        const tag = readTag(s, lt + 2)
        flush()
        if (!tag) break
        tree.endTag(tag.name)
        i = tag.end
      } else if (d === 0x3e) {
        i = lt + 3 // `</>` is dropped
      } else if (lt + 2 >= n) {
        pending += '</'
        i = n
      } else {
        flush()
        const gt = s.indexOf('>', lt + 2)
        tree.comment()
        i = gt < 0 ? n : gt + 1
      }
      continue
    }
    if (!isAsciiAlpha(c)) {
      pending += '<'
      i = lt + 1
      continue
    }
    const tag = readTag(s, lt + 1)
    flush()
    if (!tag) break
    const model = tree.startTag(tag.name, tag.attrs, tag.selfClosing)
    i = tag.end
    if (model === 'data') continue
    if (model === 'plaintext') {
      rawText(s.slice(i))
      i = n
      continue
    }
    const close = model === 'script' ? findScriptEnd(s, i) : findEndTag(s, i, tag.name)
    const content = s.slice(i, close < 0 ? n : close)
    if (model === 'rcdata') {
      const text = decodeHTML(content).replaceAll('\0', '\ufffd')
      if (text !== '') tree.text(text)
    } else rawText(content)
    i = close < 0 ? n : close // the end tag itself is read as an ordinary end tag next
  }
  flush()
  tree.end()
}
