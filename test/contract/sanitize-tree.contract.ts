/**
 * Label and milestone text whose HTML5 tree is reshaped by the parser, through both doors: what
 * GitLab stores after `CGI.unescapeHTML(Sanitize.clean(value))` (and, for titles, the strip). The
 * trees are worked out in test/unit/sanitize-tree.test.ts from the WHATWG tree construction
 * (foster parenting, the adoption agency), which gumbo under Sanitize implements.
 * Source: gitlab: app/models/label.rb `sanitize_value`, app/models/concerns/timebox.rb
 * `sanitize_title`; sanitize 5.2.1 lib/sanitize/transformers/clean_element.rb.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/contract.js'

contract('POST /projects/:id/labels (HTML5 tree construction)', {}, ({ api }) => {
  it.each([
    // Foster parenting: "ui-" sits directly in the table, so it is moved before it.
    ['foster parenting', '<table><tr><td>bug</td></tr>ui-</table>', 'ui-bug', '<table><td>a</td>b<p>c</p></table>', 'b c a'],
    // The adoption agency: the empty p gets a child (a new b), so a space follows it too.
    ['misnested formatting elements', '<b><i>x</b>y</i>', 'xy', '<b><p></b></p>x', '  x'],
  ])('%s: name %j is stored as %j, description %j as %j', async (_, name, storedName, description, storedDescription) => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name, color: 'red', description } })
    expect([res.status, res.body.name, res.body.description, res.body.description_html]).toEqual([
      201,
      storedName,
      storedDescription,
      storedDescription,
    ])
  })
})

contract('POST /groups/:id/milestones (HTML5 tree construction)', {}, ({ api }) => {
  it.each([
    ['foster parenting', '<table><tr><td>2</td></tr>v</table>', 'v2'],
    ['misnested formatting elements', '<b>v<p>3</b>.1</p>', 'v 3.1'],
  ])('%s: title %j is stored as %j', async (_, title, stored) => {
    const res = await api.post('/groups/10/milestones', { as: 'max', body: { title } })
    expect([res.status, res.body.title]).toEqual([201, stored])
  })
})
