/**
 * Redaction rules (issue 11, "Redaction by default"), one exchange at a time: each secret becomes a
 * stable placeholder wherever it occurs, and nothing else changes.
 */
import type { Entry } from 'har-format'
import { describe, expect, it } from 'vitest'
import { createRedactor } from '../../src/record/redact.js'

/** A minimal HAR entry; `over` replaces parts of the request and response. */
function entry(over: { url?: string; requestHeaders?: [string, string][]; requestBody?: [string, string]; responseHeaders?: [string, string][]; responseBody?: string } = {}): Entry {
  const url = over.url ?? 'https://gitlab.example.com/api/v4/user'
  return {
    startedDateTime: '2021-04-01T12:00:00.000Z',
    time: 1,
    request: {
      method: over.requestBody ? 'POST' : 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: (over.requestHeaders ?? []).map(([name, value]) => ({ name, value })),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(over.requestBody ? { postData: { mimeType: over.requestBody[0], text: over.requestBody[1] } } : {}),
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: (over.responseHeaders ?? []).map(([name, value]) => ({ name, value })),
      content: { size: 0, mimeType: 'application/json', text: over.responseBody ?? '{}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

const header = (e: Entry, name: string) => e.request.headers.find((h) => h.name === name)?.value
const redact = (...entries: Entry[]) => createRedactor().entries(entries)

describe('createRedactor().entries', () => {
  it.each([
    ['PRIVATE-TOKEN', 'glpat-abcdefghijklmnopqrst', '[REDACTED-1]'],
    ['Authorization', 'Bearer 0123456789abcdef0123', 'Bearer [REDACTED-1]'],
    ['JOB-TOKEN', 'short', '[REDACTED-1]'],
    ['Cookie', '_gitlab_session=abc123456789; other=value1234', '_gitlab_session=[REDACTED-1]; other=[REDACTED-2]'],
  ])('replaces the %s header value', (name, value, expected) => {
    const [out] = redact(entry({ requestHeaders: [[name, value]] }))
    expect(header(out!, name)).toBe(expected)
  })

  it('keeps Set-Cookie attributes and replaces the value', () => {
    const [out] = redact(entry({ responseHeaders: [['Set-Cookie', '_gitlab_session=0123456789abcdef; path=/; HttpOnly']] }))
    expect(out!.response.headers[0]!.value).toBe('_gitlab_session=[REDACTED-1]; path=/; HttpOnly')
  })

  it.each(['private_token', 'access_token', 'job_token', 'token'])('replaces the %s query parameter and leaves the rest of the URL as it was', (key) => {
    const [out] = redact(entry({ url: `https://gitlab.example.com/api/v4/projects?labels[]=a+b&${key}=s3cr3t-value-123&page=2` }))
    expect(out!.request.url).toBe(`https://gitlab.example.com/api/v4/projects?labels[]=a+b&${key}=[REDACTED-1]&page=2`)
    expect(out!.request.queryString).toContainEqual({ name: key, value: '[REDACTED-1]' })
  })

  it('replaces an echoed secret everywhere: Link headers, bodies, other entries', () => {
    const [first, second] = redact(
      entry({
        url: 'https://gitlab.example.com/api/v4/projects?private_token=glpat-abcdefghijklmnopqrst',
        responseHeaders: [['Link', '<https://gitlab.example.com/api/v4/projects?page=2&private_token=glpat-abcdefghijklmnopqrst>; rel="next"']],
      }),
      entry({ responseBody: '{"note":"token glpat-abcdefghijklmnopqrst leaked"}' }),
    )
    expect(first!.response.headers[0]!.value).toBe('<https://gitlab.example.com/api/v4/projects?page=2&private_token=[REDACTED-1]>; rel="next"')
    expect(second!.response.content.text).toBe('{"note":"token [REDACTED-1] leaked"}')
  })

  it('gives the same secret the same placeholder and different secrets different ones', () => {
    const out = redact(
      entry({ requestHeaders: [['PRIVATE-TOKEN', 'glpat-one-0123456789']] }),
      entry({ requestHeaders: [['PRIVATE-TOKEN', 'glpat-two-0123456789']] }),
      entry({ requestHeaders: [['PRIVATE-TOKEN', 'glpat-one-0123456789']] }),
    )
    expect(out.map((e) => header(e, 'PRIVATE-TOKEN'))).toEqual(['[REDACTED-1]', '[REDACTED-2]', '[REDACTED-1]'])
  })

  it('replaces secret body fields in JSON answers without re-serialising them', () => {
    const body = '{"id":9,"token":"glrt-0123456789abcdefghij","runners_token":"GR1348941abcdefghijklmnop","token_expires_at":"2021-05-01T00:00:00Z",\n "feed_token":"aBcDeFgHiJkLmNoPqRsTuV","name":"x"}'
    const [out] = redact(entry({ responseBody: body }))
    expect(out!.response.content.text).toBe(
      '{"id":9,"token":"[REDACTED-1]","runners_token":"[REDACTED-2]","token_expires_at":"2021-05-01T00:00:00Z",\n "feed_token":"[REDACTED-3]","name":"x"}',
    )
  })

  it('replaces secret fields of form and JSON request bodies (runner registration)', () => {
    const [form] = redact(entry({ requestBody: ['application/x-www-form-urlencoded', 'token=GR1348941registrationtoken&description=ci'] }))
    expect(form!.request.postData?.text).toBe('token=[REDACTED-1]&description=ci')
    const [json] = redact(entry({ requestBody: ['application/json', '{"token":"abc","description":"ci"}'] }))
    expect(json!.request.postData?.text).toBe('{"token":"[REDACTED-1]","description":"ci"}')
  })

  it('replaces token-shaped strings anywhere', () => {
    const [out] = redact(entry({ responseBody: '{"description":"use glpat-0123456789abcdefghij or GR1348941xyzxyzxyzxyzxyzxyz"}' }))
    expect(out!.response.content.text).toBe('{"description":"use [REDACTED-1] or [REDACTED-2]"}')
  })

  it('takes extra rules: headers, query parameters, body fields, patterns and literal secrets', () => {
    const redactor = createRedactor({ headers: ['X-Api-Key'], queryParams: ['sig'], bodyFields: ['webhook_url'], patterns: [/sk_live_\w+/], secrets: ['hunter2hunter2'] })
    const [out] = redactor.entries([
      entry({
        url: 'https://gitlab.example.com/api/v4/hooks?sig=abcdef',
        requestHeaders: [['X-Api-Key', 'k']],
        responseBody: '{"webhook_url":"https://hooks.example/x","key":"sk_live_123","note":"hunter2hunter2"}',
      }),
    ])
    expect(header(out!, 'X-Api-Key')).toBe('[REDACTED-2]')
    expect(out!.request.url).toBe('https://gitlab.example.com/api/v4/hooks?sig=[REDACTED-3]')
    expect(out!.response.content.text).toBe('{"webhook_url":"[REDACTED-4]","key":"[REDACTED-5]","note":"[REDACTED-1]"}')
  })

  it('does not change the input entries', () => {
    const original = entry({ requestHeaders: [['PRIVATE-TOKEN', 'glpat-abcdefghijklmnopqrst']] })
    redact(original)
    expect(header(original, 'PRIVATE-TOKEN')).toBe('glpat-abcdefghijklmnopqrst')
  })
})
