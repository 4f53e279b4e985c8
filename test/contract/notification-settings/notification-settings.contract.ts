/**
 * Notification settings over both doors: global, and the group/project twins (one body run per
 * source type). Source: api-spec.md "Notification settings", "Events"; gitlab-behaviour.md §10,
 * §14 items 6, 21; gitlab: lib/api/notification_settings.rb, lib/api/entities/notification_setting.rb,
 * global_notification_setting.rb, app/models/notification_setting.rb,
 * spec/requests/api/notification_settings_spec.rb.
 *
 * Default scenario: nadia (60) has primary nadia@example.com, confirmed nadia@work.example.com and
 * unconfirmed nadia@old.example.com; global `watch` to her work address; group acme (10) `custom`
 * (new_note true, new_issue false, new_epic true); project acme/website (20) `disabled`; project
 * acme/handbook (23) `custom` (failed_pipeline false, moved_project false). Nobody else has settings.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

/** `NotificationSetting::EMAIL_EVENTS` of 13.x CE, in order. */
const EVENTS = [
  'new_release', 'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due',
  'new_merge_request', 'push_to_merge_request', 'reopen_merge_request', 'close_merge_request',
  'reassign_merge_request', 'change_reviewer_merge_request', 'merge_merge_request', 'failed_pipeline',
  'fixed_pipeline', 'success_pipeline', 'moved_project', 'merge_when_pipeline_succeeds',
]

/**
 * Events of a setting whose flags were never written: false (the spec's boolean; 13.x shows null,
 * gitlab-behaviour.md §14 item 21, issue 23 item 9), except the model's and the database's defaults.
 */
function untouched(overrides: Record<string, boolean> = {}, extra: string[] = []): Record<string, boolean> {
  const out: Record<string, boolean> = {}
  for (const event of [...EVENTS, ...extra]) out[event] = false
  Object.assign(out, { failed_pipeline: true, fixed_pipeline: true, moved_project: true, merge_when_pipeline_succeeds: false })
  return Object.assign(out, overrides)
}

const UNAUTHORIZED = { message: '401 Unauthorized' }

contract('GET /notification_settings', {}, ({ api }) => {
  it('returns the stored global level and notification email', async () => {
    const res = await api.get('/notification_settings', { as: 'nadia' })
    expect([res.status, res.text]).toEqual([200, '{"level":"watch","notification_email":"nadia@work.example.com"}'])
  })

  it('starts at participating with the primary email for a user who never chose', async () => {
    const res = await api.get('/notification_settings', { as: 'devon' })
    expect([res.status, res.body]).toEqual([200, { level: 'participating', notification_email: 'devon@example.com' }])
  })

  it('returns 401 for an anonymous caller', async () => {
    expect(await api.get('/notification_settings')).toBeGitLabError(401, UNAUTHORIZED)
  })
})

contract('PUT /notification_settings', {}, ({ api, sim }) => {
  it('shows events after level and before notification_email once the level is custom, never-set flags false', async () => {
    const res = await api.put('/notification_settings', { as: 'devon', body: { level: 'custom' } })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['level', 'events', 'notification_email'])
    expect(res.body).toEqual({ level: 'custom', events: untouched(), notification_email: 'devon@example.com' })
    expect(Object.keys(res.body.events)).toEqual(EVENTS)
  })

  it('stores flags (form-encoded booleans too) and a GET then shows them', async () => {
    const res = await api.put('/notification_settings', {
      as: 'nadia',
      form: { level: 'custom', new_note: 'true', failed_pipeline: 'false', merge_when_pipeline_succeeds: '1' },
    })
    const events = untouched({ new_note: true, failed_pipeline: false, merge_when_pipeline_succeeds: true })
    expect([res.status, res.body]).toEqual([200, { level: 'custom', events, notification_email: 'nadia@work.example.com' }])
    expect((await api.get('/notification_settings', { as: 'nadia' })).body).toEqual(res.body)
  })

  it('keeps flags while the level is not custom, and shows them again when it is', async () => {
    await api.put('/notification_settings', { as: 'devon', body: { level: 'watch', new_issue: true } })
    expect((await api.get('/notification_settings', { as: 'devon' })).body).toEqual({ level: 'watch', notification_email: 'devon@example.com' })
    const res = await api.put('/notification_settings', { as: 'devon', body: { level: 'custom' } })
    expect(res.body.events.new_issue).toBe(true)
  })

  it.each([
    ['a confirmed secondary email', 'nadia@work.example.com', 'nadia@work.example.com'],
    ['the primary email', 'nadia@example.com', 'nadia@example.com'],
    ['an empty value (back to the primary email)', '', 'nadia@example.com'],
  ])('sets notification_email to %s', async (_name, email, shown) => {
    const res = await api.put('/notification_settings', { as: 'nadia', body: { notification_email: email } })
    expect([res.status, res.body]).toEqual([200, { level: 'watch', notification_email: shown }])
  })

  it.each([
    ['an unknown level', { level: 'loud' }, { message: "'loud' is not a valid level" }],
    ['a level in the wrong case', { level: 'Watch' }, { message: "'Watch' is not a valid level" }],
    ['a blank level', { level: '' }, { message: { level: ["can't be blank"] } }],
    ['an unconfirmed email', { notification_email: 'nadia@old.example.com' }, { message: { notification_email: ['is not an email you own'] } }],
    ['someone else\'s email', { notification_email: 'devon@example.com' }, { message: { notification_email: ['is not an email you own'] } }],
    ['a malformed email', { notification_email: 'not-an-email' }, { message: { notification_email: ['is invalid', 'is not an email you own'] } }],
    ['a bad level and a bad email (the level enum fails first)', { level: 'loud', notification_email: 'x@y.z' }, { message: "'loud' is not a valid level" }],
    ['a flag that is no boolean', { new_note: 'maybe' }, { error: 'new_note is invalid' }],
  ])('answers %s with 400 and changes nothing', async (_name, body, error) => {
    const before = JSON.stringify(sim().db.dump())
    expect(await api.put('/notification_settings', { as: 'nadia', body })).toBeGitLabError(400, error)
    expect(JSON.stringify(sim().db.dump())).toBe(before)
  })

  it('ignores new_epic, a group-only event', async () => {
    const res = await api.put('/notification_settings', { as: 'devon', body: { level: 'custom', new_epic: true } })
    expect(Object.keys(res.body.events)).toEqual(EVENTS)
  })

  it('returns 401 for an anonymous caller', async () => {
    expect(await api.put('/notification_settings', { body: { level: 'watch' } })).toBeGitLabError(401, UNAUTHORIZED)
  })
})

