/**
 * Scenario sections a test may start from (issue 34 items 7 and 8): a project's services, users'
 * starred projects, a fork with its fork link, Pages domains with a certificate, remote mirrors;
 * loaded and read back through the API on both doors, and the scenario checks' texts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { parseScenario } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'pages', name), 'utf8')
const indent = (text: string) => text.trimEnd().split('\n').map((line) => `          ${line}`).join('\n')

const SCENARIO = `
version: 1
now: "2021-04-01T12:00:00.000Z"
users:
  - { id: 1, username: root, admin: true, tokens: [{ token: glpat-root-fakelab, name: default, scopes: [api, sudo] }] }
  - id: 2
    username: max
    name: Max Maintainer
    tokens: [{ token: glpat-max-fakelab, name: default, scopes: [api] }]
    starred_projects: [max/website, { project: max/website-fork, created_at: "2021-03-01T10:00:00.000Z" }]
  - { id: 3, username: nora, tokens: [{ token: glpat-nora-fakelab, name: default, scopes: [api] }], starred_projects: [max/website] }
projects:
  - id: 20
    path: website
    namespace: max
    visibility: public
    services:
      - { slug: asana, properties: { api_key: secret-key, restrict_to_branch: main }, push_events: false }
      - { slug: emails-on-push, active: false }
    pages_domains:
      - domain: www.example.org
        verified: true
        certificate: |
${indent(fixture('self.crt'))}
        key: |
${indent(fixture('self.key'))}
    remote_mirrors:
      - { url: "https://bot:token@mirror.example.net/max/website.git", enabled: true, update_status: failed, last_error: "Remote rejected" }
  - { id: 21, path: website-fork, namespace: max, visibility: public, forked_from: max/website }
`

contract('scenario sections: services, stars, forks, Pages domains, remote mirrors', { scenario: SCENARIO }, ({ api }) => {
  it('loads a project\'s services: active, fields without secrets, event flags', async () => {
    const res = await api.get('/projects/20/services/asana', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ slug: 'asana', active: true, push_events: false, issues_events: true, properties: { restrict_to_branch: 'main' } })
    expect(JSON.stringify(res.body)).not.toContain('secret-key')
    expect((await api.get('/projects/20/services', { as: 'max' })).body.map((s: { slug: string }) => s.slug)).toEqual(['asana'])
  })

  it('loads stars: star_count and the user\'s starred projects', async () => {
    expect((await api.get('/projects/20', { as: 'max' })).body.star_count).toBe(2)
    expect((await api.get('/projects/21', { as: 'max' })).body.star_count).toBe(1)
    const starrers = await api.get('/projects/21/starrers', { as: 'max' })
    expect(starrers.body).toEqual([expect.objectContaining({ starred_since: '2021-03-01T10:00:00.000Z', user: expect.objectContaining({ username: 'max' }) })])
  })

  it('loads a fork link: forked_from_project and the source\'s forks', async () => {
    const fork = await api.get('/projects/21', { as: 'max' })
    expect(fork.body.forked_from_project).toMatchObject({ id: 20, path_with_namespace: 'max/website' })
    expect((await api.get('/projects/20', { as: 'max' })).body.forks_count).toBe(1)
    expect((await api.get('/projects/20/forks', { as: 'max' })).body.map((p: { id: number }) => p.id)).toEqual([21])
  })

  it('loads a Pages domain with its certificate read', async () => {
    const res = await api.get('/projects/20/pages/domains/www.example.org', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ url: 'https://www.example.org', verified: true, certificate: { subject: '/O=Fakelab/CN=www.example.org', expired: false } })
  })

  it('keeps Pages domains, remote mirrors, services, stars and fork links through a state export', async () => {
    expect((await api.post('/projects/21/pages/domains', { as: 'max', body: { domain: 'fork.example.org' } })).status).toBe(201)
    expect((await api.post('/projects/21/remote_mirrors', { as: 'max', body: { url: 'https://example.net/fork.git' } })).status).toBe(201)
    expect((await api.post('/projects/21/star', { as: 'nora' })).status).toBe(201)
    const paths = ['/pages/domains', '/projects/20/pages/domains', '/projects/21/remote_mirrors', '/projects/20/remote_mirrors', '/projects/20/services', '/projects/21', '/projects/20/forks']
    const answers = async () => Promise.all(paths.map(async (path) => (await api.get(path, { as: 'root' })).body))
    const before = await answers()
    const state = await api.get('/-/fakelab/state')
    expect(state.status).toBe(200)
    expect((await api.post('/-/fakelab/reset')).status).toBe(204)
    expect((await api.get('/projects/21/remote_mirrors', { as: 'root' })).body).toEqual([])
    expect((await api.put('/-/fakelab/scenario', { rawBody: state.text, headers: { 'content-type': 'application/yaml' } })).status).toBe(204)
    expect(await answers()).toEqual(before)
  })

  it('loads a remote mirror, its credentials masked', async () => {
    const res = await api.get('/projects/20/remote_mirrors', { as: 'max' })
    expect(res.body).toEqual([expect.objectContaining({ url: 'https://*****:*****@mirror.example.net/max/website.git', enabled: true, update_status: 'failed', last_error: 'Remote rejected' })])
  })
})

it('reports wrong sections with their places', () => {
  const bad = `
version: 1
users:
  - { username: max, starred_projects: [max/nothing] }
projects:
  - path: website
    namespace: max
    forked_from: max/elsewhere
    services:
      - { slug: asana, properties: { colour: red } }
    pages_domains:
      - { domain: www.example.org, certificate: "not a certificate" }
    remote_mirrors:
      - { url: "ftp://example.org/x.git" }
`
  const messages = (() => {
    try {
      parseScenario(bad)
      return ''
    } catch (error) {
      return String((error as Error).message)
    }
  })()
  expect(messages).toContain('unknown project "max/nothing"')
  expect(messages).toContain('unknown project "max/elsewhere"')
  expect(messages).toContain('is no field of asana')
  expect(messages).toContain('an active asana service needs api_key')
  expect(messages).toContain('must be a PEM certificate')
  expect(messages).toContain('certificate and key go together')
  expect(messages).toContain('must be a public ssh, git, http or https URL')
})
