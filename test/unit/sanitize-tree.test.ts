/**
 * `sanitizeHtml` on markup whose tree an HTML5 tree builder reshapes: foster parenting, the
 * adoption agency, the reconstruction of active formatting elements, foreign content and the
 * select modes. Gumbo (under Nokogumbo, under GitLab's Sanitize) and parse5 both implement the
 * WHATWG tree construction, so each expected value is worked out from it (the tree in the comment)
 * and then from Sanitize's rules: every element is unwrapped, `script`/`svg`/... go with their
 * content, a whitespace element (`p`, `div`, `li`, ...) leaves `' '` before it and, when it had any
 * child node, `' '` after it (sanitize 5.2.1 lib/sanitize/transformers/clean_element.rb; the walk is
 * pre-order, lib/sanitize.rb `traverse`).
 * "old reader" notes what the hand-written reader before parse5 gave, where it differed (issue 24,
 * item 5).
 * Source: WHATWG HTML "Tree construction": "appropriate place for inserting a node" (foster
 * parenting), "in table", "in table text", "in body" (the adoption agency algorithm, "reconstruct
 * the active formatting elements"), "in select", "in select in table", "rules for parsing tokens in
 * foreign content".
 */
import { describe, expect, it } from 'vitest'
import { sanitizeHtml } from '../../src/rules/sanitize.js'

describe('sanitizeHtml: foster parenting', () => {
  it.each([
    // "in table", anything else: `<b>` is inserted with foster parenting on, before the table;
    // `x` goes into the b (the current node is no table element). Tree: b("x"), table(tbody(tr(td("y")))).
    ['<table><b>x</b><tr><td>y</td></tr></table>', 'xy'],
    // "in table text": non-space text at tr level is foster-parented. Tree: "b", table(…td("a")).
    // (Old reader: 'ab'.)
    ['<table><tr><td>a</td></tr>b</table>', 'ba'],
    // The pending table text moves as a whole, its leading space too: " b", table(…td("a")).
    ['<table><tr><td>a</td></tr> b</table>', ' ba'],
    // Space-only table text stays in the table: table(" ", tbody(tr(td("a")), " ")), "x".
    ['<table> <tr><td>a</td></tr> </table>x', ' a x'],
    // After `</td>` ("in row"): "b" and `<p>` are foster-parented; "c" goes into the p, which is
    // the current node. Tree: "b", p("c"), table(tbody(tr(td("a")))). (Old reader: 'ab c '.)
    ['<table><td>a</td>b<p>c</p></table>', 'b c a'],
    // `<script>` in a table is inserted in place ("in head" rules, no foster parenting) and goes
    // with its content; the div is foster-parented: div("c"), table(tbody(tr(td("a")), script("b"))).
    ['<table><tr><td>a</td></tr><script>b</script><div>c</div></table>', ' c a'],
    // Foster-parented text joins the text node before the table: "ab", table(…td("c")).
    ['a<table>b<tr><td>c</td></tr></table>', 'abc'],
  ])('%j is stored as %j', (input, stored) => {
    expect(sanitizeHtml(input)).toBe(stored)
  })
})

describe('sanitizeHtml: misnested formatting elements', () => {
  it.each([
    // `</b>`: no furthest block (i is not special), so b and i are popped; i stays in the list
    // of active formatting elements and is reconstructed for "y". Tree: b(i("x")), i("y").
    ['<b><i>x</b>y</i>', 'xy'],
    // `</b>` with a furthest block: p moves up to the root, a new b takes p's children and goes
    // into p. Tree: b("1"), p(b("2"), "3").
    ['<b>1<p>2</b>3</p>', '1 23 '],
    // The same with an empty p: the adoption agency gives it a child (the new, empty b), so
    // Sanitize writes the space after it. Tree: b(), p(b()), "x". (Old reader: ' x'.)
    ['<b><p></b></p>x', '  x'],
    // `</b>` in SVG content is handed to "in body" once an HTML element is reached; the adoption
    // agency closes the svg with the new b, so "x" lands in the div, not in the svg (whose
    // content goes). Tree: b(), div(b(svg()), "x"). (Old reader: '  '.)
    ['<b><div><svg></b>x', ' x '],
    // A second `<a>` runs the adoption agency for the first. Tree: a(), p(a("x"), a("y")).
    ['<a><p>x<a>y</a></p>', ' xy '],
    // The b closed by `</p>` is reconstructed inside the next p: p(b("x")), p(b("y")).
    ['<p><b>x</p><p>y', ' x  y '],
  ])('%j is stored as %j', (input, stored) => {
    expect(sanitizeHtml(input)).toBe(stored)
  })
})

describe('sanitizeHtml: select modes', () => {
  it.each([
    // "in select": a `<p>` start tag is ignored, text stays. Tree: select(option("a", "b")), "c".
    ['<select><option>a<p>b</select>c', 'abc'],
    // "in select in table": `<td>` closes the select and the cell. Tree: table(…td(select("a")), td("b")).
    ['<table><tr><td><select>a<td>b</table>', 'ab'],
    // `<table>` in "in select" is ignored (it closes the select only "in select in table").
    ['<select>a<table>b</select>', 'ab'],
  ])('%j is stored as %j', (input, stored) => {
    expect(sanitizeHtml(input)).toBe(stored)
  })
})
