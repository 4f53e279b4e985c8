/**
 * The deactivated user's 403 names GitLab's URL (`Gitlab.config.gitlab.url`, relative root
 * included), which is the simulator's fixed `baseUrl` when one is given, else the request's origin
 * (issue 23 item 11; gitlab-behaviour.md §1.5; gitlab: lib/gitlab/auth/user_access_denied_reason.rb).
 * The doors' answers are in test/contract/conventions.contract.ts; this covers the fixed base URL,
 * which the contract harness does not set.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator, DEFAULT_SCENARIO_YAML } from '../../src/index.js'

const REASON = 'Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at'

describe('deactivated user reason', () => {
  it.each([
    ['the request origin without a fixed base URL', undefined, 'http://gitlab.test'],
    ['the fixed base URL, with its relative root', 'https://gitlab.example.com/gitlab/', 'https://gitlab.example.com/gitlab'],
  ])('names %s', async (_what, baseUrl, named) => {
    const sim = createSimulator({ scenario: DEFAULT_SCENARIO_YAML, ...(baseUrl ? { baseUrl } : {}) })
    const res = await sim.handle(new Request('http://gitlab.test/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'glpat-dee-fakelab' } }))
    expect([res.status, await res.json()]).toEqual([403, { message: `403 Forbidden - ${REASON} ${named}` }])
  })
})
