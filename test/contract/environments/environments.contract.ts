/**
 * Environments: listed with their filters, read, created (the slug as GitLab generates it),
 * updated, stopped, and deleted only once stopped; validations and permissions as 13.12's.
 * Default scenario: acme/website (20) has production (1200) and the stopped review/old-footer (1201).
 * Source: gitlab (13.12): lib/api/environments.rb, app/models/environment.rb, entities/environment*.rb.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'
import { generateSlug } from '../../../src/resources/environments/environments.service.js'

contract('environments', {}, ({ api }) => {
  it('lists, filters and reads environments', async () => {
    const list = await api.get('/projects/20/environments', { as: 'riley' })
    expect(list.status).toBe(200)
    expect(list.body.map((e: { id: number; state: string }) => [e.id, e.state])).toEqual([[1200, 'available'], [1201, 'stopped']])
    expect(Object.keys(list.body[0])).toEqual(['id', 'name', 'slug', 'external_url', 'project', 'state'])
    expect(list.body[0]).toMatchObject({ name: 'production', slug: 'production', external_url: 'https://www.acme.example.com' })
    expect(list.body[0].project.path_with_namespace).toBe('acme/website')
    expect((await api.get('/projects/20/environments', { as: 'riley', query: { states: 'stopped' } })).body.map((e: { id: number }) => e.id)).toEqual([1201])
    expect((await api.get('/projects/20/environments', { as: 'riley', query: { search: 'FOOT' } })).body.map((e: { id: number }) => e.id)).toEqual([1201])
    expect((await api.get('/projects/20/environments', { as: 'riley', query: { name: 'production' } })).body.map((e: { id: number }) => e.id)).toEqual([1200])
    expect(await api.get('/projects/20/environments', { as: 'riley', query: { name: 'a', search: 'b' } })).toBeGitLabError(400, { error: 'name, search are mutually exclusive' })
    expect((await api.get('/projects/20/environments/1201', { as: 'riley' })).text).toBe('{"id":1201,"name":"review/old-footer","slug":"review-old-footer-k3x9qa","external_url":null,"last_deployment":null,"state":"stopped"}')
    expect(await api.get('/projects/20/environments/9', { as: 'riley' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('creates with a generated slug, updates, stops and deletes', async () => {
    const made = await api.post('/projects/20/environments', { as: 'devon', body: { name: 'review/Fix Login', external_url: 'https://review.example.com' } })
    expect(made.status).toBe(201)
    expect(made.body.slug).toMatch(/^review-fix-login-[a-z0-9]{6}$/)
    expect(made.body.state).toBe('available')
    const staging = await api.post('/projects/20/environments', { as: 'devon', body: { name: 'staging' } })
    expect(staging.body.slug).toBe('staging')
    const id = made.body.id
    const put = await api.put(`/projects/20/environments/${id}`, { as: 'devon', body: { external_url: 'https://other.example.com' } })
    expect(put.body).toMatchObject({ external_url: 'https://other.example.com', slug: made.body.slug })
    expect(await api.delete(`/projects/20/environments/${id}`, { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
    const stopped = await api.post(`/projects/20/environments/${id}/stop`, { as: 'devon' })
    expect(stopped.status).toBe(200)
    expect(stopped.body.state).toBe('stopped')
    expect((await api.delete(`/projects/20/environments/${id}`, { as: 'devon' })).status).toBe(204)
    expect(await api.get(`/projects/20/environments/${id}`, { as: 'devon' })).toBeGitLabError(404, { message: '404 Not found' })
  })

  it('refuses what the model refuses', async () => {
    expect(await api.post('/projects/20/environments', { as: 'devon', body: { name: 'production' } })).toBeGitLabError(400, { message: { name: ['has already been taken'] } })
    expect(await api.post('/projects/20/environments', { as: 'devon', body: { name: 'bad*name' } })).toBeGitLabError(400, { message: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"] } })
    expect(await api.post('/projects/20/environments', { as: 'devon', body: { name: 'x', external_url: 'ftp://x' } })).toBeGitLabError(400, { message: { external_url: ['is blocked: Only allowed schemes are http, https'] } })
    expect(await api.post('/projects/20/environments', { as: 'devon', body: {} })).toBeGitLabError(400, { error: 'name is missing' })
    expect(await api.put('/projects/20/environments/1200', { as: 'devon', body: { name: 'review/old-footer' } })).toBeGitLabError(400, { message: { name: ['has already been taken'] } })
  })

  it('needs a user, Reporter+ to read and Developer+ to write', async () => {
    expect(await api.get('/projects/20/environments')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/projects/20/environments', { as: 'gina' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/projects/20/environments', { as: 'riley', body: { name: 'x' } })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/projects/21/environments', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

it('generates slugs as Environment#generate_slug does', () => {
  expect(generateSlug('production', 'abcdef')).toBe('production')
  expect(generateSlug('Production', 'abcdef')).toBe('production-abcdef')
  expect(generateSlug('review/fix-login', 'abcdef')).toBe('review-fix-login-abcdef')
  expect(generateSlug('1-foo', 'abcdef')).toBe('env-1-foo-abcdef')
  expect(generateSlug('a-very-long-environment-name', 'x1y2z3')).toBe('a-very-long-envir-x1y2z3')
  expect(generateSlug('foo-', 'abcdef')).toBe('foo')
})
