// The benchmark's data: the default scenario plus project labels on project 20, so that
// `GET /api/v4/projects/20/labels` answers 20 labels (about 4 KB). The labels are created through
// the public API (`sim.handle`), so this keeps working however the store and scenario code change.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export const TOKEN = 'glpat-root-fakelab'
export const LIST_PATH = '/api/v4/projects/20/labels'
export const LABELS = 20

/**
 * Creates labels on project 20 through the API until {@link LABELS} are listed there.
 * @param send answers one Fetch `Request` (`sim.handle`, or `fetch` against a server)
 * @param origin the origin the requests are addressed to, e.g. `http://gitlab.test`
 */
export async function addBenchLabels(send, origin) {
  const list = async () => (await send(request(origin, LIST_PATH))).json()
  let present = (await list()).length
  for (let i = 0; present < LABELS; i += 1, present += 1) {
    const res = await send(request(origin, LIST_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${String(i).padStart(2, '0')}`, color: '#6699cc', description: `Benchmark label number ${i}` }),
    }))
    if (res.status !== 201) throw new Error(`creating a bench label answered ${res.status}: ${await res.text()}`)
  }
}

/**
 * A simulator over the default scenario with {@link LABELS} labels visible on project 20.
 * @param dist the build to load (`dist/` of a checkout).
 */
export async function benchSimulator(dist) {
  const { createSimulator } = await import(pathToFileURL(join(dist, 'index.js')).href)
  const { loadDefaultScenario } = await import(pathToFileURL(join(dist, 'node.js')).href)
  const sim = createSimulator({ scenario: await loadDefaultScenario() })
  await addBenchLabels((req) => sim.handle(req), 'http://gitlab.test')
  return sim
}

function request(origin, path, init = {}) {
  return new Request(`${origin}${path}`, { ...init, headers: { 'PRIVATE-TOKEN': TOKEN, ...init.headers } })
}
