/**
 * The instance's templates (issue 36 item 4): lists (TemplatesList, paginated: more than 20
 * `.gitlab-ci.yml` templates, as python-gitlab's list-warning tests need), single templates, 404s,
 * and licenses with the License entity and their placeholders filled. Anyone may read them.
 * Source: gitlab (13.12): lib/api/templates.rb, lib/api/entities/license.rb,
 * app/models/license_template.rb; python-gitlab tests/functional/api/test_gitlab.py
 * (test_template_*, test_list_*). Clock frozen at 2021-04-01T12:00:00Z.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('/templates', {}, ({ api }) => {
  it('lists .gitlab-ci.yml templates 20 a page, General then Pages, each by name', async () => {
    const first = await api.get('/templates/gitlab_ci_ymls')
    expect(first.status).toBe(200)
    expect(first.headers.get('x-total')).toBe('21')
    expect(first.headers.get('x-total-pages')).toBe('2')
    expect((first.body as unknown[]).length).toBe(20)
    expect((first.body as { key: string }[]).slice(0, 4)).toEqual([{ key: 'Bash', name: 'Bash' }, { key: 'C++', name: 'C++' }, { key: 'Chef', name: 'Chef' }, { key: 'Clojure', name: 'Clojure' }])
    const second = await api.get('/templates/gitlab_ci_ymls?page=2')
    expect(second.body).toEqual([{ key: 'Pelican', name: 'Pelican' }])
  })

  it.each([
    ['gitlab_ci_ymls', 'Nodejs', 'image: node:latest'],
    ['gitignores', 'Node', 'node_modules/'],
    ['dockerfiles', 'Node', 'FROM node:7.9'],
    ['dockerfiles', 'Golang', 'FROM golang:1.8 AS builder'],
  ])('GET /templates/%s/%s: name and content', async (kind, name, line) => {
    const res = await api.get(`/templates/${kind}/${name}`)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body as object)).toEqual(['name', 'content'])
    expect(res.body.name).toBe(name)
    expect((res.body.content as string).split('\n')).toContain(line)
  })

  it.each([
    ['gitlab_ci_ymls', '404 gitlab_ci_yml Not Found'],
    ['gitignores', '404 gitignore Not Found'],
    ['dockerfiles', '404 dockerfile Not Found'],
    ['licenses', '404 License Not Found'],
  ])('an unknown %s template is 404', async (kind, message) => {
    expect(await api.get(`/templates/${kind}/Nope`, { as: 'devon' })).toBeGitLabError(404, { message })
  })

  it('lists licenses by key, popular ones with popular=true', async () => {
    const all = await api.get('/templates/licenses')
    expect((all.body as { key: string }[]).map((l) => l.key)).toEqual(['apache-2.0', 'bsd-2-clause', 'bsd-3-clause', 'gpl-3.0', 'mit'])
    const popular = await api.get('/templates/licenses?popular=true')
    expect((popular.body as { key: string }[]).map((l) => l.key)).toEqual(['apache-2.0', 'gpl-3.0', 'mit'])
  })

  it('fills a license\'s year, project and full name (python-gitlab test_template_license)', async () => {
    const res = await api.get('/templates/licenses/bsd-2-clause?project=mytestproject&fullname=mytestfullname')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body as object)).toEqual(['key', 'name', 'nickname', 'html_url', 'source_url', 'popular', 'description', 'conditions', 'permissions', 'limitations', 'content'])
    expect(res.body).toMatchObject({ key: 'bsd-2-clause', name: 'BSD 2-Clause "Simplified" License', nickname: null, html_url: 'http://choosealicense.com/licenses/bsd-2-clause/', popular: false, conditions: ['include-copyright'] })
    expect((res.body.content as string).split('\n').slice(0, 3)).toEqual(['BSD 2-Clause License', '', 'Copyright (c) 2021, mytestfullname'])
    // Without `fullname`, the caller's name; `<one line ...>` is the project's name in the GPL.
    const gpl = await api.get('/templates/licenses/gpl-3.0?project=tracker', { as: 'devon' })
    expect(gpl.body.content).toContain('    tracker\n    Copyright (C) 2021  Devon Developer\n')
    // Anonymous and no fullname: the placeholder stays.
    expect((await api.get('/templates/licenses/mit')).body.content).toContain('Copyright (c) 2021 [fullname]\n')
  })
})
