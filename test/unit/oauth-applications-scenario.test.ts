/**
 * OAuth applications in the scenario format: top-level `oauth_applications:` and the
 * `users[].oauth_tokens[].application` that names one; what loads and the problems reported.
 * Source: src/resources/users/users.scenario.ts; gitlab: db/structure.sql `oauth_applications`.
 */
import { describe, expect, it } from 'vitest'
import { applyScenario, createDb, parseScenario } from '../../src/simulator.js'
import { scenarioProblems } from '../support/scenario-problems.js'

const APPS = [
  'version: 1', //                                                                          1
  'oauth_applications:', //                                                                 2
  '  - { name: Dash, uid: dash-id, secret: dash-secret, redirect_uri: "http://x/cb", scopes: [api, read_user] }', // 3
  '  - { id: 7, name: Bot, uid: bot-id, secret: bot-secret, redirect_uri: "http://y/cb" }', // 4
  'users:', //                                                                              5
  '  - username: amy', //                                                                   6
  '    oauth_tokens:', //                                                                   7
]

describe('oauth_applications', () => {
  it('loads the applications (explicit ids, then past the highest) and links each token to its own', () => {
    const scenario = parseScenario([
      ...APPS,
      '      - { token: t-dash, application: Dash, scopes: [read_user] }',
      '      - { token: t-bot, application: Bot }',
      '      - { token: t-none }',
    ].join('\n'))
    const db = createDb()
    applyScenario(db, scenario, { seed: 1, referenceDate: new Date('2021-04-01T12:00:00.000Z') })
    expect(db.tables.oauth_applications.all().map((a) => [a.id, a.name, a.uid, a.secret, a.redirect_uri, a.scopes, a.confidential, a.owner_id])).toEqual([
      [7, 'Bot', 'bot-id', 'bot-secret', 'http://y/cb', ['api'], true, null],
      [8, 'Dash', 'dash-id', 'dash-secret', 'http://x/cb', ['api', 'read_user'], true, null],
    ])
    const byToken = Object.fromEntries(db.tables.oauth_access_tokens.all().map((t) => [t.token, t.application_id]))
    expect(byToken).toEqual({ 't-dash': 8, 't-bot': 7, 't-none': null })
  })

  it('reports an unknown application, a scope the application lacks, and duplicate names, uids and ids', () => {
    expect(scenarioProblems([
      ...APPS,
      '      - { token: t1, application: Nope }', //                                        8
      '      - { token: t2, application: Dash, scopes: [api, sudo] }', //                     9
    ].join('\n'), 't.yaml')).toEqual([
      't.yaml:8:35 users[0].oauth_tokens[0].application: unknown OAuth application "Nope" (not in oauth_applications)',
      't.yaml:9:55 users[0].oauth_tokens[1].scopes[1]: scope "sudo" is not one of application "Dash"\'s scopes',
    ])
    expect(scenarioProblems([
      'version: 1',
      'oauth_applications:',
      '  - { id: 7, name: Dash, uid: dash-id, secret: s, redirect_uri: "http://x/cb" }',
      '  - { id: 7, name: Dash, uid: dash-id, secret: s, redirect_uri: "http://x/cb" }',
    ].join('\n'), 't.yaml')).toEqual([
      't.yaml:4:11 oauth_applications[1].id: duplicate oauth_applications id (first used by oauth_applications[0])',
      't.yaml:4:20 oauth_applications[1].name: duplicate oauth_applications name (first used by oauth_applications[0])',
      't.yaml:4:31 oauth_applications[1].uid: duplicate oauth_applications uid (first used by oauth_applications[0])',
    ])
  })

  it('has the default scenario\'s application, and every OAuth token of it names it', async () => {
    const { createSimulator } = await import('../../src/index.js')
    const { loadDefaultScenario } = await import('../../src/node.js')
    const sim = createSimulator({ scenario: await loadDefaultScenario() })
    expect(sim.db.tables.oauth_applications.all().map((a) => [a.id, a.name, a.uid])).toEqual([[1, 'Fakelab CI dashboard', 'fakelab-dashboard-client-id']])
    expect(sim.db.tables.oauth_access_tokens.all().map((t) => t.application_id)).toEqual([1, 1, 1, 1])
  })
})
