/**
 * `GET|PUT /application/settings` over both doors, and the settings fakelab acts on: new users'
 * projects_limit, new projects' and groups' visibility, new projects' default branch.
 * Source: gitlab: lib/api/settings.rb, lib/api/entities/application_setting.rb,
 * app/models/application_setting_implementation.rb (13.12 defaults); python-gitlab's test_gitlab_settings.
 */
import { expect, it } from 'vitest'
import { createSimulator } from '../../../src/index.js'
import { contract } from '../../support/contract.js'

contract('application settings', {}, ({ api, sim }) => {
  it('answers 13.12\'s defaults in the entity\'s order, then the legacy aliases', async () => {
    const res = await api.get('/application/settings', { as: 'root' })
    expect(res.status).toBe(200)
    const keys = Object.keys(res.body)
    expect(keys.slice(0, 3)).toEqual(['id', 'performance_bar_allowed_group_id', 'admin_mode'])
    expect(keys.slice(-7)).toEqual(['password_authentication_enabled', 'signin_enabled', 'allow_local_requests_from_hooks_and_services', 'asset_proxy_whitelist', 'domain_whitelist', 'domain_blacklist_enabled', 'domain_blacklist'])
    expect(res.body).toMatchObject({
      id: 1, default_projects_limit: 100000, signup_enabled: true, default_branch_protection: 2, restricted_visibility_levels: [],
      max_attachment_size: 10, default_project_visibility: 'private', default_group_visibility: 'private', default_branch_name: null,
      repository_storages_weighted: { default: 100 }, signin_enabled: true, polling_interval_multiplier: 1,
    })
    expect(sim().db.tables.application_setting_values.all()).toEqual([])
  })

  it('changes settings, keeps them, and reads the legacy names', async () => {
    const put = await api.put('/application/settings', { as: 'root', body: { default_projects_limit: 42, signin_enabled: false, restricted_visibility_levels: ['public'], default_project_visibility: 'internal' } })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ default_projects_limit: 42, password_authentication_enabled_for_web: false, signin_enabled: false, restricted_visibility_levels: ['public'], default_project_visibility: 'internal' })
    expect((await api.get('/application/settings', { as: 'root' })).body).toEqual(put.body)
  })

  it.each([
    ['no parameter', {}, 400, (b: { error: string }) => expect(b.error).toMatch(/^admin_mode, after_sign_out_path, .* are missing, at least one parameter must be provided$/)],
    ['a bad visibility', { default_group_visibility: 'secret' }, 400, (b: unknown) => expect(b).toEqual({ error: 'default_group_visibility does not have a valid value' })],
    ['a given without its requirement', { plantuml_enabled: true }, 400, (b: unknown) => expect(b).toEqual({ error: 'plantuml_url is missing' })],
    ['a negative limit', { default_projects_limit: -1, max_attachment_size: 0 }, 400, (b: unknown) => expect(b).toEqual({ message: { default_projects_limit: ['must be greater than or equal to 0'], max_attachment_size: ['must be greater than 0'] } })],
  ])('answers 400 for %s and changes nothing', async (_t, body, status, check) => {
    const res = await api.put('/application/settings', { as: 'root', body })
    expect(res.status).toBe(status)
    check(res.body)
    expect(sim().db.tables.application_setting_values.all()).toEqual([])
  })

  it('is for administrators only', async () => {
    expect(await api.get('/application/settings', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.get('/application/settings')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.put('/application/settings', { as: 'max', body: { signup_enabled: false } })).toBeGitLabError(403, { message: '403 Forbidden' })
  })

  it('takes effect on new users, projects and groups', async () => {
    await api.put('/application/settings', { as: 'root', body: { default_projects_limit: 7, default_project_visibility: 'internal', default_group_visibility: 'public', default_branch_name: 'main' } })
    const user = await api.post('/users', { as: 'root', body: { email: 'new@example.com', username: 'newbie', name: 'New', password: 'secret-pass-1' } })
    expect(user.body.projects_limit).toBe(7)
    const project = await api.post('/projects', { as: 'root', body: { name: 'fresh' } })
    expect(project.body).toMatchObject({ visibility: 'internal', default_branch: 'main' })
    const group = await api.post('/groups', { as: 'root', body: { name: 'fresh-group', path: 'fresh-group' } })
    expect(group.body.visibility).toBe('public')
  })

  it('loads a scenario\'s application_settings, and a state export keeps them', () => {
    const loaded = createSimulator({ scenario: { version: 1, users: [{ username: 'root', admin: true }], application_settings: { default_branch_name: 'trunk', signup_enabled: false } } })
    expect(loaded.db.tables.application_setting_values.get(1)?.values).toMatchObject({ default_branch_name: 'trunk', signup_enabled: false, default_projects_limit: 100000 })
    const again = createSimulator({ scenario: loaded.exportState() })
    expect(again.db.tables.application_setting_values.get(1)).toEqual(loaded.db.tables.application_setting_values.get(1))
    expect(sim().db.tables.application_setting_values.all()).toEqual([])
  })
})
