/**
 * Users' secondary emails over both doors, as python-gitlab's test_current_user_email and
 * test_user_email use them: unconfirmed unless an administrator skips the confirmation, unique
 * among emails and users' primary emails, administrators' `/users/:id/emails`.
 * Source: gitlab: lib/api/users.rb, lib/api/entities/email.rb, app/models/email.rb (13.12).
 * nadia (60) has two of the default scenario's: nadia@work.example.com (confirmed) and nadia@old.example.com.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('user emails', {}, ({ api, sim }) => {
  it('adds, lists, gets and deletes the current user\'s email, unconfirmed', async () => {
    const res = await api.post('/user/emails', { as: 'devon', body: { email: ' Devon@Work.Example.com ' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: res.body.id, email: 'devon@work.example.com', confirmed_at: null })
    expect((await api.get('/user/emails', { as: 'devon' })).body).toEqual([res.body])
    expect((await api.get(`/user/emails/${res.body.id}`, { as: 'devon' })).body).toEqual(res.body)
    expect(await api.get(`/user/emails/${res.body.id}`, { as: 'max' })).toBeGitLabError(404, { message: '404 Email Not Found' })
    expect((await api.delete(`/user/emails/${res.body.id}`, { as: 'devon' })).status).toBe(204)
    expect((await api.get('/user/emails', { as: 'devon' })).body).toEqual([])
  })

  it.each([
    ['another user\'s primary email', 'max@example.com', ['has already been taken']],
    ['another user\'s secondary email', 'nadia@work.example.com', ['has already been taken']],
    ['no address', 'not-an-email', ['is invalid']],
    ['a blank one', ' ', ["can't be blank"]],
  ])('answers 400 for %s', async (_t, email, errors) => {
    expect(await api.post('/user/emails', { as: 'devon', body: { email } })).toBeGitLabError(400, { message: { email: errors } })
    expect(sim().db.tables.emails.where('user_id', 4)).toEqual([])
  })

  it('lets administrators list, add (confirmed with skip_confirmation) and delete a user\'s emails', async () => {
    const list = await api.get('/users/60/emails', { as: 'root' })
    expect(list.body.map((e: { email: string }) => e.email)).toEqual(['nadia@work.example.com', 'nadia@old.example.com'])
    const add = await api.post('/users/4/emails', { as: 'root', body: { email: 'devon@home.example.com', skip_confirmation: true } })
    expect(add.body).toEqual({ id: add.body.id, email: 'devon@home.example.com', confirmed_at: '2021-04-01T12:00:00.000Z' })
    const plain = await api.post('/users/4/emails', { as: 'root', body: { email: 'devon@else.example.com' } })
    expect(plain.body.confirmed_at).toBeNull()
    expect(await api.get('/users/4/emails', { as: 'max' })).toBeGitLabError(403, { message: '403 Forbidden' })
    expect(await api.post('/users/4242/emails', { as: 'root', body: { email: 'x@example.com' } })).toBeGitLabError(404, { message: '404 User Not Found' })
    expect((await api.delete(`/users/4/emails/${add.body.id}`, { as: 'root' })).status).toBe(204)
    expect(await api.delete(`/users/60/emails/${plain.body.id}`, { as: 'root' })).toBeGitLabError(404, { message: '404 Email Not Found' })
  })

  it('makes a confirmed address one notifications may go to', async () => {
    await api.post('/users/4/emails', { as: 'root', body: { email: 'devon@home.example.com', skip_confirmation: true } })
    const res = await api.put('/notification_settings', { as: 'devon', body: { notification_email: 'devon@home.example.com' } })
    expect(res.status).toBe(200)
    expect(res.body.notification_email).toBe('devon@home.example.com')
  })
})
