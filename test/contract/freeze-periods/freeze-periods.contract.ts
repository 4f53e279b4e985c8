/**
 * Deploy freeze periods over both doors. Source: api-spec.md "Freeze period", "Freeze periods";
 * gitlab-behaviour.md §7, §13, §14 items 13 and 18; gitlabhq:spec/requests/api/freeze_periods_spec.rb.
 *
 * Default scenario: website (20, public) has freeze periods 300 (`0 23 * * 5` → `0 7 * * 1`, UTC) and
 * 301 (`0 0 24 12 *` → `0 0 26 12 *`, Europe/Berlin); api (21, private) has 302. Max maintains both
 * through acme; gina/riley/devon are guest/reporter/developer; nora is no member; root is admin.
 * Their timestamps are generated, so expected bodies read them from the store.
 */
import { expect, it } from 'vitest'
import type { FreezePeriodRecord } from '../../../src/resources/freeze-periods/index.js'
import { contract, paginationHeaders, type RequestOptions } from '../../support/contract.js'
import { schemaErrors } from '../../support/schemas.js'

const NOW = '2021-04-01T12:00:00.000Z'
const FIELDS = ['id', 'freeze_start', 'freeze_end', 'cron_timezone', 'created_at', 'updated_at']

/** The entity GitLab presents for a stored freeze period. */
function entity(record: FreezePeriodRecord) {
  return {
    id: record.id,
    freeze_start: record.freeze_start,
    freeze_end: record.freeze_end,
    cron_timezone: record.cron_timezone,
    created_at: record.created_at,
    updated_at: record.updated_at,
  }
}

const UNAUTHORIZED = { message: '401 Unauthorized' }
const FORBIDDEN = { message: '403 Forbidden' }
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' }
const NOT_FOUND = { message: '404 Not found' }

/** Who may call, on which project: [who, project id, status, request options, error body or null]. */
type AuthCase = [string, number, number, RequestOptions, unknown]

/** The Maintainer+ matrix every freeze period route shares; `okStatus` is the route's success. */
function authMatrix(okStatus: number): AuthCase[] {
  return [
    ['anonymous', 20, 401, {}, UNAUTHORIZED],
    ['a guest', 20, 403, { as: 'gina' }, FORBIDDEN],
    ['a reporter', 20, 403, { as: 'riley' }, FORBIDDEN],
    ['a developer', 20, 403, { as: 'devon' }, FORBIDDEN],
    ['a non-member of a public project', 20, 403, { as: 'nora' }, FORBIDDEN],
    ['a non-member of an internal project', 23, 403, { as: 'nora' }, FORBIDDEN],
    ['a non-member of a private project', 21, 404, { as: 'nora' }, PROJECT_NOT_FOUND],
    ['a non-member of another group\'s private project', 24, 404, { as: 'max' }, PROJECT_NOT_FOUND],
    ['a maintainer (through the group)', 20, okStatus, { as: 'max' }, null],
    ['a maintainer of a private subgroup project', 21, okStatus, { as: 'max' }, null],
    ['an owner', 20, okStatus, { as: 'olive' }, null],
    ['an administrator', 20, okStatus, { as: 'root' }, null],
    ['an administrator who is no member of the project', 24, okStatus, { as: 'root' }, null],
    ['a maintainer via sudo', 21, okStatus, { as: 'root', headers: { sudo: 'max' } }, null],
    ['a developer via sudo', 20, 403, { as: 'root', headers: { sudo: 'devon' } }, FORBIDDEN],
  ]
}

