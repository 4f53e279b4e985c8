import fc from 'fast-check'
import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { pageQuery, paginate, toQuery, type PageParams } from '../../src/core/pagination.js'
import type { Ctx } from '../../src/core/route.js'

function ctx(params: PageParams, raw: Record<string, unknown> = {}): Ctx<PageParams> {
  return {
    params,
    raw: { ...raw },
    baseUrl: 'http://gitlab.test',
    request: { path: '/api/v4/projects/1/labels' },
  } as unknown as Ctx<PageParams>
}

const rows = Array.from({ length: 45 }, (_, i) => i + 1)
const link = (query: string, rel: string) => `<http://gitlab.test/api/v4/projects/1/labels?${query}>; rel="${rel}"`

describe('paginate', () => {
  it('builds every header for a middle page, Link rels in the order prev, next, first, last', () => {
    const page = paginate(ctx({ page: 2, per_page: 20 }, { id: '1', search: 'a b' }), rows)
    expect(page.rows).toEqual(rows.slice(20, 40))
    expect(page.headers).toEqual({
      'x-per-page': '20',
      'x-page': '2',
      'x-next-page': '3',
      'x-prev-page': '1',
      link: [
        link('id=1&page=1&per_page=20&search=a+b', 'prev'),
        link('id=1&page=3&per_page=20&search=a+b', 'next'),
        link('id=1&page=1&per_page=20&search=a+b', 'first'),
        link('id=1&page=3&per_page=20&search=a+b', 'last'),
      ].join(', '),
      'x-total': '45',
      'x-total-pages': '3',
    })
  })

  it('answers an empty collection with one page and empty next/prev', () => {
    const page = paginate(ctx({ page: 1, per_page: 20 }), [])
    expect(page.headers).toEqual({
      'x-per-page': '20',
      'x-page': '1',
      'x-next-page': '',
      'x-prev-page': '',
      link: [link('page=1&per_page=20', 'first'), link('page=1&per_page=20', 'last')].join(', '),
      'x-total': '0',
      'x-total-pages': '1',
    })
  })

  it('echoes a page beyond the last with no next or prev', () => {
    const page = paginate(ctx({ page: 9, per_page: 20 }), rows)
    expect(page.rows).toEqual([])
    expect([page.headers['x-page'], page.headers['x-next-page'], page.headers['x-prev-page']]).toEqual(['9', '', ''])
    expect(page.headers.link).toBe([link('page=1&per_page=20', 'first'), link('page=3&per_page=20', 'last')].join(', '))
  })

  it.each([
    [{ page: 1, per_page: 200 }, '100', '1'],
    [{ page: 1, per_page: -5 }, '20', '1'],
    [{ page: 0, per_page: 20 }, '20', '1'],
    [{ page: -3, per_page: 20 }, '20', '1'],
  ])('clamps %j', (params, perPage, pageNumber) => {
    const page = paginate(ctx(params), rows)
    expect([page.headers['x-per-page'], page.headers['x-page']]).toEqual([perPage, pageNumber])
  })

  it('keeps the raw per_page in Link URLs while X-Per-Page shows the effective one', () => {
    const page = paginate(ctx({ page: 1, per_page: 200 }, { per_page: '200' }), rows)
    expect(page.headers.link).toBe([link('page=1&per_page=200', 'first'), link('page=1&per_page=200', 'last')].join(', '))
  })

  it('stops counting above 10,000 rows: no X-Total, X-Total-Pages or rel="last"', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => i)
    const page = paginate(ctx({ page: 1, per_page: 20 }), many)
    expect(page.headers['x-total']).toBeUndefined()
    expect(page.headers['x-total-pages']).toBeUndefined()
    expect(page.headers['x-next-page']).toBe('2')
    expect(page.headers.link).toBe([link('page=2&per_page=20', 'next'), link('page=1&per_page=20', 'first')].join(', '))
  })
})

describe('toQuery', () => {
  it('serialises like Rails to_query: sorted keys, key[]= arrays, key[sub]= hashes', () => {
    expect(toQuery({ z: '1', iids: ['2', '1'], not: { labels: 'x' }, a: 'b c' })).toBe('a=b+c&iids%5B%5D=2&iids%5B%5D=1&not%5Blabels%5D=x&z=1')
  })
})

describe('pageQuery', () => {
  // Link URLs serialise every param once per request and vary only `page` (issue 5): the result must
  // be byte for byte what serialising the whole set with that page gives.
  it.each([
    [{}],
    [{ per_page: '20' }],
    [{ page: '7', per_page: '20', id: '20', search: 'a b' }],
    [{ Zeta: '1', alpha: '2', _x: '3', 'é': '4', Page: 'P', pagex: 'x', pag: 'y', p: ['b', 'a'], h: { z: '1', a: '2' } }],
    [{ empty: [], nothing: undefined, nul: null, file: new Blob(['x']), q: 'a+b&c=d%', page_size: '3' }],
  ])('matches toQuery for %j', (params) => {
    const query = pageQuery(params)
    for (const n of [1, 2, 10, 123]) expect(query(n)).toBe(toQuery({ ...params, page: String(n) }))
  })
})

describe('toQuery without qs', () => {
  // Plain values skip qs (issue 5: Link URLs were a hot spot); the bytes must stay qs's exactly.
  const viaQs = (params: Record<string, unknown>) =>
    qs.stringify(params, { arrayFormat: 'brackets', sort: (a: string, b: string) => a.localeCompare(b), format: 'RFC1738' })
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom("!'*()~ +%&=[]", 'é€😀', '\ud800x', ''))
  const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }))

  it('matches qs.stringify for any keys and values', () => {
    fc.assert(fc.property(fc.dictionary(text, value, { maxKeys: 6 }), (params) => {
      expect(toQuery(params)).toBe(viaQs(params))
    }), { seed: 5, numRuns: 2000 })
  })

  it('matches qs.stringify for param names of lower-case letters and _ (sorted without ICU)', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'b', 'p', 'z', '_'), maxLength: 6 })
    fc.assert(fc.property(fc.dictionary(name, text, { maxKeys: 8 }), (params) => {
      expect(toQuery(params)).toBe(viaQs(params))
      expect(pageQuery(params)(3)).toBe(viaQs({ ...params, page: '3' }))
    }), { seed: 7, numRuns: 2000 })
  })
})
