/**
 * `POST /markdown` (issue 37 item 8): plain Markdown and GitLab Flavored Markdown with
 * `data-sourcepos`, task lists, emoji, external links and references that resolve only to records
 * the caller may read, over both doors on the default scenario (acme/website: issue #1 "Login
 * button does nothing" id 400, merge request !1 id 500, label `bug` id 100 #d9534f, group milestone
 * v1.0 id 200; acme/platform/api private; nora without memberships).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('markdown', {}, ({ api }) => {
  const render = async (text: string, extra: Record<string, unknown> = {}, as?: string) => {
    const res = await api.post('/markdown', { as, body: { text, ...extra } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['html'])
    return res.body.html as string
  }

  it.each([
    ['plain text', 'foo', {}, '<p data-sourcepos="1:1-1:3">foo</p>'],
    ['GFM text', 'foo', { gfm: true }, '<p data-sourcepos="1:1-1:3" dir="auto">foo</p>'],
    ['a heading and emphasis', '# Title\n\n*a* **b** ~~c~~', {}, '<h1 data-sourcepos="1:1-1:7">Title</h1>\n<p data-sourcepos="3:1-3:15"><em>a</em> <strong>b</strong> <s>c</s></p>'],
    ['escaped HTML', '<b>x</b> & y', { gfm: true }, '<p data-sourcepos="1:1-1:12" dir="auto">&lt;b&gt;x&lt;/b&gt; &amp; y</p>'],
    ['an emoji', 'Hi :tada: :nope:', { gfm: true }, '<p data-sourcepos="1:1-1:16" dir="auto">Hi <gl-emoji title="party popper" data-name="tada" data-unicode-version="6.0">🎉</gl-emoji> :nope:</p>'],
    ['a task list', '- [ ] one\n- [x] two', { gfm: true },
      '<ul data-sourcepos="1:1-2:9" dir="auto" class="task-list">\n<li data-sourcepos="1:1-1:9" dir="auto" class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled> one</li>\n<li data-sourcepos="2:1-2:9" dir="auto" class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" checked disabled> two</li>\n</ul>'],
    ['an external link', 'https://example.com', { gfm: true }, '<p data-sourcepos="1:1-1:19" dir="auto"><a href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">https://example.com</a></p>'],
    ['references without a project', '#1 and `@devon`', { gfm: true }, '<p data-sourcepos="1:1-1:15" dir="auto">#1 and <code>@devon</code></p>'],
  ])('renders %s', async (_what, text, extra, html) => {
    expect(await render(text, extra)).toBe(html)
  })

  it('links references to records the caller may read, in the project given or by full path', async () => {
    const baseUrl = (await api.get('/projects/20')).body.web_url.replace(/\/acme\/website$/, '')
    const html = await render('#1, !1, ~bug, %"v1.0", @devon, #99 and acme/platform/api#1', { gfm: true, project: 'acme/website' })
    expect(html).toBe(
      '<p data-sourcepos="1:1-1:58" dir="auto">' +
        `<a href="${baseUrl}/acme/website/-/issues/1" data-reference-type="issue" data-original="#1" data-link="false" data-link-reference="false" data-project="20" data-issue="400" data-container="body" data-placement="top" title="Login button does nothing" class="gfm gfm-issue has-tooltip">#1</a>, ` +
        `<a href="${baseUrl}/acme/website/-/merge_requests/1" data-reference-type="merge_request" data-original="!1" data-link="false" data-link-reference="false" data-project="20" data-merge-request="500" data-container="body" data-placement="top" title="Fix the login button" class="gfm gfm-merge_request has-tooltip">!1</a>, ` +
        `<span class="gl-label gl-label-sm"><a href="${baseUrl}/acme/website/-/issues?label_name=bug" data-reference-type="label" data-original="~bug" data-link="false" data-link-reference="false" data-project="20" data-label="100" data-container="body" data-placement="top" title="Something is broken" class="gfm gfm-label has-tooltip gl-link gl-label-link"><span class="gl-label-text gl-label-text-light" data-container="body" data-html="true" style="background-color: #d9534f">bug</span></a></span>, ` +
        `<a href="${baseUrl}/groups/acme/-/milestones/1" data-reference-type="milestone" data-original="%&quot;v1.0&quot;" data-link="false" data-link-reference="false" data-project="20" data-milestone="200" data-container="body" data-placement="top" title="" class="gfm gfm-milestone has-tooltip">%&quot;v1.0&quot;</a>, ` +
        `<a href="${baseUrl}/devon" data-user="4" data-reference-type="user" data-container="body" data-placement="top" class="gfm gfm-project_member js-user-link" title="Devon Developer">@devon</a>, ` +
        '#99 and acme/platform/api#1</p>',
    )
    // A member of the private project sees its issue linked.
    expect(await render('acme/platform/api#1', { gfm: true }, 'max')).toContain('class="gfm gfm-issue has-tooltip">acme/platform/api#1</a>')
  })

  it('answers 404 for a project the caller may not read and 400 without text', async () => {
    const hidden = await api.post('/markdown', { as: 'nora', body: { text: 'x', project: 'acme/platform/api' } })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
    const missing = await api.post('/markdown', { body: { gfm: true } })
    expect([missing.status, missing.body]).toEqual([400, { error: 'text is missing' }])
  })
})
