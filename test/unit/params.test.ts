import fc from 'fast-check'
import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'
import { assignParams, jsonNestsDeeperThan, MAX_JSON_NESTING, p, parseBody, parseQuery, rubyToI, validateParams, type ParamSpecs, type ParamRules } from '../../src/core/params.js'
import { fromFetchRequest } from '../../src/core/transport.js'

function errorOf(specs: ParamSpecs, raw: Record<string, unknown>, rules?: ParamRules): unknown {
  try {
    validateParams(specs, raw, rules)
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body }
    throw error
  }
  return undefined
}

describe('parseQuery', () => {
  it.each([
    ['a=1&b=two', { a: '1', b: 'two' }],
    ['iids[]=1&iids[]=2', { iids: ['1', '2'] }],
    ['tag_list=a&tag_list=b', { tag_list: ['a', 'b'] }],
    ['not[labels]=bug&not[milestone]=v1', { not: { labels: 'bug', milestone: 'v1' } }],
    ['search=a+b&x=%2B', { search: 'a b', x: '+' }],
    ['', {}],
  ])('%s', (query, expected) => {
    expect(parseQuery(query)).toEqual(expected)
  })

  // Flat queries skip qs (issue 27: a first request's hot spot); the params must stay qs's exactly,
  // keys in the same order.
  it('matches qs.parse for any query', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'b', 'per_page', 'page', '1', '10', '', '=', '+', '%', '%2', '%20', '%41', '%E2%9C%93', '%ff', '%5B', '%5d', '[', ']', '&', 'toString', '__proto__', 'constructor', 'é', '%00'),
      fc.string({ maxLength: 3 }),
    )
    const query = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''))
    const options = { depth: 5, arrayLimit: 1000, parameterLimit: 10_000, allowDots: false }
    fc.assert(fc.property(query, (text) => {
      const ours = parseQuery(text)
      const theirs = qs.parse(text.startsWith('?') ? text.slice(1) : text, options)
      expect(ours).toEqual(theirs)
      expect(Object.keys(ours)).toEqual(Object.keys(theirs))
    }), { seed: 27, numRuns: 5000 })
  })
})

describe('assignParams', () => {
  it('merges like object spread: own keys in order, later sources win, __proto__ stays a key', () => {
    const body = JSON.parse('{"b":"body","__proto__":{"polluted":true},"c":"3"}') as Record<string, unknown>
    const merged = assignParams(assignParams(assignParams({}, { a: '1', b: 'query' }), body), { a: 'path' })
    expect(merged).toEqual({ ...{ a: '1', b: 'query' }, ...body, ...{ a: 'path' } })
    expect(Object.keys(merged)).toEqual(['a', 'b', '__proto__', 'c'])
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
    expect((merged as { polluted?: boolean }).polluted).toBeUndefined()
  })
})

describe('parseBody', () => {
  const make = (body: BodyInit | undefined, type?: string, method = 'POST') =>
    fromFetchRequest(new Request('http://x/', { method, body, headers: type ? { 'content-type': type } : {} }))

  it('reads JSON, form and multipart bodies alike', async () => {
    expect(await parseBody(make(JSON.stringify({ name: 'bug', n: 1 }), 'application/json'))).toEqual({ name: 'bug', n: 1 })
    expect(await parseBody(make('name=bug&ids[]=1&ids[]=2', 'application/x-www-form-urlencoded'))).toEqual({ name: 'bug', ids: ['1', '2'] })
    const form = new FormData()
    form.append('name', 'bug')
    form.append('h[k]', 'v')
    expect(await parseBody(make(form))).toEqual({ name: 'bug', h: { k: 'v' } })
  })

  it('treats an empty JSON body (python-gitlab on DELETE) as no params', async () => {
    expect(await parseBody(make('', 'application/json', 'DELETE'))).toEqual({})
  })

  it('answers 400 for malformed JSON', async () => {
    await expect(parseBody(make('{nope', 'application/json'))).rejects.toMatchObject({ status: 400 })
  })

  // Issue 6, defect 1: a multipart body Rack cannot parse is Grape's EmptyMessageBody 400, not a 500.
  it('answers a multipart body that does not parse with Grape\'s empty-message-body 400', async () => {
    await expect(parseBody(make('junk', 'multipart/form-data; boundary=x'))).rejects.toMatchObject({
      status: 400,
      body: { error: 'Empty message body supplied with multipart/form-data; boundary=x content-type' },
    })
  })

  it('reads multipart without a boundary as a form, as Rack falls back to', async () => {
    expect(await parseBody(make('name=bug&color=red', 'multipart/form-data'))).toEqual({ name: 'bug', color: 'red' })
  })

  it('keeps a file field named __proto__ as a field', async () => {
    const form = new FormData()
    form.append('__proto__', new Blob(['x']), 'f.txt')
    const params = await parseBody(make(form))
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype)
    expect(Object.keys(params)).toEqual(['__proto__'])
  })

  it.each([
    ['a form value with a bad escape', 'name=%ZZ', 'application/x-www-form-urlencoded'],
    ['a form value that is not UTF-8', 'name=%C3%28', 'application/x-www-form-urlencoded'],
    ['a body that is not UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), 'application/json'],
  ])('refuses %s with the malformed-strings 400', async (_title, body, type) => {
    await expect(parseBody(make(body as BodyInit, type))).rejects.toMatchObject({ status: 400, text: 'Bad Request' })
  })

  it('reads no body on GET and HEAD', async () => {
    const get = make(undefined, 'application/json', 'GET')
    const unread = { method: get.method, path: get.path, query: get.query, origin: get.origin, header: (name: string) => get.header(name) }
    expect(await parseBody({ ...unread, body: () => Promise.reject(new Error('read')) })).toEqual({})
  })
})