contract('GET /projects/:id/freeze_periods', {}, ({ api, sim }) => {
  it('lists the project\'s freeze periods, oldest first, as GitLab\'s schema describes them', async () => {
    const res = await api.get('/projects/20/freeze_periods', { as: 'max' })
    const stored = [300, 301].map((id) => sim().db.tables.freeze_periods.get(id)!)
    stored.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(stored.map(entity))
    expect(Object.keys(res.body[0])).toEqual(FIELDS)
    expect(schemaErrors('public_api/v4/freeze_periods.json', res.body)).toEqual([])
  })

  it('sorts by created_at, not by id, with the id breaking ties', async () => {
    const table = sim().db.tables.freeze_periods
    const base = { project_id: 20, freeze_start: '0 0 * * *', freeze_end: '0 1 * * *', cron_timezone: 'UTC' }
    table.insert({ ...base, id: 900, created_at: '2001-01-01T00:00:00.000Z', updated_at: '2001-01-01T00:00:00.000Z' })
    table.insert({ ...base, id: 800, created_at: '2001-01-01T00:00:00.000Z', updated_at: '2001-01-01T00:00:00.000Z' })
    table.insert({ ...base, id: 700, created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' })
    const res = await api.get('/projects/20/freeze_periods', { as: 'max' })
    const ids = res.body.map((fp: { id: number }) => fp.id)
    expect(ids.slice(0, 2)).toEqual([800, 900])
    expect(ids.at(-1)).toBe(700)
    expect(ids).toHaveLength(5)
  })

  it('lists only that project\'s periods, and [] for a project without any', async () => {
    const api21 = await api.get('/projects/21/freeze_periods', { as: 'max' })
    expect(api21.body.map((fp: { id: number }) => fp.id)).toEqual([302])
    const none = await api.get('/projects/24/freeze_periods', { as: 'olive' })
    expect([none.status, none.body]).toEqual([200, []])
    expect(paginationHeaders(none)).toMatchObject({ 'x-total': '0', 'x-total-pages': '1', 'x-page': '1', 'x-next-page': '' })
  })

  it('finds the project by its URL-encoded path', async () => {
    const res = await api.get('/projects/acme%2Fwebsite/freeze_periods', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(2)
  })

  it('paginates with GitLab\'s headers', async () => {
    const stored = [300, 301].map((id) => sim().db.tables.freeze_periods.get(id)!)
    stored.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
    const res = await api.get('/projects/20/freeze_periods', { as: 'max', query: { per_page: 1, page: 2 } })
    expect(res.body).toEqual([entity(stored[1]!)])
    const url = (page: number) => `${api.baseUrl}/api/v4/projects/20/freeze_periods?id=20&page=${page}&per_page=1`
    expect(paginationHeaders(res)).toEqual({
      'x-page': '2',
      'x-per-page': '1',
      'x-next-page': '',
      'x-prev-page': '1',
      'x-total': '2',
      'x-total-pages': '2',
      link: `<${url(1)}>; rel="prev", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`,
    })
  })

  it('rejects a non-integer page', async () => {
    expect(await api.get('/projects/20/freeze_periods', { as: 'max', query: { page: 'abc' } })).toBeGitLabError(400, { error: 'page is invalid' })
  })

  it('accepts a read_api token for the read', async () => {
    const res = await api.get('/projects/20/freeze_periods', { token: 'glpat-root-readonly' })
    expect(res.status).toBe(200)
  })

  it.each(authMatrix(200))('as %s on project %i → %i', async (_who, projectId, status, options, body) => {
    const res = await api.get(`/projects/${projectId}/freeze_periods`, options)
    if (body) expect(res).toBeGitLabError(status, body)
    else expect([res.status, Array.isArray(res.body)]).toEqual([status, true])
  })
})

contract('GET /projects/:id/freeze_periods/:freeze_period_id', {}, ({ api, sim }) => {
  it('returns the freeze period', async () => {
    const res = await api.get('/projects/20/freeze_periods/301', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...entity(sim().db.tables.freeze_periods.get(301)!), freeze_start: '0 0 24 12 *', cron_timezone: 'Europe/Berlin' })
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(schemaErrors('public_api/v4/freeze_period.json', res.body)).toEqual([])
  })

  it.each([
    ['an unknown id', '/projects/20/freeze_periods/999', 404, NOT_FOUND],
    ['id 0', '/projects/20/freeze_periods/0', 404, NOT_FOUND],
    ['a negative id', '/projects/20/freeze_periods/-1', 404, NOT_FOUND],
    ['a freeze period of another project', '/projects/20/freeze_periods/302', 404, NOT_FOUND],
    ['a non-integer id', '/projects/20/freeze_periods/abc', 400, { error: 'freeze_period_id is invalid' }],
    ['an id with trailing letters', '/projects/20/freeze_periods/300abc', 400, { error: 'freeze_period_id is invalid' }],
    ['an unknown project', '/projects/999/freeze_periods/300', 404, PROJECT_NOT_FOUND],
  ])('answers %s with %i', async (_case, path, status, body) => {
    expect(await api.get(path, { as: 'max' })).toBeGitLabError(status, body)
  })

  it('answers 403 to a non-member of a public project even for a freeze period that does not exist', async () => {
    expect(await api.get('/projects/20/freeze_periods/0', { as: 'nora' })).toBeGitLabError(403, FORBIDDEN)
  })

  it('answers 401 to an anonymous caller before looking at the id', async () => {
    expect(await api.get('/projects/20/freeze_periods/abc')).toBeGitLabError(401, UNAUTHORIZED)
  })

  it.each(authMatrix(200))('as %s on project %i → %i', async (_who, projectId, status, options, body) => {
    const id = projectId === 21 ? 302 : projectId === 20 ? 300 : 0
    const res = await api.get(`/projects/${projectId}/freeze_periods/${id}`, options)
    if (status === 200 && id === 0) {
      // A readable project with no freeze periods: past the role check, the id is what is missing.
      expect(res).toBeGitLabError(404, NOT_FOUND)
      return
    }
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body ?? entity(sim().db.tables.freeze_periods.get(id)!))
  })
})

contract('POST /projects/:id/freeze_periods', {}, ({ api, sim }) => {
  const params = { freeze_start: '0 23 * * 5', freeze_end: '0 7 * * 1', cron_timezone: 'UTC' }

  it('creates a freeze period and answers 201 with it', async () => {
    const before = sim().db.tables.freeze_periods.size
    const res = await api.post('/projects/20/freeze_periods', { as: 'max', body: params })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: expect.any(Number), ...params, created_at: NOW, updated_at: NOW })
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(schemaErrors('public_api/v4/freeze_period.json', res.body)).toEqual([])
    const stored = sim().db.tables.freeze_periods.get(res.body.id)!
    expect(stored).toEqual({ ...res.body, project_id: 20 })
    expect(sim().db.tables.freeze_periods.size).toBe(before + 1)
    expect(res.body.id).toBeGreaterThan(302)
  })

  it('defaults cron_timezone to UTC', async () => {
    const res = await api.post('/projects/20/freeze_periods', { as: 'max', body: { freeze_start: '0 23 * * 5', freeze_end: '0 7 * * 1' } })
    expect([res.status, res.body.cron_timezone]).toEqual([201, 'UTC'])
  })

  it('accepts a form-encoded body', async () => {
    const res = await api.post('/projects/20/freeze_periods', { as: 'max', form: { ...params, cron_timezone: 'Europe/Berlin' } })
    expect([res.status, res.body.cron_timezone]).toEqual([201, 'Europe/Berlin'])
  })

  it('strips whitespace around the cron expressions', async () => {
    const res = await api.post('/projects/20/freeze_periods', { as: 'max', body: { ...params, freeze_start: '  0 23 * * 5 ', freeze_end: '\t0 7 * * 1\n' } })
    expect(res.status).toBe(201)
    expect([res.body.freeze_start, res.body.freeze_end]).toEqual(['0 23 * * 5', '0 7 * * 1'])
  })

  it.each([
    ['six fields (seconds)', { freeze_start: '0 0 23 * * 5' }],
    ['weekday and month names', { freeze_start: '0 23 * DEC fri', freeze_end: '5 4 * * sun' }],
    ['an ActiveSupport zone name', { cron_timezone: 'Eastern Time (US & Canada)' }],
    ['an IANA link', { cron_timezone: 'US/Pacific' }],
    ['a fixed offset', { cron_timezone: '+05:30' }],
  ])('accepts %s', async (_case, override) => {
    const res = await api.post('/projects/20/freeze_periods', { as: 'max', body: { ...params, ...override } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject(override)
  })

  it.each([
    ['both crons missing', {}, 'freeze_start is missing, freeze_end is missing'],
    ['freeze_end missing (GitLab spec)', { freeze_start: '0 23 * * 5', cron_timezone: 'UTC' }, 'freeze_end is missing'],
    ['freeze_start missing', { freeze_end: '0 7 * * 1' }, 'freeze_start is missing'],
    ['freeze_start not a string', { freeze_start: ['0 23 * * 5'], freeze_end: '0 7 * * 1' }, 'freeze_start is invalid'],
  ])('answers 400 with Grape\'s message when %s', async (_case, body, message) => {
    expect(await api.post('/projects/20/freeze_periods', { as: 'max', body })).toBeGitLabError(400, { error: message })
  })

  it.each([
    ['an invalid freeze_end (GitLab spec)', { freeze_end: '0 0 0 * *' }, { freeze_end: [' is invalid syntax'] }],
    ['a cron macro', { freeze_start: '@daily' }, { freeze_start: [' is invalid syntax'] }],
    ['February 30', { freeze_start: '0 0 30 2 *' }, { freeze_start: [' is invalid syntax'] }],
    ['an unknown time zone', { cron_timezone: 'Invalid-zone' }, { cron_timezone: ['syntax is invalid'] }],
    ['a lower-case time zone', { cron_timezone: 'europe/berlin' }, { cron_timezone: ['syntax is invalid'] }],
    ['an empty freeze_start', { freeze_start: '' }, { freeze_start: [' is invalid syntax', "can't be blank"] }],
    ['a blank freeze_end', { freeze_end: '   ' }, { freeze_end: [' is invalid syntax', "can't be blank"] }],
    ['an empty cron_timezone', { cron_timezone: '' }, { cron_timezone: ['syntax is invalid', "can't be blank"] }],
  ])('answers 400 {message: {...}} for %s and stores nothing', async (_case, override, errors) => {
    const before = sim().db.tables.freeze_periods.size
    expect(await api.post('/projects/20/freeze_periods', { as: 'max', body: { ...params, ...override } })).toBeGitLabError(400, { message: errors })
    expect(sim().db.tables.freeze_periods.size).toBe(before)
  })

  it('reports every failing attribute at once, in model order', async () => {
    const res = await api.post('/projects/20/freeze_periods', {
      as: 'max',
      body: { cron_timezone: 'Nowhere/Land', freeze_end: '99 * * * *', freeze_start: 'nope' },
    })
    expect(res).toBeGitLabError(400, {
      message: { freeze_start: [' is invalid syntax'], freeze_end: [' is invalid syntax'], cron_timezone: ['syntax is invalid'] },
    })
    expect(Object.keys(res.body.message)).toEqual(['freeze_start', 'freeze_end', 'cron_timezone'])
  })

  it('validates parameters before looking up the project (400 before 404)', async () => {
    expect(await api.post('/projects/21/freeze_periods', { as: 'nora', body: {} })).toBeGitLabError(400, { error: 'freeze_start is missing, freeze_end is missing' })
  })

  it('authenticates before validating (401 before 400)', async () => {
    expect(await api.post('/projects/20/freeze_periods', { body: {} })).toBeGitLabError(401, UNAUTHORIZED)
  })

  it('refuses a read_api token', async () => {
    const res = await api.post('/projects/20/freeze_periods', { token: 'glpat-root-readonly', body: params })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' })
  })

  it.each(authMatrix(201))('as %s on project %i → %i', async (_who, projectId, status, options, body) => {
    const before = sim().db.tables.freeze_periods.size
    const res = await api.post(`/projects/${projectId}/freeze_periods`, { ...options, body: params })
    if (body) {
      expect(res).toBeGitLabError(status, body)
      expect(sim().db.tables.freeze_periods.size).toBe(before)
    } else {
      expect(res.status).toBe(status)
      expect(res.body).toMatchObject(params)
    }
  })
})

contract('PUT /projects/:id/freeze_periods/:freeze_period_id', {}, ({ api, sim }) => {
  const stored = (id = 300) => sim().db.tables.freeze_periods.get(id)!

  it('updates the given attributes and answers 200 (GitLab spec params)', async () => {
    const before = stored()
    const res = await api.put('/projects/20/freeze_periods/300', { as: 'max', body: { freeze_start: '0 22 * * 5', freeze_end: '5 4 * * sun' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...entity(before), freeze_start: '0 22 * * 5', freeze_end: '5 4 * * sun', updated_at: NOW })
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(schemaErrors('public_api/v4/freeze_period.json', res.body)).toEqual([])
    expect(entity(stored())).toEqual(res.body)
  })

  it('changes only the time zone when only it is given', async () => {
    const res = await api.put('/projects/20/freeze_periods/300', { as: 'max', body: { cron_timezone: 'Asia/Tokyo' } })
    expect(res.body).toMatchObject({ freeze_start: '0 23 * * 5', freeze_end: '0 7 * * 1', cron_timezone: 'Asia/Tokyo', updated_at: NOW })
  })

  it('accepts an empty body (no at-least-one rule) and changes nothing', async () => {
    const before = stored()
    const res = await api.put('/projects/20/freeze_periods/300', { as: 'max' })
    expect([res.status, res.body]).toEqual([200, entity(before)])
    expect(stored()).toEqual(before)
  })

  it('keeps updated_at when the stripped values equal the stored ones', async () => {
    const before = stored()
    const res = await api.put('/projects/20/freeze_periods/300', { as: 'max', body: { freeze_start: ' 0 23 * * 5 ', cron_timezone: 'UTC' } })
    expect([res.status, res.body]).toEqual([200, entity(before)])
  })

  it.each([
    ['an invalid freeze_start (GitLab spec)', { freeze_start: '0 0 0 * *' }, { freeze_start: [' is invalid syntax'] }],
    ['a valid cron with a bad time zone', { freeze_end: '0 8 * * 1', cron_timezone: 'Mars/Olympus' }, { cron_timezone: ['syntax is invalid'] }],
    ['a blank freeze_end', { freeze_end: ' ' }, { freeze_end: [' is invalid syntax', "can't be blank"] }],
  ])('answers 400 for %s and changes nothing', async (_case, body, errors) => {
    const before = stored()
    expect(await api.put('/projects/20/freeze_periods/300', { as: 'max', body })).toBeGitLabError(400, { message: errors })
    expect(stored()).toEqual(before)
  })

  it.each([
    ['an unknown id', '999', 404, NOT_FOUND],
    ['a freeze period of another project', '302', 404, NOT_FOUND],
    // GitLab's PUT declares no type for freeze_period_id: ActiveRecord reads "abc" as 0.
    ['a non-integer id', 'abc', 404, NOT_FOUND],
  ])('answers %s with %i', async (_case, id, status, body) => {
    expect(await api.put(`/projects/20/freeze_periods/${id}`, { as: 'max', body: { freeze_start: '0 1 * * *' } })).toBeGitLabError(status, body)
  })

  it('reads an id with trailing letters by its leading integer, as ActiveRecord does', async () => {
    const res = await api.put('/projects/20/freeze_periods/300abc', { as: 'max', body: { freeze_start: '0 1 * * *' } })
    expect([res.status, res.body.id, res.body.freeze_start]).toEqual([200, 300, '0 1 * * *'])
  })

  it('answers 403 to a non-member of a public project even for a freeze period that does not exist', async () => {
    expect(await api.put('/projects/20/freeze_periods/999', { as: 'nora', body: {} })).toBeGitLabError(403, FORBIDDEN)
  })

  it.each(authMatrix(200))('as %s on project %i → %i', async (_who, projectId, status, options, body) => {
    const id = projectId === 21 ? 302 : projectId === 20 ? 300 : 0
    const before = id ? stored(id) : undefined
    const res = await api.put(`/projects/${projectId}/freeze_periods/${id}`, { ...options, body: { freeze_end: '0 9 * * 1' } })
    if (status === 200 && id === 0) {
      expect(res).toBeGitLabError(404, NOT_FOUND)
      return
    }
    if (body) {
      expect(res).toBeGitLabError(status, body)
      if (before) expect(stored(id)).toEqual(before)
    } else {
      expect(res.status).toBe(status)
      expect(res.body).toMatchObject({ id, freeze_end: '0 9 * * 1' })
    }
  })
})

contract('DELETE /projects/:id/freeze_periods/:freeze_period_id', {}, ({ api, sim }) => {
  it('deletes the freeze period and answers 204 with no body', async () => {
    const res = await api.delete('/projects/20/freeze_periods/300', { as: 'max' })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(sim().db.tables.freeze_periods.get(300)).toBeUndefined()
    expect(await api.get('/projects/20/freeze_periods/300', { as: 'max' })).toBeGitLabError(404, NOT_FOUND)
  })

  it.each([
    ['an unknown id', '/projects/20/freeze_periods/999', 404, NOT_FOUND],
    ['id 0 (GitLab spec)', '/projects/20/freeze_periods/0', 404, NOT_FOUND],
    ['a freeze period of another project', '/projects/20/freeze_periods/302', 404, NOT_FOUND],
    ['a non-integer id', '/projects/20/freeze_periods/abc', 400, { error: 'freeze_period_id is invalid' }],
  ])('answers %s with %i', async (_case, path, status, body) => {
    expect(await api.delete(path, { as: 'max' })).toBeGitLabError(status, body)
    expect(sim().db.tables.freeze_periods.size).toBe(3)
  })

  it('answers 412 when If-Unmodified-Since is older than the last update, and keeps the record', async () => {
    const updated = new Date(sim().db.tables.freeze_periods.get(300)!.updated_at)
    const stale = new Date(updated.getTime() - 60_000).toUTCString()
    const res = await api.delete('/projects/20/freeze_periods/300', { as: 'max', headers: { 'if-unmodified-since': stale } })
    expect(res).toBeGitLabError(412, { message: '412 Precondition Failed' })
    expect(sim().db.tables.freeze_periods.get(300)).toBeDefined()
  })

  it('deletes when If-Unmodified-Since is not older than the last update', async () => {
    const res = await api.delete('/projects/20/freeze_periods/300', { as: 'max', headers: { 'if-unmodified-since': new Date(NOW).toUTCString() } })
    expect(res.status).toBe(204)
  })

  it.each(authMatrix(204))('as %s on project %i → %i', async (_who, projectId, status, options, body) => {
    const id = projectId === 21 ? 302 : projectId === 20 ? 300 : 0
    const res = await api.delete(`/projects/${projectId}/freeze_periods/${id}`, options)
    if (status === 204 && id === 0) {
      expect(res).toBeGitLabError(404, NOT_FOUND)
      return
    }
    if (body) {
      expect(res).toBeGitLabError(status, body)
      if (id) expect(sim().db.tables.freeze_periods.get(id)).toBeDefined()
    } else {
      expect(res.status).toBe(status)
      expect(sim().db.tables.freeze_periods.get(id)).toBeUndefined()
    }
  })
})
