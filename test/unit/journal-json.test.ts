/**
 * The `json` request log writes each journal entry with `entryJson`, from its fields: it must be
 * `JSON.stringify(entry)` byte for byte, for every entry the engine makes (issue 39 item 3).
 */
import { describe, expect, it } from 'vitest'
import { entryJson, type JournalEntry } from '../../src/core/journal.js'
import { fromFetchRequest } from '../../src/core/transport.js'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario } from '../../src/node.js'

const sim = createSimulator({ scenario: await loadDefaultScenario() })
const ROOT = { 'PRIVATE-TOKEN': 'glpat-root-fakelab' }

describe('entryJson', () => {
  it('is JSON.stringify of every entry the engine makes: misses, sudo, faults, sessions, passed through', async () => {
    const seen: JournalEntry[] = []
    sim.journal.subscribe((entry) => seen.push(entry))
    sim.faults.add({ route: 'GET /version', status: 503, times: 1 })
    const requests: [string, string, Record<string, string>][] = [
      ['GET', '/api/v4/projects/20/labels?per_page=2&x=%22q%5C%E2%82%AC', ROOT],
      ['GET', '/api/v4/nothing/h%C3%A9re', ROOT],
      ['PATCH', '/api/v4/user', ROOT],
      ['GET', '/api/v4/user?sudo=max', ROOT],
      ['GET', '/api/v4/version', ROOT],
      ['GET', '/api/v4/user', { 'PRIVATE-TOKEN': 'glpat-unknown' }],
      ['GET', '/api/v4/user', { ...ROOT, 'X-Fakelab-Session': 'alpha' }],
      ['GET', '/-/fakelab/sessions/beta/api/v4/nothing', ROOT],
      ['GET', '/-/fakelab/journal', ROOT],
    ]
    for (const [method, path, headers] of requests) await sim.handle(new Request(`http://gitlab.test${path}`, { method, headers }))
    expect(sim.passUnsimulated(fromFetchRequest(new Request('http://gitlab.test/api/v4/not/here', { headers: ROOT })))).toBe(true)
    seen.push(sim.journal.last()!)
    // Every optional field met at least once, so that the test covers each.
    for (const key of ['routeMiss', 'allowed', 'sudoFrom', 'fault', 'session', 'passedThrough']) expect(seen.some((entry) => key in entry), key).toBe(true)
    for (const entry of seen) expect(entryJson(entry)).toBe(JSON.stringify(entry))
  })

  it('escapes what JSON.stringify escapes: quotes, backslashes, control characters, lone surrogates', () => {
    const strange = ['"', '\\', '\n\t\u0000\u001f', '\ud800', 'a\udc00b', '😀', '\u2028\u007f', 'é€']
    for (const text of strange) {
      const entry: JournalEntry = {
        seq: 1, requestId: text, at: text, method: text, path: text, query: text, route: text, simulated: false,
        status: 0, durationMs: 0.125, user: text, routeMiss: 'method', allowed: [text], sudoFrom: text, fault: text, detail: text, session: text,
      }
      expect(entryJson(entry)).toBe(JSON.stringify(entry))
    }
  })
})
