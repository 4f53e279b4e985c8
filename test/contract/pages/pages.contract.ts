/**
 * Pages domains and unpublishing over both doors. Source: gitlab: lib/api/pages_domains.rb,
 * lib/api/pages.rb, lib/api/entities/pages_domain*.rb, app/models/pages_domain.rb,
 * spec/requests/api/pages_domains_spec.rb (13.12).
 *
 * Default scenario: website (20, public) has www.acme.test (id 1, verified, no certificate); api
 * (21, private) has docs.acme.test (id 2). Max maintains both; devon is a developer; nora no member;
 * root is admin. Certificates: test/fixtures/pages (README there).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { contract, paginationHeaders } from '../../support/contract.js'

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'pages', name), 'utf8')
const SELF_CRT = fixture('self.crt')
const SELF_KEY = fixture('self.key')
const OLD_CRT = fixture('old.crt')
const OLD_KEY = fixture('old.key')
const LEAF_CRT = fixture('leaf.crt')
const LEAF_KEY = fixture('leaf.key')
const CA_CRT = fixture('ca.crt')

const WWW = {
  domain: 'www.acme.test',
  url: 'http://www.acme.test',
  verified: true,
  verification_code: 'gitlab-pages-verification-code=0123456789abcdef0123456789abcdef',
  enabled_until: '2021-04-08T12:00:00.000Z',
  auto_ssl_enabled: false,
}
const FIELDS = ['domain', 'url', 'verified', 'verification_code', 'enabled_until', 'auto_ssl_enabled']

contract('GET /pages/domains', {}, ({ api }) => {
  it('lists every domain of the instance for an administrator, with project_id (PagesDomainBasic)', async () => {
    const res = await api.get('/pages/domains', { as: 'root' })
    expect(res.status).toBe(200)
    expect(res.body.map((d: { domain: string }) => d.domain)).toEqual(['www.acme.test', 'docs.acme.test'])
    expect(Object.keys(res.body[0])).toEqual(['domain', 'url', 'project_id', 'verified', 'verification_code', 'enabled_until', 'auto_ssl_enabled'])
    expect(res.body[0]).toEqual({ ...WWW, project_id: 20 })
    expect(res.body[1]).toMatchObject({ domain: 'docs.acme.test', project_id: 21, verified: false, enabled_until: null })
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '2', 'x-page': '1' })
  })

  it('shows certificate_expiration when a certificate is stored', async () => {
    await api.post('/projects/20/pages/domains', { as: 'max', body: { domain: 'www.example.org', certificate: SELF_CRT, key: SELF_KEY } })
    const res = await api.get('/pages/domains', { as: 'root' })
    expect(res.body[2].certificate_expiration).toEqual({ expired: false, expiration: '2030-01-01T00:00:00.000Z' })
    expect(Object.keys(res.body[2]).at(-1)).toBe('certificate_expiration')
  })

  it.each([
    ['anonymous', {}, 401, '401 Unauthorized'],
    ['a maintainer', { as: 'max' }, 403, '403 Forbidden'],
  ])('refuses %s', async (_who, options, status, message) => {
    await expect(await api.get('/pages/domains', options)).toBeGitLabError(status, { message })
  })
})

contract('GET /projects/:id/pages/domains', {}, ({ api }) => {
  it('lists the project\'s domains by name (PagesDomain)', async () => {
    await api.post('/projects/20/pages/domains', { as: 'max', body: { domain: 'a.acme.test' } })
    const res = await api.get('/projects/20/pages/domains', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body.map((d: { domain: string }) => d.domain)).toEqual(['a.acme.test', 'www.acme.test'])
    expect(res.body[1]).toEqual(WWW)
    expect(Object.keys(res.body[1])).toEqual(FIELDS)
  })

  it.each([
    ['anonymous', 20, {}, 401, '401 Unauthorized'],
    ['a developer', 20, { as: 'devon' }, 403, '403 Forbidden'],
    ['a non-member of a public project', 20, { as: 'nora' }, 403, '403 Forbidden'],
    ['a non-member of a private project', 21, { as: 'nora' }, 404, '404 Project Not Found'],
  ])('refuses %s', async (_who, id, options, status, message) => {
    await expect(await api.get(`/projects/${id}/pages/domains`, options)).toBeGitLabError(status, { message })
  })
})

contract('GET /projects/:id/pages/domains/:domain', {}, ({ api }) => {
  it('shows one domain', async () => {
    const res = await api.get('/projects/20/pages/domains/www.acme.test', { as: 'max' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(WWW)
  })

  it('answers 404 PagesDomain for another project\'s domain and for a case variant', async () => {
    await expect(await api.get('/projects/20/pages/domains/docs.acme.test', { as: 'max' })).toBeGitLabError(404, { message: '404 PagesDomain Not Found' })
    await expect(await api.get('/projects/20/pages/domains/WWW.acme.test', { as: 'max' })).toBeGitLabError(404, { message: '404 PagesDomain Not Found' })
  })
})

contract('POST /projects/:id/pages/domains', {}, ({ api, sim }) => {
  it('creates an unverified domain with a verification code', async () => {
    const res = await api.post('/projects/20/pages/domains', { as: 'max', body: { domain: 'new.acme.test' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(FIELDS)
    expect(res.body).toMatchObject({ domain: 'new.acme.test', url: 'http://new.acme.test', verified: false, enabled_until: null, auto_ssl_enabled: false })
    expect(res.body.verification_code).toMatch(/^gitlab-pages-verification-code=[0-9a-f]{32}$/)
  })

  it('stores a certificate and key (multipart files too) and shows the certificate', async () => {
    const form = new FormData()
    form.append('domain', 'www.example.org')
    form.append('certificate', new File([SELF_CRT], 'cert.pem'))
    form.append('key', new File([SELF_KEY], 'key.pem'))
    form.append('auto_ssl_enabled', 'false')
    const res = await api.post('/projects/20/pages/domains', { as: 'max', multipart: form })
    expect(res.status).toBe(201)
    expect(res.body.url).toBe('https://www.example.org')
    expect(Object.keys(res.body.certificate)).toEqual(['subject', 'expired', 'certificate', 'certificate_text'])
    expect(res.body.certificate).toMatchObject({ subject: '/O=Fakelab/CN=www.example.org', expired: false, certificate: SELF_CRT })
    expect(res.body.certificate.certificate_text).toContain('Not After : Jan  1 00:00:00 2030 GMT')
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY')
  })

  it('marks an expired certificate', async () => {
    const res = await api.post('/projects/20/pages/domains', { as: 'max', body: { domain: 'old.example.org', certificate: OLD_CRT, key: OLD_KEY } })
    expect(res.status).toBe(201)
    expect(res.body.certificate.expired).toBe(true)
  })

  it.each([
    ['a duplicate domain, case-insensitively', { domain: 'WWW.acme.test' }, { domain: ['has already been taken'] }],
    ['an invalid host name', { domain: 'bad_host.-x' }, { domain: ['contains invalid characters (valid characters: [a-z0-9\\-])', 'begins or ends with hyphen'] }],
    ['a subdomain of the Pages host', { domain: 'group.example.com' }, { domain: ['Subdomains of the Pages root domain example.com are reserved and cannot be used as custom Pages domains.'] }],
    ['an invalid certificate', { domain: 'c.acme.test', certificate: 'nope', key: SELF_KEY }, { certificate: ['must be a valid PEM certificate', 'misses intermediates'], key: ["doesn't match the certificate"] }],
    ['an invalid key', { domain: 'c.acme.test', certificate: SELF_CRT, key: 'nope' }, { key: ['must be a valid PEM private key', "doesn't match the certificate"] }],
    ['a key of another certificate', { domain: 'c.acme.test', certificate: SELF_CRT, key: OLD_KEY }, { key: ["doesn't match the certificate"] }],
    ['a certificate without its intermediates', { domain: 'leaf.example.org', certificate: LEAF_CRT, key: LEAF_KEY }, { certificate: ['misses intermediates'] }],
    ['a chain that reaches no trusted root', { domain: 'leaf.example.org', certificate: LEAF_CRT + CA_CRT, key: LEAF_KEY }, { certificate: ['misses intermediates'] }],
  ])('answers 400 for %s and stores nothing', async (_what, body, message) => {
    const before = sim().db.tables.pages_domains.all().length
    const res = await api.post('/projects/20/pages/domains', { as: 'max', body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message })
    expect(sim().db.tables.pages_domains.all().length).toBe(before)
  })

  it.each([
    ['no domain', {}, 'domain is missing'],
    ['a certificate without a key', { domain: 'c.acme.test', certificate: SELF_CRT }, 'certificate, key provide all or none of parameters'],
  ])('answers Grape\'s 400 for %s', async (_what, body, error) => {
    const res = await api.post('/projects/20/pages/domains', { as: 'max', body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
  })

  it('answers 403 to a developer', async () => {
    await expect(await api.post('/projects/20/pages/domains', { as: 'devon', body: { domain: 'd.acme.test' } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('PUT /projects/:id/pages/domains/:domain', {}, ({ api }) => {
  it('adds a certificate and key, then a new certificate alone keeps the key', async () => {
    await api.post('/projects/20/pages/domains', { as: 'max', body: { domain: 'www.example.org' } })
    const res = await api.put('/projects/20/pages/domains/www.example.org', { as: 'max', body: { certificate: SELF_CRT, key: SELF_KEY } })
    expect(res.status).toBe(200)
    expect(res.body.certificate.subject).toBe('/O=Fakelab/CN=www.example.org')
    const again = await api.put('/projects/20/pages/domains/www.example.org', { as: 'max', body: { certificate: SELF_CRT } })
    expect(again.status).toBe(200)
    expect(again.body.url).toBe('https://www.example.org')
  })

  it('sets auto_ssl_enabled', async () => {
    const res = await api.put('/projects/20/pages/domains/www.acme.test', { as: 'max', body: { auto_ssl_enabled: true } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...WWW, auto_ssl_enabled: true })
  })

  it('answers 400 for a key that does not match and changes nothing', async () => {
    const res = await api.put('/projects/20/pages/domains/www.acme.test', { as: 'max', body: { certificate: SELF_CRT, key: OLD_KEY } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { key: ["doesn't match the certificate"] } })
    expect((await api.get('/projects/20/pages/domains/www.acme.test', { as: 'max' })).body).toEqual(WWW)
  })

  it('answers 404 for an unknown domain', async () => {
    await expect(await api.put('/projects/20/pages/domains/none.acme.test', { as: 'max', body: { auto_ssl_enabled: true } })).toBeGitLabError(404, { message: '404 PagesDomain Not Found' })
  })
})

contract('DELETE /projects/:id/pages/domains/:domain', {}, ({ api }) => {
  it('deletes the domain (204), then it is gone', async () => {
    const res = await api.delete('/projects/20/pages/domains/www.acme.test', { as: 'max' })
    expect(res.status).toBe(204)
    await expect(await api.get('/projects/20/pages/domains/www.acme.test', { as: 'max' })).toBeGitLabError(404, { message: '404 PagesDomain Not Found' })
  })

  it('answers 403 to a developer', async () => {
    await expect(await api.delete('/projects/20/pages/domains/www.acme.test', { as: 'devon' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})

contract('DELETE /projects/:id/pages', {}, ({ api }) => {
  it('unpublishes the site: an administrator\'s 204 removes the project\'s domains', async () => {
    const res = await api.delete('/projects/20/pages', { as: 'root' })
    expect(res.status).toBe(204)
    expect((await api.get('/projects/20/pages/domains', { as: 'max' })).body).toEqual([])
    expect((await api.get('/projects/21/pages/domains', { as: 'max' })).body).toHaveLength(1)
  })

  it.each([
    ['anonymous', {}, 401, '401 Unauthorized'],
    ['a maintainer (administrators only)', { as: 'max' }, 403, '403 Forbidden'],
  ])('refuses %s', async (_who, options, status, message) => {
    await expect(await api.delete('/projects/20/pages', options)).toBeGitLabError(status, { message })
  })

  it('answers 404 for an unknown project', async () => {
    await expect(await api.delete('/projects/999/pages', { as: 'root' })).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})
