/**
 * Cassette files (issue 11, "Cassettes"): validated on load with every problem at its
 * `file:line:col`, written in one stable, pretty-printed form.
 */
import type { Har } from 'har-format'
import { describe, expect, it } from 'vitest'
import { CassetteError, createCassette, parseCassette, serializeCassette } from '../../src/record/har.js'

function problemsOf(text: string): string[] {
  try {
    parseCassette(text, 'c.har.json')
  } catch (error) {
    if (error instanceof CassetteError) return error.message.split('\n')
    throw error
  }
  return []
}

const entry = (startedDateTime: string, path: string) => ({
  startedDateTime,
  time: 3,
  request: { method: 'GET', url: `https://gitlab.example.com/api/v4${path}`, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
  response: {
    status: 200,
    statusText: 'OK',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [{ value: 'application/json', name: 'content-type' }],
    content: { mimeType: 'application/json', size: 2, text: '{}' },
    redirectURL: '',
    headersSize: -1,
    bodySize: 2,
  },
  cache: {},
  timings: { wait: 1, send: 0, receive: 2 },
})

describe('parseCassette', () => {
  it('reads a valid cassette as it is', () => {
    const har = createCassette([entry('2021-04-01T12:00:00.000Z', '/user')] as Har['log']['entries'])
    expect(parseCassette(serializeCassette(har))).toEqual(har)
  })

  it('reports a JSON syntax error at its line and column', () => {
    expect(problemsOf('{\n  "log": {\n    "version": "1.2",,\n  }\n}')).toEqual([expect.stringMatching(/^c\.har\.json:3:22 invalid JSON: /)])
  })

  it('reports every schema problem at the offending value', () => {
    const text = [
      '{',
      '  "log": {',
      '    "version": "1.2",',
      '    "creator": { "name": "fakelab" },',
      '    "entries": [',
      `      ${JSON.stringify({ ...entry('yesterday', '/user'), time: 'slow' })}`,
      '    ]',
      '  }',
      '}',
    ].join('\n')
    expect(problemsOf(text)).toEqual([
      'c.har.json:4:18 log.creator.version: Invalid input: expected string, received undefined',
      'c.har.json:6:26 log.entries[0].startedDateTime: must be an ISO 8601 date-time',
      'c.har.json:6:45 log.entries[0].time: Invalid input: expected number, received string',
    ])
  })

  it('accepts HAR from other tools: extra and custom fields are kept', () => {
    const har = { log: { version: '1.2', creator: { name: 'Chrome', version: '120' }, pages: [], entries: [{ ...entry('2021-04-01T12:00:00Z', '/user'), _priority: 'High' }] } }
    expect(parseCassette(JSON.stringify(har)).log.entries[0]).toMatchObject({ _priority: 'High' })
  })
})

describe('serializeCassette', () => {
  it('writes keys in HAR order, two-space indented, with a final newline', () => {
    const text = serializeCassette(createCassette([entry('2021-04-01T12:00:00.000Z', '/user')] as Har['log']['entries'], { name: 'fakelab', version: '1' }))
    expect(text.endsWith('}\n')).toBe(true)
    expect(text.split('\n').slice(0, 8)).toEqual([
      '{',
      '  "log": {',
      '    "version": "1.2",',
      '    "creator": {',
      '      "name": "fakelab",',
      '      "version": "1"',
      '    },',
      '    "entries": [',
    ])
    expect(text.indexOf('"name": "content-type"')).toBeLessThan(text.indexOf('"value": "application/json"'))
    expect(text.indexOf('"size": 2')).toBeLessThan(text.indexOf('"mimeType"'))
    expect(text.indexOf('"send": 0')).toBeLessThan(text.indexOf('"wait": 1'))
  })

  it('orders entries by start time, keeping the recorded order for equal instants', () => {
    const har = createCassette([entry('2021-04-01T12:00:02Z', '/b'), entry('2021-04-01T12:00:01Z', '/a'), entry('2021-04-01T12:00:02Z', '/c')] as Har['log']['entries'])
    expect(har.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/api/v4/a', '/api/v4/b', '/api/v4/c'])
  })
})
