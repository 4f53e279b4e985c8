/**
 * The templates a project may use, over both doors. Source: gitlab: lib/api/project_templates.rb,
 * app/finders/template_finder.rb, lib/gitlab/template/finders/repo_template_finder.rb,
 * spec/requests/api/project_templates_spec.rb, doc/api/project_templates.md (13.12).
 *
 * Default scenario: website (20, public) with a repository on `main`; api (21, private). Nora is no
 * member; devon is a developer; the clock reads 2021.
 */
import { expect, it } from 'vitest'
import { contract, paginationHeaders, type Api } from '../../support/contract.js'

/** Commits issue and merge request templates to website's default branch. */
async function addDescriptionTemplates(api: Api): Promise<void> {
  const res = await api.post('/projects/20/repository/commits', {
    as: 'max',
    body: {
      branch: 'main',
      commit_message: 'Description templates',
      actions: [
        { action: 'create', file_path: '.gitlab/issue_templates/Bug.md', content: '## Steps to reproduce\n' },
        { action: 'create', file_path: '.gitlab/issue_templates/Feature request.md', content: '## Idea\n' },
        { action: 'create', file_path: '.gitlab/issue_templates/notes.txt', content: 'not a template\n' },
        { action: 'create', file_path: '.gitlab/issue_templates/deeper/Nested.md', content: 'not listed\n' },
        { action: 'create', file_path: '.gitlab/merge_request_templates/Default.md', content: '## What does this MR do?\n' },
      ],
    },
  })
  expect(res.status).toBe(201)
}

contract('GET /projects/:id/templates/:type', {}, ({ api }) => {
  it('lists the instance\'s templates of a type as TemplatesList, anonymous callers too', async () => {
    const [project, instance] = await Promise.all([api.get('/projects/20/templates/gitignores'), api.get('/templates/gitignores', { query: { per_page: 100 } })])
    expect(project.status).toBe(200)
    expect(project.body).toEqual(instance.body.slice(0, 20))
    expect(Object.keys(project.body[0])).toEqual(['key', 'name'])
  })

  it('lists licenses by key and name', async () => {
    const res = await api.get('/projects/20/templates/licenses', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toContainEqual({ key: 'mit', name: 'MIT License' })
    expect(Object.keys(res.body[0])).toEqual(['key', 'name'])
  })

  it('lists the repository\'s issue templates: .md files directly in the folder, by name', async () => {
    expect((await api.get('/projects/20/templates/issues', { as: 'devon' })).body).toEqual([])
    await addDescriptionTemplates(api)
    const res = await api.get('/projects/20/templates/issues', { as: 'devon' })
    expect(res.body).toEqual([{ key: 'Bug', name: 'Bug' }, { key: 'Feature request', name: 'Feature request' }])
    expect(paginationHeaders(res)).toMatchObject({ 'x-total': '2' })
    expect((await api.get('/projects/20/templates/merge_requests', { as: 'devon' })).body).toEqual([{ key: 'Default', name: 'Default' }])
  })

  it('answers 400 for an unknown type', async () => {
    const res = await api.get('/projects/20/templates/recipes', { as: 'devon' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'type does not have a valid value' })
  })

  it('answers 404 for a private project the caller cannot read', async () => {
    expect(await api.get('/projects/21/templates/licenses', { as: 'nora' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(await api.get('/projects/21/templates/licenses')).toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})

contract('GET /projects/:id/templates/:type/:name', {}, ({ api }) => {
  it('shows an instance template as Template', async () => {
    const [project, instance] = await Promise.all([api.get('/projects/20/templates/dockerfiles/Node'), api.get('/templates/dockerfiles/Node')])
    expect(project.status).toBe(200)
    expect(project.body).toEqual(instance.body)
    expect(Object.keys(project.body)).toEqual(['name', 'content'])
  })

  it('fills a license\'s placeholders from project and fullname, the caller\'s name by default', async () => {
    const filled = await api.get('/projects/20/templates/licenses/mit', { as: 'devon', query: { project: 'Website', fullname: 'Acme Inc.' } })
    expect(filled.status).toBe(200)
    expect(filled.body.key).toBe('mit')
    expect(filled.body.content).toContain('Copyright (c) 2021 Acme Inc.')
    const byDefault = await api.get('/projects/20/templates/licenses/mit', { as: 'devon' })
    expect(byDefault.body.content).toContain('Copyright (c) 2021 Devon Developer')
  })

  it('shows a repository issue template', async () => {
    await addDescriptionTemplates(api)
    const res = await api.get('/projects/20/templates/issues/Bug', { as: 'devon' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ name: 'Bug', content: '## Steps to reproduce\n' })
  })

  it.each([
    ['an unknown instance template', '/projects/20/templates/dockerfiles/Cobol'],
    ['an unknown license', '/projects/20/templates/licenses/wtfpl'],
    ['an unknown issue template', '/projects/20/templates/issues/Bug'],
  ])('answers 404 Template for %s', async (_what, path) => {
    expect(await api.get(path, { as: 'devon' })).toBeGitLabError(404, { message: '404 Template Not Found' })
  })
})
