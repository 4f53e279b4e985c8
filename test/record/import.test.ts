/**
 * `importCassette` on hand-made cassettes (issue 11, "Cassette to scenario"): what it takes from
 * which answers, and what it lists as not reproduced. The full session is covered by
 * fixture.test.ts.
 */
import type { Entry } from 'har-format'
import { describe, expect, it } from 'vitest'
import { parseScenario } from '../../src/index.js'
import { createCassette } from '../../src/record/har.js'
import { importCassette } from '../../src/verify/import.js'

/** One recorded exchange: `GET /user` answered 200 with `body`, sent with `token`. */
function exchange(method: string, path: string, status: number, body: unknown, token = '[REDACTED-1]'): Entry {
  const text = JSON.stringify(body)
  return {
    startedDateTime: '2021-04-01T12:00:00.000Z',
    time: 1,
    request: {
      method,
      url: `https://gitlab.example.com/api/v4${path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'PRIVATE-TOKEN', value: token }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: text.length, mimeType: 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

const alice = { id: 5, username: 'alice', name: 'Alice', state: 'active', avatar_url: null, web_url: 'https://gitlab.example.com/alice', is_admin: false }
const group = { id: 30, path: 'team', name: 'Team', full_path: 'team', visibility: 'private', description: '', parent_id: null }

describe('importCassette', () => {
  it('gives the token of a GET /user to its user, imports members and lists what the format lacks', async () => {
    const cassette = createCassette([
      exchange('GET', '/user', 200, alice),
      exchange('GET', '/groups/team', 200, group),
      exchange('GET', '/groups/30/members', 200, [{ ...alice, access_level: 40, expires_at: null }, { id: 6, username: 'bob', name: 'Bob', state: 'active', access_level: 10, expires_at: '2022-01-01' }]),
      exchange('GET', '/runners/all', 200, [{ id: 1, description: 'ci' }]),
      exchange('GET', '/todos', 200, []),
      exchange('GET', '/projects/1', 200, { id: 1 }, '[REDACTED-9]'),
    ])
    const result = await importCassette(cassette, { verify: false })
    expect(() => parseScenario(result.yaml)).not.toThrow()
    expect(result.scenario.users).toEqual([
      { id: 5, username: 'alice', name: 'Alice', state: 'active', avatar_url: null, tokens: [{ token: 'glpat-imported-1', name: 'imported', scopes: ['api'] }] },
      { id: 6, username: 'bob', name: 'Bob', state: 'active' },
    ])
    expect(result.scenario.groups).toEqual([
      {
        id: 30,
        path: 'team',
        name: 'Team',
        visibility: 'private',
        description: '',
        members: [
          { user: 'alice', access_level: 40, expires_at: null },
          { user: 'bob', access_level: 10, expires_at: '2022-01-01' },
        ],
      },
    ])
    expect(result.notReproduced).toEqual([
      'token [REDACTED-9]: neither the recorder nor a recorded GET /user shows its owner, so requests sending it are not authenticated',
      'token scopes: not recorded; imported tokens get [api] (plus sudo for an admin whose requests used sudo)',
      'project 1: no namespace recorded; not imported',
      'GET /runners/all (1 recorded): not in the scenario format yet',
      'GET /todos (1 recorded): not in the scenario format yet',
    ])
  })

  it('leaves out what the session created and keeps the first sight of the rest', async () => {
    const label = (id: number, name: string, color: string) => ({ id, name, color, description: null, subscribed: false, priority: null, is_project_label: false })
    const cassette = createCassette([
      exchange('GET', '/groups/30', 200, group),
      exchange('GET', '/groups/30/labels', 200, [label(1, 'bug', '#ff0000')]),
      exchange('POST', '/groups/30/labels', 201, label(2, 'new', '#00ff00')),
      exchange('PUT', '/groups/30/labels/1', 200, label(1, 'bug', '#0000ff')),
      exchange('GET', '/groups/30/labels', 200, [label(1, 'bug', '#0000ff'), label(2, 'new', '#00ff00')]),
    ])
    const result = await importCassette(cassette, { verify: false })
    expect((result.scenario.groups as { labels: unknown[] }[])[0]!.labels).toEqual([{ id: 1, name: 'bug', color: '#ff0000', description: null }])
  })

  it('takes now: from the first Date header unless given', async () => {
    const first = exchange('GET', '/user', 200, alice)
    first.response.headers.push({ name: 'Date', value: 'Thu, 01 Apr 2021 12:00:00 GMT' })
    expect((await importCassette(createCassette([first]), { verify: false })).scenario.now).toBe('2021-04-01T12:00:00.000Z')
    expect((await importCassette(createCassette([first]), { verify: false, now: '2020-01-01T00:00:00.000Z' })).scenario.now).toBe('2020-01-01T00:00:00.000Z')
  })
})
