/**
 * The comparison of two answers on its own (src/verify/compare.ts): headers, Link rels, non-JSON
 * bodies, odd keys, and the id map's path renaming.
 */
import { describe, expect, it } from 'vitest'
import { compareAnswers, parseLinkHeader, type AnswerParts, type CompareContext } from '../../src/verify/compare.js'
import { DEFAULT_NORMALISATIONS, IdMap, SecretBindings } from '../../src/verify/normalise.js'

function answer(status: number, headers: Record<string, string>, body?: unknown): AnswerParts {
  return { status, headers: new Map(Object.entries(headers)), body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) }
}

function context(ids = new IdMap()): CompareContext {
  return { kind: 'labels', ids, secrets: new SecretBindings(), origins: { recorded: 'https://gitlab.example.com', simulated: 'http://fakelab.verify' }, normalise: { ...DEFAULT_NORMALISATIONS } }
}

const JSON_TYPE = { 'content-type': 'application/json' }

describe('compareAnswers', () => {
  it('reports a header the simulator lacks, one it adds and one it changes', () => {
    const recorded = answer(200, { ...JSON_TYPE, 'x-total': '3', 'retry-after': '60' }, [])
    const simulated = answer(200, { ...JSON_TYPE, 'x-total': '4', 'x-page': '1' }, [])
    expect(compareAnswers(recorded, simulated, context())).toEqual([
      { path: 'headers.x-total', kind: 'value', recorded: '3', simulated: '4' },
      { path: 'headers.x-page', kind: 'extra', simulated: '1' },
      { path: 'headers.retry-after', kind: 'missing', recorded: '60' },
    ])
  })

  it('compares Link as rels with their path and query parameters, whatever the host and order', () => {
    const recorded = answer(200, { link: '<https://gitlab.example.com/api/v4/projects?page=2&per_page=2>; rel="next", <https://gitlab.example.com/api/v4/projects?page=1&per_page=2>; rel="first"' }, [])
    const same = answer(200, { link: '<http://fakelab.verify/api/v4/projects?per_page=2&page=1>; rel="first", <http://fakelab.verify/api/v4/projects?per_page=2&page=2>; rel="next"' }, [])
    expect(compareAnswers(recorded, same, context())).toEqual([])
    const other = answer(200, { link: '<http://fakelab.verify/api/v4/projects?page=1&per_page=2&sort=asc>; rel="first", <http://fakelab.verify/api/v4/projects?page=4&per_page=2>; rel="last"' }, [])
    expect(compareAnswers(recorded, other, context())).toEqual([
      { path: 'headers.link.next', kind: 'missing', recorded: 'https://gitlab.example.com/api/v4/projects?page=2&per_page=2' },
      { path: 'headers.link.first.sort', kind: 'extra', simulated: 'asc' },
      { path: 'headers.link.last', kind: 'extra', simulated: 'http://fakelab.verify/api/v4/projects?page=4&per_page=2' },
    ])
  })

  it('compares a body that is not JSON as text', () => {
    expect(compareAnswers(answer(200, {}, 'plain'), answer(200, {}, 'plain'), context())).toEqual([])
    expect(compareAnswers(answer(200, {}, 'plain'), answer(200, {}, '{"a":1}'), context())).toEqual([{ path: '$', kind: 'value', recorded: 'plain', simulated: '{"a":1}' }])
  })

  it('writes keys that are not identifiers quoted, and list items by index', () => {
    const diffs = compareAnswers(answer(200, {}, { 'a.b': [1, 2, 3] }), answer(200, {}, { 'a.b': [1, 5] }), context())
    expect(diffs).toEqual([
      { path: '$["a.b"][1]', kind: 'value', recorded: 2, simulated: 5 },
      { path: '$["a.b"][2]', kind: 'missing', recorded: 3 },
    ])
  })

  it('maps a created record\'s id in id fields, <kind>_id fields and URL paths', () => {
    const ids = new IdMap()
    ids.set('labels', 150, 121)
    const recorded = answer(201, {}, { id: 150, label_id: 150, web_url: 'https://gitlab.example.com/api/v4/projects/20/labels/150' })
    const simulated = answer(201, {}, { id: 121, label_id: 121, web_url: 'http://fakelab.verify/api/v4/projects/20/labels/121' })
    expect(compareAnswers(recorded, simulated, context(ids))).toEqual([])
    expect(compareAnswers(recorded, answer(201, {}, { id: 150, label_id: 121, web_url: 'http://fakelab.verify/api/v4/projects/20/labels/121' }), context(ids))).toEqual([
      { path: '$.id', kind: 'value', recorded: 150, simulated: 150 },
    ])
  })
})

describe('IdMap.renamePath', () => {
  it('renames ids after their collection, iids for issues and merge requests', () => {
    const ids = new IdMap()
    ids.set('labels', 150, 121)
    ids.set('issues#iid', 7, 3)
    ids.set('issues', 7, 900)
    expect(ids.renamePath('/api/v4/projects/20/labels/150/subscribe')).toBe('/api/v4/projects/20/labels/121/subscribe')
    expect(ids.renamePath('/api/v4/projects/20/issues/7/notes')).toBe('/api/v4/projects/20/issues/3/notes')
    expect(ids.renamePath('/api/v4/projects/150')).toBe('/api/v4/projects/150')
  })
})

describe('parseLinkHeader', () => {
  it('keeps redaction placeholders readable and splits several rels of one link', () => {
    const links = parseLinkHeader('<https://h/api/v4/user?private_token=[REDACTED-1]&page=1>; rel="first last"')
    expect([...links.keys()]).toEqual(['first', 'last'])
    expect(Object.fromEntries(links.get('last')!.params)).toEqual({ private_token: '[REDACTED-1]', page: '1' })
  })
})
