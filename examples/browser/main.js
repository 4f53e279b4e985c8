// The whole simulator runs in this page: MSW's service worker (mockServiceWorker.js, served beside
// the page) hands each fetch of /api/v4 to fakelab's handlers, which answer as GitLab 13.x does.
import { setupWorker } from 'msw/browser'
import { createSimulator, defaultScenario } from 'fakelab'
import { createHandlers } from 'fakelab/msw'

const sim = createSimulator({ scenario: defaultScenario() })
const worker = setupWorker(...createHandlers(sim))
await worker.start({ onUnhandledRequest: 'bypass', quiet: true })

// Calls the API with a user's token (every user of the default scenario has glpat-<username>-fakelab)
// and shows the answer on the page.
async function show(title, path, { as, method = 'GET', body } = {}) {
  const headers = as ? { 'PRIVATE-TOKEN': `glpat-${as}-fakelab` } : {}
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await fetch(`/api/v4${path}`, { method, headers, body: body && JSON.stringify(body) })
  const total = res.headers.get('X-Total')
  const item = document.createElement('li')
  const heading = document.createElement('h2')
  heading.textContent = title
  const line = document.createElement('code')
  line.textContent = `${method} ${path} → ${res.status}${total ? ` (X-Total: ${total})` : ''}`
  const pre = document.createElement('pre')
  pre.textContent = JSON.stringify(await res.json(), null, 2)
  item.append(heading, line, pre)
  document.getElementById('answers').append(item)
}

await show('The GitLab version', '/version', { as: 'root' })
await show("acme/website's labels, two per page", '/projects/acme%2Fwebsite/labels?per_page=2', { as: 'devon' })
await show('A new label', '/projects/20/labels', { as: 'max', method: 'POST', body: { name: 'browser', color: '#1f75cb' } })
await show('A private project, asked anonymously', '/projects/acme%2Fplatform%2Fapi')
document.getElementById('status').textContent = 'ready'
