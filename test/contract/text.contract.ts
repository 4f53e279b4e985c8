/**
 * Text transformations through both doors: what GitLab stores for label and milestone text
 * (`CGI.unescapeHTML(Sanitize.clean(value))`), colour names, and the single-line pipeline behind a
 * label's `description_html`. Regression tests for issue 6 (defects 2, 3 and 4) and issue 17
 * (item 2).
 * Source: gitlab-behaviour.md §12.1, §12.3, §12.4; gitlab: app/models/label.rb,
 * app/models/concerns/timebox.rb, lib/banzai/pipeline/single_line_pipeline.rb,
 * spec/lib/banzai/pipeline/shared_examples.rb ("a single line pipeline").
 */
import { expect, it } from 'vitest'
import { contract } from '../support/contract.js'

const EXTERNAL = 'rel="nofollow noreferrer noopener" target="_blank"'

contract('POST /projects/:id/labels', {}, ({ api }) => {
  it('issue 6 defect 2: stores a character reference above U+10FFFF as U+FFFD (201, not 500)', async () => {
    const res = await api.post('/projects/20/labels', {
      as: 'max',
      body: { name: 'x&#99999999;', color: 'red', description: 'd&#x110000; &#xD800; &#0;' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'x\ufffd',
      description: 'd\ufffd \ufffd \ufffd',
      description_html: 'd\ufffd \ufffd \ufffd',
    })
  })

  it('issue 6 defect 3: keeps an unknown reference such as &constructor; as text', async () => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'a&constructor;b', color: 'red', description: '&__proto__;' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'a&constructor;b', description: '&__proto__;', description_html: '&amp;__proto__;' })
  })

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'issue 6 defect 3: answers 400 for the colour %j, which is no CSS colour keyword',
    async (color) => {
      const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'x', color } })
      expect(res).toBeGitLabError(400, { message: { color: ['must be a valid color code'] } })
    },
  )

  it('stores what Sanitize leaves: block elements become spaces, U+00A0 becomes &nbsp;, legacy references decode', async () => {
    const res = await api.post('/projects/20/labels', {
      as: 'max',
      body: { name: ' <p>a</p>b&nbsp;c ', color: 'red', description: '<div>x<br>y</div>&copy 2021 &amp;amp; <!-- hidden -->' },
    })
    expect(res.body).toMatchObject({
      name: 'a b&nbsp;c',
      description: ' x y © 2021 &amp; ',
      description_html: ' x y © 2021 &amp;amp; ',
    })
  })

  it("issue 6 defect 4: sanitises '<script'.repeat(40000) (280 KB) and answers at once", async () => {
    const started = performance.now()
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: 'x', color: 'red', description: '<script'.repeat(40_000) } })
    // An unterminated start tag is dropped by the HTML5 tokenizer, so nothing is left.
    expect([res.status, res.body.description, res.body.description_html]).toEqual([201, '', ''])
    // Generous bound: the quadratic regexes took 7.8 s; this takes a few milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})