/** What differs between the twins: fixtures, the not-found word, and the extra group event. */
const TWINS = {
  group: { plural: 'groups', readable: 10, custom: 10, disabled: null, private: 11, notFound: '404 Group Not Found', extra: ['new_epic'] },
  project: { plural: 'projects', readable: 20, custom: 23, disabled: 20, private: 21, notFound: '404 Project Not Found', extra: [] as string[] },
} as const

for (const [sourceType, twin] of Object.entries(TWINS)) {
  const path = (id: number | string) => `/${twin.plural}/${id}/notification_settings`
  const customEvents =
    sourceType === 'group'
      ? untouched({ new_note: true, new_issue: false, new_epic: true }, ['new_epic'])
      : untouched({ failed_pipeline: false, moved_project: false })

  contract(`GET /${twin.plural}/:id/notification_settings`, {}, ({ api }) => {
    it(`starts at global for a ${sourceType} the user never chose for`, async () => {
      const res = await api.get(path(twin.readable), { as: 'devon' })
      expect([res.status, res.text]).toEqual([200, '{"level":"global"}'])
    })

    it('shows events only at level custom, never-set flags false', async () => {
      const res = await api.get(path(twin.custom), { as: 'nadia' })
      expect([res.status, res.body]).toEqual([200, { level: 'custom', events: customEvents }])
      expect(Object.keys(res.body.events)).toEqual([...EVENTS, ...twin.extra])
    })

    if (twin.disabled !== null) {
      it('shows a stored level', async () => {
        expect((await api.get(path(twin.disabled), { as: 'nadia' })).body).toEqual({ level: 'disabled' })
      })
    }

    it('takes the :id of the path over a stray id parameter (python-gitlab sends one)', async () => {
      const res = await api.get(path(twin.custom), { as: 'nadia', query: { id: '<built-in function id>' } })
      expect([res.status, res.body.level]).toEqual([200, 'custom'])
    })

    it.each([
      ['a private one the caller cannot read', twin.private, 'nora'],
      ['an unknown one', 9999, 'nadia'],
    ])(`returns 404 for %s`, async (_name, id, as) => {
      expect(await api.get(path(id), { as })).toBeGitLabError(404, { message: twin.notFound })
    })

    it('returns 401 for an anonymous caller', async () => {
      expect(await api.get(path(twin.readable))).toBeGitLabError(401, UNAUTHORIZED)
    })
  })

  contract(`PUT /${twin.plural}/:id/notification_settings`, {}, ({ api, sim }) => {
    it('saves the caller\'s level, which a GET then shows, and leaves other users\' settings alone', async () => {
      const res = await api.put(path(twin.custom), { as: 'devon', body: { level: 'watch' } })
      expect([res.status, res.text]).toEqual([200, '{"level":"watch"}'])
      expect((await api.get(path(twin.custom), { as: 'devon' })).body).toEqual({ level: 'watch' })
      expect((await api.get(path(twin.custom), { as: 'nadia' })).body).toEqual({ level: 'custom', events: customEvents })
    })

    it('sets flags at level custom', async () => {
      const res = await api.put(path(twin.readable), { as: 'devon', body: { level: 'custom', close_issue: true, new_epic: true } })
      const events = untouched({ close_issue: true, ...(sourceType === 'group' ? { new_epic: true } : {}) }, [...twin.extra])
      expect([res.status, res.body]).toEqual([200, { level: 'custom', events }])
    })

    it('accepts the URL-encoded full path', async () => {
      const id = sourceType === 'group' ? 'acme' : 'acme%2Fwebsite'
      expect((await api.put(path(id), { as: 'devon', body: { level: 'mention' } })).body).toEqual({ level: 'mention' })
    })

    it('answers an unknown level with 400 and changes nothing', async () => {
      const before = JSON.stringify(sim().db.dump())
      expect(await api.put(path(twin.readable), { as: 'devon', body: { level: 'everything' } })).toBeGitLabError(400, { message: "'everything' is not a valid level" })
      expect(JSON.stringify(sim().db.dump())).toBe(before)
    })

    it('returns 404 for a private one the caller cannot read', async () => {
      expect(await api.put(path(twin.private), { as: 'nora', body: { level: 'watch' } })).toBeGitLabError(404, { message: twin.notFound })
    })

    it('returns 401 for an anonymous caller', async () => {
      expect(await api.put(path(twin.readable), { body: { level: 'watch' } })).toBeGitLabError(401, UNAUTHORIZED)
    })
  })
}
