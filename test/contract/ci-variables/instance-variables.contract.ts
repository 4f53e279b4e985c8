/**
 * Instance CI variables (`/admin/ci/variables`): administrators only, the 13.12 entity, validations
 * and their 400 texts. Source: gitlab: lib/api/admin/ci/variables.rb,
 * app/models/concerns/ci/has_variable.rb, app/models/concerns/ci/maskable.rb; python-gitlab
 * tests/functional/conftest.py (reset_gitlab lists them first), api/test_variables.py.
 */
import { expect, it } from 'vitest'
import { contract } from '../../support/contract.js'

contract('/admin/ci/variables', {}, ({ api }) => {
  it('creates, lists, gets, updates and deletes a variable by key', async () => {
    expect((await api.get('/admin/ci/variables', { as: 'root' })).body).toEqual([])
    const made = await api.post('/admin/ci/variables', { as: 'root', body: { key: 'TOKEN', value: 'secret-value' } })
    expect(made.status).toBe(201)
    expect(made.text).toBe('{"variable_type":"env_var","key":"TOKEN","value":"secret-value","protected":false,"masked":false}')
    expect((await api.get('/admin/ci/variables', { as: 'root' })).body).toEqual([made.body])
    expect((await api.get('/admin/ci/variables/TOKEN', { as: 'root' })).body).toEqual(made.body)
    const put = await api.put('/admin/ci/variables/TOKEN', { as: 'root', body: { value: 'abcdefgh', masked: true, variable_type: 'file' } })
    expect(put.body).toEqual({ variable_type: 'file', key: 'TOKEN', value: 'abcdefgh', protected: false, masked: true })
    expect((await api.delete('/admin/ci/variables/TOKEN', { as: 'root' })).status).toBe(204)
    expect(await api.get('/admin/ci/variables/TOKEN', { as: 'root' })).toBeGitLabError(404, { message: '404 InstanceVariable Not Found' })
  })

  it.each([
    [{ key: 'BAD KEY', value: 'x' }, { key: ["can contain only letters, digits and '_'."] }],
    [{ key: 'M', value: 'short', masked: true }, { value: ['is invalid'] }],
    [{ key: 'M', value: 'has space!', masked: true }, { value: ['is invalid'] }],
    [{ key: 'L', value: 'x'.repeat(10_001) }, { value: ['The value of the provided variable exceeds the 10000 character limit'] }],
  ])('refuses %j', async (body, message) => {
    expect(await api.post('/admin/ci/variables', { as: 'root', body })).toBeGitLabError(400, { message })
  })

  it('refuses a taken key, an unknown type and a missing value', async () => {
    await api.post('/admin/ci/variables', { as: 'root', body: { key: 'DUP', value: 'x' } })
    expect(await api.post('/admin/ci/variables', { as: 'root', body: { key: 'DUP', value: 'y' } })).toBeGitLabError(400, { message: { key: ['(DUP) has already been taken'] } })
    expect(await api.post('/admin/ci/variables', { as: 'root', body: { key: 'T', value: 'y', variable_type: 'other' } })).toBeGitLabError(400, { error: 'variable_type does not have a valid value' })
    expect(await api.post('/admin/ci/variables', { as: 'root', body: { key: 'T' } })).toBeGitLabError(400, { error: 'value is missing' })
  })

  it('is for administrators only', async () => {
    expect(await api.get('/admin/ci/variables')).toBeGitLabError(401, { message: '401 Unauthorized' })
    expect(await api.get('/admin/ci/variables', { as: 'olive' })).toBeGitLabError(403, { message: '403 Forbidden' })
  })
})
