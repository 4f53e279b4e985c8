/**
 * A user's status (issue 37 item 6): read, set and cleared through `/user/status`, read by others
 * through `/users/:user_id/status` (id or username), with `Users::SetStatusService`'s rules (the
 * default emoji, clearing when nothing is set) and `UserStatus`' validations, over both doors on the
 * default scenario (devon, max, bianca blocked).
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

const EMPTY = { emoji: null, message: null, availability: null, message_html: '' }

contract('user status', {}, ({ api }) => {
  it('sets, reads and clears a status', async () => {
    expect((await api.get('/user/status', { as: 'devon' })).body).toEqual(EMPTY)
    const set = await api.put('/user/status', { as: 'devon', body: { emoji: 'coffee', message: 'Out for <lunch> :tada:' } })
    const status = {
      emoji: 'coffee',
      message: 'Out for <lunch> :tada:',
      availability: 'not_set',
      message_html: 'Out for &lt;lunch&gt; <gl-emoji title="party popper" data-name="tada" data-unicode-version="6.0">🎉</gl-emoji>',
    }
    expect([set.status, set.body]).toEqual([200, status])
    expect((await api.get('/user/status', { as: 'devon' })).body).toEqual(status)
    expect((await api.get('/users/devon/status')).body).toEqual(status)
    expect((await api.get('/users/4/status', { as: 'max' })).body).toEqual(status)
    const busy = await api.put('/user/status', { as: 'devon', body: { availability: 'busy' } })
    expect(busy.body).toEqual({ emoji: 'speech_balloon', message: null, availability: 'busy', message_html: '' })
    const cleared = await api.put('/user/status', { as: 'devon', body: {} })
    expect([cleared.status, cleared.body]).toEqual([200, EMPTY])
    expect((await api.get('/users/devon/status')).body).toEqual(EMPTY)
  })

  it.each([
    ['an unknown emoji', { emoji: 'not_an_emoji' }, 400, { message: { emoji: ['is not included in the list'] } }],
    ['a long message', { message: 'x'.repeat(101) }, 400, { message: { message: ['is too long (maximum is 100 characters)'] } }],
    ['an unknown availability', { availability: 'away' }, 400, { error: 'availability does not have a valid value' }],
  ])('refuses %s and keeps the status', async (_what, body, status, answer) => {
    await api.put('/user/status', { as: 'max', body: { message: 'Here' } })
    const res = await api.put('/user/status', { as: 'max', body })
    expect([res.status, res.body]).toEqual([status, answer])
    expect((await api.get('/user/status', { as: 'max' })).body.message).toBe('Here')
  })

  it('needs a user for /user/status and answers 404 for an unknown or blocked user', async () => {
    expect((await api.get('/user/status')).status).toBe(401)
    expect((await api.put('/user/status', { body: { message: 'x' } })).status).toBe(401)
    expect((await api.get('/users/nobody/status')).body).toEqual({ message: '404 User Not Found' })
    expect((await api.get('/users/bianca/status', { as: 'max' })).body).toEqual({ message: '404 User Not Found' })
    expect((await api.get('/users/bianca/status', { as: 'root' })).body).toEqual(EMPTY)
  })
})
