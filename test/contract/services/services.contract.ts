/**
 * Project services (integrations) over both doors (lib/api/services.rb, 13.12): PUT sets a service
 * and activates it (`ProjectService`, secrets never shown), GET lists the active ones
 * (`ProjectServiceBasic`), GET one (404 `Service Not Found` before the first PUT), DELETE clears and
 * deactivates it; Grape's 400 for a missing required field, the model's 400 for a blank one, an
 * unknown slug; the same answers under `/integrations`. Who may call: test/authz/authorization.test.ts.
 * Default scenario: project 20 acme/website (max maintains it).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const NOW = '2021-04-01T12:00:00.000Z'

const FLAGS = {
  commit_events: true, push_events: true, issues_events: true, confidential_issues_events: true, merge_requests_events: true,
  tag_push_events: true, note_events: true, confidential_note_events: true, pipeline_events: false, wiki_page_events: true,
  job_events: false, comment_on_event_enabled: true,
}

contract('project services', {}, ({ api, sim }) => {
  it.each(['services', 'integrations'])('sets, lists, reads and clears a service under /%s', async (prefix) => {
    expect(await api.get(`/projects/20/${prefix}/asana`, { as: 'max' })).toMatchObject({ status: 404, body: { message: '404 Service Not Found' } })
    const put = await api.put(`/projects/20/${prefix}/asana`, { as: 'max', body: { api_key: 'secret-key', restrict_to_branch: 'main', push_events: 'false' } })
    expect(put.status).toBe(200)
    const id = put.body.id
    expect(put.body).toEqual({
      id, title: 'Asana', slug: 'asana', created_at: NOW, updated_at: NOW, active: true, ...FLAGS, push_events: false,
      properties: { restrict_to_branch: 'main' },
    })
    expect(Object.keys(put.body)).toEqual(['id', 'title', 'slug', 'created_at', 'updated_at', 'active', ...Object.keys(FLAGS), 'properties'])
    expect(sim().db.tables.services.get(id)!.properties.api_key).toBe('secret-key')

    const list = await api.get(`/projects/20/${prefix}`, { as: 'max' })
    expect(list.status).toBe(200)
    const { properties: _p, ...basic } = put.body
    expect(list.body).toEqual([basic])
    expect((await api.get(`/projects/20/${prefix}/asana`, { as: 'max' })).body).toEqual(put.body)

    expect((await api.delete(`/projects/20/${prefix}/asana`, { as: 'max' })).status).toBe(204)
    const after = await api.get(`/projects/20/${prefix}/asana`, { as: 'max' })
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ id, active: false, properties: { restrict_to_branch: null } })
    expect((await api.get(`/projects/20/${prefix}`, { as: 'max' })).body).toEqual([])
  })

  it('shows a data-fields service\'s every field but its password', async () => {
    const res = await api.put('/projects/20/services/jira', { as: 'max', body: { url: 'https://jira.example.com', username: 'bot', password: 'pw' } })
    expect(res.status).toBe(200)
    expect(res.body.title).toBe('Jira')
    expect(res.body.properties).toEqual({ url: 'https://jira.example.com', api_url: null, username: 'bot', jira_issue_transition_automatic: null, jira_issue_transition_id: null })
  })

  it('answers emails-on-push as python-gitlab sets it', async () => {
    const res = await api.put('/projects/20/integrations/emails-on-push', { as: 'max', form: { recipients: 'email@example.com', disable_diffs: 'true' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ slug: 'emails-on-push', title: 'Emails on push', active: true, properties: { recipients: 'email@example.com', disable_diffs: true } })
  })

  it.each([
    ['a missing required field', '/projects/20/services/bamboo', { bamboo_url: 'https://b.example.com', username: 'u' }, 400, { error: 'build_key is missing, password is missing' }],
    ['a blank required field', '/projects/20/services/asana', { api_key: '' }, 400, { message: '400 Bad Request' }],
    ['a wrongly typed field', '/projects/20/services/irker', { recipients: 'a', server_port: 'x' }, 400, { error: 'server_port is invalid' }],
  ])('refuses %s and stores nothing', async (_what, path, body, status, error) => {
    const res = await api.put(path, { as: 'max', body })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(error)
    expect(sim().db.tables.services.all()).toEqual([])
  })

  it('refuses an unknown slug on GET and DELETE, and has no PUT route for it', async () => {
    expect(await api.get('/projects/20/services/nope', { as: 'max' })).toMatchObject({ status: 400, body: { error: 'slug does not have a valid value' } })
    expect(await api.delete('/projects/20/integrations/nope', { as: 'max' })).toMatchObject({ status: 400, body: { error: 'slug does not have a valid value' } })
    expect(await api.put('/projects/20/services/nope', { as: 'max', body: {} })).toMatchObject({ status: 404, body: { error: '404 Not Found' } })
  })

  it('authorizes before validating: a developer gets 403 for a PUT without its fields', async () => {
    expect(await api.put('/projects/20/services/asana', { as: 'devon', body: {} })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
  })

  it('creates an inactive service on a DELETE of one never set', async () => {
    expect((await api.delete('/projects/20/services/slack', { as: 'max' })).status).toBe(204)
    expect((await api.get('/projects/20/services/slack', { as: 'max' })).body).toMatchObject({ active: false, slug: 'slack' })
  })
})