describe('validateParams', () => {
  it('coerces the Grape types', () => {
    const specs = {
      i: p.integer(),
      b: p.boolean(),
      B: p.boolean(),
      d: p.date(),
      s: p.string(),
      ids: p.integers(),
      tags: p.strings(),
      h: p.hash(),
      def: p.integer({ default: 20 }),
    }
    expect(validateParams(specs, { i: '12', b: 'True', B: 'false', d: '2021-03-01', s: 'x', ids: '1,2', tags: ['a,b', 'c'], h: { k: 'v' } }))
      .toEqual({ i: 12, b: true, B: false, d: '2021-03-01', s: 'x', ids: [1, 2], tags: ['a', 'b', 'c'], h: { k: 'v' }, def: 20 })
  })

  it.each([
    ['missing required', { name: p.string({ required: true }), color: p.string({ required: true }) }, {}, 'name is missing, color is missing'],
    ['uncoercible integer', { per_page: p.integer() }, { per_page: 'abc' }, 'per_page is invalid'],
    ['bad boolean', { flag: p.boolean() }, { flag: 'maybe' }, 'flag is invalid'],
    ['bad date', { due_date: p.date() }, { due_date: '2021-02-30' }, 'due_date is invalid'],
    ['value outside values', { state: p.string({ values: ['active', 'closed'] }) }, { state: 'open' }, 'state does not have a valid value'],
    ['except_values', { per_page: p.integer({ exceptValues: [0] }) }, { per_page: '0' }, 'per_page has a value not allowed'],
    ['blank not allowed', { name: p.string({ allowBlank: false }) }, { name: ' ' }, 'name is empty'],
    ['array element invalid', { iids: p.integers() }, { iids: ['1', 'x'] }, 'iids is invalid'],
  ])('%s', (_title, specs, raw, message) => {
    expect(errorOf(specs as ParamSpecs, raw)).toEqual({ status: 400, body: { error: message } })
  })

  it.each([
    [{ atLeastOneOf: ['new_name', 'color'] }, {}, 'new_name, color are missing, at least one parameter must be provided'],
    [{ mutuallyExclusive: [['author_id', 'author_username']] }, { author_id: '1', author_username: 'a' }, 'author_id, author_username are mutually exclusive'],
    [{ exactlyOneOf: ['label_id', 'name'] }, {}, 'label_id, name are missing, exactly one parameter must be provided'],
    [{ exactlyOneOf: ['label_id', 'name'] }, { label_id: '1', name: 'x' }, 'label_id, name are mutually exclusive'],
    [{ given: { path: ['line'] } }, { path: 'a.txt' }, 'line is missing'],
  ])('route rule %j', (rules, raw, message) => {
    expect(errorOf({}, raw, rules)).toEqual({ status: 400, body: { error: message } })
  })

  it('asks for a given block\'s params only when its param is given and not blank', () => {
    expect(validateParams({ path: p.string(), line: p.integer() }, { path: ' ' }, { given: { path: ['line'] } })).toEqual({ path: ' ' })
    expect(validateParams({ path: p.string(), line: p.integer() }, {}, { given: { path: ['line'] } })).toEqual({})
  })

  it('normalises case-insensitive values to the declared spelling', () => {
    expect(validateParams({ sort: p.string({ values: ['asc', 'desc'], caseInsensitive: true }) }, { sort: 'DESC' })).toEqual({ sort: 'desc' })
  })

  it('reads an empty string for a non-string type as not given', () => {
    expect(validateParams({ priority: p.integer() }, { priority: '' })).toEqual({})
  })

  // Grape's Float (commit statuses' `coverage`): Ruby's `Float()` of a string, or a JSON number.
  it.each([
    [80, 80], [12.5, 12.5], ['80.0', 80], [' -1.5e2 ', -150], ['.5', 0.5], ['1_000.5', 1000.5], ['7', 7],
  ])('float reads %j as %d', (raw, value) => {
    expect(validateParams({ coverage: p.float() }, { coverage: raw })).toEqual({ coverage: value })
  })

  it.each([['lots'], ['1.'], ['1..2'], [true], [[1]]])('float refuses %j', (raw) => {
    expect(errorOf({ coverage: p.float() }, { coverage: raw })).toEqual({ status: 400, body: { error: 'coverage is invalid' } })
  })
})

describe('validateParams and JSON null', () => {
  it('passes null through only where the declaration allows it, else reads it as absent', () => {
    const specs = { priority: p.integer({ nullable: true }), description: p.string(), sort: p.string({ default: 'asc' }) }
    expect(validateParams(specs, { priority: null, description: null, sort: null })).toEqual({ priority: null, sort: 'asc' })
    expect(errorOf({ name: p.string({ required: true }) }, { name: null })).toEqual({ status: 400, body: { error: 'name is missing' } })
  })
})

describe('rubyToI', () => {
  it.each([['12abc', 12], ['1_000', 1000], ['bug', 0], [' 7', 7], ['-3x', -3], [42, 42], [undefined, 0]])('%j → %i', (input, out) => {
    expect(rubyToI(input)).toBe(out)
  })
})

describe('jsonNestsDeeperThan (issue 23, item 16)', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
  it.each([
    [deep(100), false],
    [deep(101), true],
    [`{"a":${deep(99)}}`, false],
    [`{"a":${deep(100)}}`, true],
    // Brackets inside strings, escaped quotes and backslashes do not count.
    [`["${'['.repeat(300)}"]`, false],
    [`["\\"${'{'.repeat(300)}"]`, false],
    [`["\\\\", ${deep(100)}]`, true],
  ])('%#', (text, expected) => {
    expect(jsonNestsDeeperThan(text, MAX_JSON_NESTING)).toBe(expected)
  })
})