contract('PUT /projects/:id/labels/:label_id', {}, ({ api }) => {
  it('issue 6 defect 2: renames with a reference above U+10FFFF (200, not 500)', async () => {
    const res = await api.put('/projects/20/labels/frontend', { as: 'max', body: { new_name: 'ui&#99999999;', description: 'y&#99999999;' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'ui\ufffd', description: 'y\ufffd' })
  })
})

contract('GET /projects/:id/labels/:label_id', {}, ({ api }) => {
  it('issue 17 item 2: renders a missing description as description_html "" (gitlab-behaviour.md §12.1)', async () => {
    const res = await api.get('/projects/20/labels/docs', { as: 'max' })
    expect(res.status).toBe(200)
    expect([res.body.description, res.body.description_html]).toEqual([null, ''])
  })

  it('renders no Markdown: the single-line pipeline escapes HTML and links URLs, as GitLab does', async () => {
    await api.put('/projects/20/labels/docs', {
      as: 'max',
      body: { description: '**bold** _em_ `code` [t](https://example.com/t?a=1&b=2). &lt;b&gt;' },
    })
    const res = await api.get('/projects/20/labels/docs', { as: 'max' })
    expect(res.body.description).toBe('**bold** _em_ `code` [t](https://example.com/t?a=1&b=2). <b>')
    expect(res.body.description_html).toBe(
      '**bold** _em_ `code` [t](' +
        `<a href="https://example.com/t?a=1&amp;b=2" ${EXTERNAL}>https://example.com/t?a=1&amp;b=2</a>). &lt;b&gt;`,
    )
  })

  it('links a URL of the GitLab host itself without rel and target (ExternalLinkFilter#internal_url?)', async () => {
    const own = `${api.baseUrl}/acme/website/-/issues/1`
    await api.put('/projects/20/labels/docs', { as: 'max', body: { description: `see ${own}` } })
    const res = await api.get('/projects/20/labels/docs', { as: 'max' })
    expect(res.body.description_html).toBe(`see <a href="${own}">${own}</a>`)
  })
})

contract('GET /projects/:id/labels', {}, ({ api, sim }) => {
  it("issue 6 defect 4: lists labels quickly after a '[a'.repeat(30000) description is stored", async () => {
    const text = '[a'.repeat(30_000)
    await api.put('/projects/20/labels/docs', { as: 'max', body: { description: text } })
    const started = performance.now()
    const res = await api.get('/projects/20/labels', { as: 'max', query: { per_page: 100 } })
    expect(res.status).toBe(200)
    expect(res.body.find((label: { name: string }) => label.name === 'docs').description_html).toBe(text)
    // Generous bound: the Markdown regexes took 0.66 s per list; this is one plain copy.
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(sim().db.tables.labels.all().length).toBeGreaterThan(0)
  })
})

contract('POST /groups/:id/milestones', {}, ({ api }) => {
  it('issue 6 defect 2: stores a title with a reference above U+10FFFF as U+FFFD (201, not 500)', async () => {
    const res = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'v3&#99999999;' } })
    expect([res.status, res.body.title]).toEqual([201, 'v3\ufffd'])
  })
})

contract('PUT /groups/:id/milestones/:milestone_id', {}, ({ api }) => {
  it('issue 6 defect 2: retitles with a reference above U+10FFFF (200, not 500)', async () => {
    const created = await api.post('/groups/10/milestones', { as: 'max', body: { title: 'v9' } })
    const res = await api.put(`/groups/10/milestones/${created.body.id}`, { as: 'max', body: { title: '<b>v9</b>&#x110000;' } })
    expect([res.status, res.body.title]).toEqual([200, 'v9\ufffd'])
  })
})

contract('POST /projects/:id/labels (title strip)', {}, ({ api }) => {
  it("strips the title as Ruby's String#strip does: ASCII whitespace only, U+3000 stays", async () => {
    const res = await api.post('/projects/20/labels', { as: 'max', body: { name: ' \t\u3000ideographic\u3000 \n', color: 'red' } })
    expect([res.status, res.body.name]).toEqual([201, '\u3000ideographic\u3000'])
  })
})

contract('POST /projects/:id/freeze_periods', {}, ({ api }) => {
  it('keeps cron_timezone unstripped (gitlab-behaviour.md §7, corrected 2026-11-23: only the crons are stripped)', async () => {
    const res = await api.post('/projects/20/freeze_periods', {
      as: 'max',
      body: { freeze_start: ' 0 23 * * 5 ', freeze_end: '0 7 * * 1', cron_timezone: ' UTC' },
    })
    expect([res.status, res.body.freeze_start, res.body.cron_timezone]).toEqual([201, '0 23 * * 5', ' UTC'])
  })

  it('issue 6 defect 4: strips a 200 KB run of inner spaces at once (the trailing-space regexes were quadratic)', async () => {
    const spaces = ' '.repeat(200_000)
    const started = performance.now()
    const res = await api.post('/projects/20/freeze_periods', {
      as: 'max',
      body: { freeze_start: `0${spaces}x`, freeze_end: '0 7 * * 1', cron_timezone: `UTC${spaces}x` },
    })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.message)).toEqual(['freeze_start', 'cron_timezone'])
    // Generous bound: the regexes took about 40 s on this input; the loops take milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
