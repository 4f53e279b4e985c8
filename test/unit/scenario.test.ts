import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/db.js'
import { CURRENT_SCENARIO_VERSION, ScenarioError, migrateScenario, type Scenario } from '../../src/scenario/index.js'
import { applyScenario, createDb, createSimulator, parseScenario, validateScenarioObject } from '../../src/simulator.js'

const DEFAULT_FILE = 'scenarios/default.yaml'
const defaultText = readFileSync(new URL('../../scenarios/default.yaml', import.meta.url), 'utf8')
const REF = new Date('2021-04-01T12:00:00.000Z')

function load(scenario: Scenario, seed = scenario.seed): Db {
  const db = createDb()
  applyScenario(db, scenario, { seed, referenceDate: REF })
  return db
}

/** The problems of a document, formatted `file:line:col message`. */
function problemsOf(text: string, options: Parameters<typeof parseScenario>[1] = { file: 'test.yaml' }): string[] {
  try {
    parseScenario(text, options)
  } catch (error) {
    if (error instanceof ScenarioError) return error.message.split('\n')
    throw error
  }
  return []
}

describe('scenarios/default.yaml', () => {
  const scenario = parseScenario(defaultText, { file: DEFAULT_FILE })
  const db = load(scenario)
  const t = db.tables

  it('parses with its clock and seed', () => {
    expect(scenario.now).toBe('2021-04-01T12:00:00.000Z')
    expect(scenario.seed).toBe(42)
  })

  it.each([
    ['users', 17, [1, 2, 3, 4, 5, 6, 7, /* members area: */ 8, 9, 10, /* arrange-directory: */ 11, 12, 13, 14, /* issues area: */ 40, /* to-dos and notification settings: */ 60, /* members area (project bot): */ 90]],
    ['groups', 3, [10, 11, 12]],
    ['projects', 7, [20, 21, 22, 23, 24, /* issues area: */ 30, 31]],
    ['labels', 14, [100, 101, 102, 103, 110, 111, 112, 113, 114, /* issues area (allocated): */ 115, 116, 117, 118, 119]],
    ['milestones', 7, [200, 201, 202, 210, 220, /* issues area (allocated): */ 221, 222]],
    ['freeze_periods', 3, [300, 301, 302]],
    // issues area: 405-410 written, 25 generated for ivy/bulk from 1,000,000 up.
    ['issues', 36, [400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, ...Array.from({ length: 25 }, (_, i) => 1_000_000 + i)]],
    ['merge_requests', 6, [500, 501, /* issues area: */ 502, 503, /* merge-requests area: */ 504, 505]],
    // ids follow file order: the issues, members and authentication work each add tokens.
    ['personal_access_tokens', 23, Array.from({ length: 23 }, (_, i) => i + 1)],
    // --- to-dos and notification settings (user 60 nadia, to-dos 601-607) ---
    ['todos', 7, [601, 602, 603, 604, 605, 606, 607]],
    ['notification_settings', 4, [1, 2, 3, 4]],
    ['emails', 2, [1, 2]],
    // --- end to-dos and notification settings ---
  ] as const)('has %s with ids %j', (table, count, ids) => {
    expect(t[table].size).toBe(count)
    expect(t[table].all().map((r) => r.id)).toEqual(ids)
  })

  it.each([
    ['users', 1, { username: 'root', name: 'Administrator', email: 'root@example.com', admin: true, state: 'active', avatar_url: null, user_type: null, can_create_group: true, projects_limit: 100000, private_profile: false, bio: '' }],
    ['users', 7, { username: 'nora', admin: false }],
    ['groups', 10, { path: 'acme', name: 'Acme', visibility: 'public', parent_id: null }],
    ['groups', 11, { path: 'platform', visibility: 'private', parent_id: 10 }],
    ['groups', 12, { path: 'secret-lab', visibility: 'private', parent_id: null }],
    ['projects', 20, { path: 'website', visibility: 'public', namespace_type: 'group', namespace_id: 10, creator_id: 5, default_branch: 'main', archived: false, repository_storage: 'default' }],
    ['projects', 21, { path: 'api', name: 'API', visibility: 'private', namespace_type: 'group', namespace_id: 11, creator_id: 5 }],
    ['projects', 22, { path: 'dotfiles', visibility: 'private', namespace_type: 'user', namespace_id: 6, creator_id: 6 }],
    ['projects', 23, { path: 'handbook', visibility: 'internal', namespace_id: 10 }],
    ['projects', 24, { path: 'experiments', namespace_id: 12, creator_id: 6 }],
    ['labels', 100, { title: 'bug', color: '#d9534f', group_id: 10, project_id: null }],
    ['labels', 102, { title: 'needs review', color: '#FFA500', description: null, group_id: 10 }],
    ['labels', 103, { title: 'backend', group_id: 11 }],
    ['labels', 110, { title: 'frontend', color: '#FF0000', project_id: 20, group_id: null }],
    ['labels', 114, { title: 'chore', color: '#cccccc', project_id: 22 }],
    ['milestones', 200, { iid: 1, title: 'v1.0', state: 'active', due_date: '2021-03-01', start_date: '2021-02-01', group_id: 10, project_id: null }],
    ['milestones', 202, { iid: 3, title: 'v0.9', state: 'closed', due_date: '2021-01-15' }],
    ['milestones', 210, { iid: 1, title: 'platform-q2', group_id: 11 }],
    ['milestones', 220, { iid: 1, title: 'website-launch', project_id: 20, group_id: null, due_date: null }],
    ['freeze_periods', 301, { project_id: 20, freeze_start: '0 0 24 12 *', freeze_end: '0 0 26 12 *', cron_timezone: 'Europe/Berlin' }],
    ['freeze_periods', 302, { project_id: 21, cron_timezone: 'UTC' }],
    ['issues', 400, { iid: 1, project_id: 20, state: 'opened', author_id: 4, assignee_ids: [5], label_ids: [100, 110], milestone_id: 200, closed_at: null, closed_by_id: null }],
    ['issues', 401, { iid: 2, state: 'closed', label_ids: [100], closed_at: '2021-03-05T09:00:00.000Z', closed_by_id: 5 }],
    ['issues', 402, { iid: 3, label_ids: [101, 111], milestone_id: 201 }],
    ['issues', 403, { iid: 4, confidential: true, label_ids: [], milestone_id: null }],
    ['issues', 404, { iid: 1, project_id: 21, label_ids: [103, 100], milestone_id: 200 }],
    ['merge_requests', 500, { iid: 1, state: 'opened', label_ids: [110], milestone_id: 200, source_branch: 'feature/login', target_branch: 'main', merged_at: null }],
    ['merge_requests', 501, { iid: 2, state: 'merged', label_ids: [100], milestone_id: 201, merged_at: '2021-03-05T08:00:00.000Z', merged_by_id: 5 }],
  ] as const)('%s %i is %j', (table, id, expected) => {
    expect(t[table].get(id)).toMatchObject(expected)
  })

  it.each([
    ['glpat-root-fakelab', 1, ['api', 'sudo'], null, false],
    ['glpat-root-readonly', 1, ['read_api'], null, false],
    ['glpat-gina-fakelab', 2, ['api'], null, false],
    ['glpat-devon-readonly', 4, ['read_api'], null, false],
    ['glpat-olive-fakelab', 6, ['api'], null, false],
    ['glpat-nora-expired', 7, ['api'], '2021-01-01', false],
    ['glpat-nora-revoked', 7, ['api'], null, true],
  ])('token %s belongs to user %i with %j', (token, userId, scopes, expiresAt, revoked) => {
    const [row, ...more] = t.personal_access_tokens.where('token', token)
    expect(more).toEqual([])
    expect(row).toMatchObject({ user_id: userId, scopes, expires_at: expiresAt, revoked, impersonation: false })
  })

  it('gives every user a glpat-<username>-fakelab api token', () => {
    // Bots hold their project access token instead (project_20_bot: glpat-website-bot).
    for (const user of t.users.all().filter((u) => u.user_type !== 'project_bot')) {
      expect(t.personal_access_tokens.where('token', `glpat-${user.username}-fakelab`)[0]?.user_id).toBe(user.id)
    }
  })

  it('has the memberships, including the personal project owner at 40', () => {
    const rows = t.members.all().map((m) => [m.source_type, m.source_id, m.user_id, m.access_level])
    expect(rows).toEqual([
      ['group', 10, 2, 10],
      ['group', 10, 3, 20],
      ['group', 10, 4, 30],
      ['group', 10, 5, 40],
      ['group', 10, 6, 50],
      ['group', 12, 6, 50],
      ['project', 20, 9, 30],
      ['project', 20, 10, 20],
      ['project', 20, 90, 40],
      ['project', 22, 6, 40],
      // issues area: ivy/tracker (30) and ivy/bulk (31), personal projects of ivy (40).
      ['project', 30, 40, 40],
      ['project', 30, 2, 10],
      ['project', 30, 3, 20],
      ['project', 30, 4, 30],
      ['project', 30, 5, 40],
      ['project', 31, 40, 40],
    ])
  })

  it('derives label priorities, subscriptions and internal ids', () => {
    expect(t.label_priorities.all()).toEqual([
      { id: 1, project_id: 20, label_id: 110, priority: 1 },
      { id: 2, project_id: 20, label_id: 112, priority: 0 },
      // issues area: p1 and p2 of ivy/tracker.
      { id: 3, project_id: 30, label_id: 115, priority: 0 },
      { id: 4, project_id: 30, label_id: 116, priority: 1 },
    ])
    expect(t.subscriptions.all()).toEqual([
      { id: 1, user_id: 4, subscribable_type: 'Label', subscribable_id: 100, project_id: null, subscribed: true },
    ])
    expect(t.internal_ids.all().map((r) => [r.usage, r.scope_type, r.scope_id, r.last_value])).toEqual([
      ['milestones', 'group', 10, 3],
      ['milestones', 'group', 11, 1],
      ['issues', 'project', 20, 4],
      ['merge_requests', 'project', 20, 4],
      ['milestones', 'project', 20, 1],
      ['issues', 'project', 21, 1],
      // issues area.
      ['issues', 'project', 30, 6],
      ['merge_requests', 'project', 30, 2],
      ['milestones', 'project', 30, 2],
      ['issues', 'project', 31, 25],
    ])
    expect(db.nextIid('issues', 'project', 20)).toBe(5)
  })

  it('resolves paths through the db readers', () => {
    expect(db.findProjectByFullPath('acme/platform/api')?.id).toBe(21)
    expect(db.findProjectByFullPath('olive/dotfiles')?.id).toBe(22)
    expect(db.groupFullPath(t.groups.get(11)!)).toBe('acme/platform')
  })

  it('generates timestamps before the reference date, dates as YYYY-MM-DD, runner tokens GR1348941…', () => {
    for (const user of t.users.all()) {
      expect(user.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(Date.parse(user.created_at)).toBeLessThanOrEqual(REF.getTime())
      expect(user.last_activity_on).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
    for (const record of [...t.groups.all(), ...t.projects.all()]) expect(record.runners_token).toMatch(/^GR1348941[A-Za-z0-9]{20}$/)
  })
})

describe('determinism', () => {
  const scenario = parseScenario(defaultText, { file: DEFAULT_FILE })

  it('gives deep-equal dumps for the same scenario and seed', () => {
    expect(load(parseScenario(defaultText)).dump()).toEqual(load(scenario).dump())
  })

  it('changes generated values, and only those, with the seed', () => {
    const a = load(scenario, 1).tables.users.get(2)!
    const b = load(scenario, 2).tables.users.get(2)!
    expect(a.created_at).not.toBe(b.created_at)
    expect({ ...a, created_at: 0, last_sign_in_at: 0, current_sign_in_at: 0, last_activity_on: 0 }).toEqual({
      ...b,
      created_at: 0,
      last_sign_in_at: 0,
      current_sign_in_at: 0,
      last_activity_on: 0,
    })
  })

  it("keeps a record's generated values when other records are added", () => {
    const alone = parseScenario('version: 1\nusers: [{ username: zed }]')
    const crowded = parseScenario('version: 1\nusers: [{ username: amy }, { username: zed }]')
    const zedAlone = load(alone).tables.users.get(1)!
    const zedCrowded = load(crowded).tables.users.get(2)!
    expect({ ...zedCrowded, id: 1 }).toEqual(zedAlone)
  })
})

describe('parseScenario problems', () => {
  it('reports every problem of a broken document at once', () => {
    const broken = [
      'version: 2', //                                          1
      'users:', //                                               2
      '  - username: root', //                                   3
      '    bio: @root', //                                       4
      '  - username: alice', //                                  5
      '  - username: Root', //                                   6
      'groups:', //                                              7
      '  - path: acme', //                                       8
      '    visibility: secret', //                               9
      '    members:', //                                         10
      '      - { user: ghost, access_level: developer }', //     11
      '    labels:', //                                          12
      '      - { name: bug, color: "#12345" }', //               13
      'projects:', //                                            14
      '  - namespace: acme', //                                  15
      '  - path: site', //                                       16
      '    namespace: nowhere', //                               17
      '  - path: web', //                                        18
      '    namespace: acme', //                                  19
      '    members:', //                                         20
      '      - { user: alice, access_level: 50 }', //            21
    ].join('\n')
    expect(problemsOf(broken, { file: 'broken.yaml' })).toEqual([
      'broken.yaml:1:10 version: unsupported scenario version 2; this fakelab reads version 1',
      'broken.yaml:4:10 YAML syntax error: Plain value cannot start with reserved character @',
      'broken.yaml:6:15 users[2].username: duplicate username "Root" (first defined by users[0])',
      'broken.yaml:9:17 groups[0].visibility: must be one of public, internal, private; got "secret"',
      'broken.yaml:11:17 groups[0].members[0].user: unknown user "ghost"',
      'broken.yaml:13:29 groups[0].labels[0].color: must be a valid color code (#RGB, #RRGGBB or a CSS colour name); got "#12345"',
      'broken.yaml:15:5 projects[0].path: is required',
      'broken.yaml:17:16 projects[1].namespace: unknown namespace "nowhere" (neither a group full path nor a username in the scenario)',
      'broken.yaml:21:38 projects[2].members[0].access_level: must not be 50 (owner) for a project member; use 40 (maintainer)',
    ])
  })

  it('exposes the problems as data', () => {
    let error: unknown
    try {
      parseScenario('version: 1\nusers:\n  - { username: a, admin: yes }\n')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ScenarioError)
    expect((error as ScenarioError).problems).toEqual([
      { file: '<scenario>', line: 3, col: 27, message: 'users[0].admin: must be true or false; got "yes"' },
    ])
  })

  const base = (body: string): string => `version: 1\n${body}`
  it.each([
    ['a missing version', 'users: []', 'test.yaml:1:1 version: is required; add "version: 1" at the top'],
    ['an unknown top-level key', base('userz: []'), 'test.yaml:2:1 unknown key "userz" (did you mean "users"?)'],
    ['a number where a string is expected', base('groups: [{ path: g, name: 12 }]'), 'test.yaml:2:27 groups[0].name: must be a string; got 12 (quote it to make it a string)'],
    ['an unquoted hex colour', base('groups:\n  - path: g\n    labels:\n      - name: x\n        color: #fff'), 'test.yaml:6:16 groups[0].labels[0].color: is empty; quote hex colours ("#D9534F"): an unquoted # starts a YAML comment'],
    ['a bad access level name', base('users: [{ username: u }]\ngroups: [{ path: g, members: [{ user: u, access_level: boss }] }]'), 'test.yaml:3:56 groups[0].members[0].access_level: must be one of 0, 5, 10, 20, 30, 40, 50 or no_access, minimal_access, guest, reporter, developer, maintainer, owner; got "boss"'],
    ['an unknown token scope', base('users: [{ username: u, tokens: [{ token: t, scopes: [root] }] }]'), 'test.yaml:2:54 users[0].tokens[0].scopes[0]: must be one of api, read_api, read_user, read_repository, write_repository, sudo, read_registry, write_registry; got "root"'],
    ['a timestamp without offset', base('now: 2021-04-01T12:00:00'), 'test.yaml:2:6 now: must be an ISO 8601 timestamp with an offset (2021-04-01T12:00:00Z) or a date; got "2021-04-01T12:00:00"'],
    ['an impossible date', base('users: [{ username: u, tokens: [{ token: t, expires_at: 2021-02-30 }] }]'), 'test.yaml:2:57 users[0].tokens[0].expires_at: must be a date (YYYY-MM-DD); got "2021-02-30"'],
    ['a start date after the due date', base('groups: [{ path: g, milestones: [{ title: m, start_date: 2021-02-02, due_date: 2021-02-01 }] }]'), 'test.yaml:2:80 groups[0].milestones[0].due_date: must not be before start_date'],
    ['an unknown time zone', base('users: [{ username: u }]\nprojects: [{ path: p, namespace: u, freeze_periods: [{ freeze_start: "0 1 * * *", freeze_end: "0 2 * * *", cron_timezone: Mars/Olympus }] }]'), 'test.yaml:3:123 projects[0].freeze_periods[0].cron_timezone: must be an IANA time zone such as "UTC" or "Europe/Berlin"; got "Mars/Olympus"'],
    ['a label title with a comma', base('groups: [{ path: g, labels: [{ name: "a,b" }] }]'), 'test.yaml:2:38 groups[0].labels[0].name: must not contain a comma'],
    ['an unknown parent', base('groups: [{ path: g, parent: nope }]'), 'test.yaml:2:29 groups[0].parent: unknown parent group "nope" (must be the full path of a group in the scenario)'],
    ['an attempted parent cycle', base('groups:\n  - { path: a, parent: b }\n  - { path: b, parent: a }'), [
      'test.yaml:3:24 groups[0].parent: parent groups form a cycle: a -> b -> a (a group cannot be its own ancestor)',
      'test.yaml:4:24 groups[1].parent: parent groups form a cycle: b -> a -> b (a group cannot be its own ancestor)',
    ]],
    ['a duplicate group', base('groups: [{ path: g }, { path: G }]'), 'test.yaml:2:31 groups[1].path: duplicate group "G" (first defined by groups[0])'],
    ['a group named like a user', base('users: [{ username: u }]\ngroups: [{ path: u }]'), 'test.yaml:3:18 groups[0].path: "u" is already taken by the personal namespace of user "u"'],
    ['a duplicate id', base('users: [{ id: 3, username: a }, { id: 3, username: b }]'), 'test.yaml:2:39 users[1].id: duplicate users id 3 (first used by users[0])'],
    ['a duplicate label id across parents', base('groups: [{ path: g, labels: [{ id: 5, name: a }] }]\nprojects: [{ path: p, namespace: g, labels: [{ id: 5, name: b }] }]'), 'test.yaml:3:52 projects[0].labels[0].id: duplicate labels id 5 (first used by groups[0].labels[0])'],
    ['a duplicate token', base('users: [{ username: a, tokens: [{ token: t }] }, { username: b, oauth_tokens: [{ token: t }] }]'), 'test.yaml:2:89 users[1].oauth_tokens[0].token: duplicate token (first used by users[0].tokens[0])'],
    ['a duplicate project path', base('groups: [{ path: g }]\nprojects: [{ path: p, namespace: g }, { path: P, namespace: G }]'), 'test.yaml:3:47 projects[1].path: duplicate project "G/P" (first defined by projects[0])'],
    ['a duplicate label title', base('groups: [{ path: g, labels: [{ name: x }, { name: x }] }]'), 'test.yaml:2:51 groups[0].labels[1].name: duplicate label "x" (first defined by groups[0].labels[0])'],
    ['a project label shadowing a group label', base('groups: [{ path: g, labels: [{ name: x }] }]\nprojects: [{ path: p, namespace: g, labels: [{ name: x }] }]'), 'test.yaml:3:54 projects[0].labels[0].name: label "x" already exists in ancestor group "g"'],
    ['a duplicate milestone title', base('groups: [{ path: g, milestones: [{ title: m }, { title: m }] }]'), 'test.yaml:2:57 groups[0].milestones[1].title: duplicate milestone "m" (first defined by groups[0].milestones[0])'],
    ['a duplicate iid', base('users: [{ username: u }]\nprojects: [{ path: p, namespace: u, issues: [{ iid: 2 }, { iid: 2 }] }]'), 'test.yaml:3:65 projects[0].issues[1].iid: duplicate iid 2 (first used by projects[0].issues[0])'],
    ['an unknown label', base('users: [{ username: u }]\nprojects: [{ path: p, namespace: u, issues: [{ labels: [nope] }] }]'), 'test.yaml:3:57 projects[0].issues[0].labels[0]: unknown label "nope" (not a label of project "u/p" or its groups)'],
    ['a label of another group', base('groups: [{ path: a, labels: [{ name: x }] }, { path: b }]\nprojects: [{ path: p, namespace: b, merge_requests: [{ labels: [x] }] }]'), 'test.yaml:3:65 projects[0].merge_requests[0].labels[0]: unknown label "x" (not a label of project "b/p" or its groups)'],
    ['an unknown milestone', base('users: [{ username: u }]\nprojects: [{ path: p, namespace: u, issues: [{ milestone: v9 }] }]'), 'test.yaml:3:59 projects[0].issues[0].milestone: unknown milestone "v9" (not a milestone of project "u/p" or its groups)'],
    ['an unknown assignee', base('users: [{ username: u }]\nprojects: [{ path: p, namespace: u, issues: [{ assignees: [u, x] }] }]'), 'test.yaml:3:63 projects[0].issues[0].assignees[1]: unknown user "x"'],
    ['an unknown subscriber', base('groups: [{ path: g, labels: [{ name: l, subscribers: [ghost] }] }]'), 'test.yaml:2:55 groups[0].labels[0].subscribers[0]: unknown user "ghost"'],
    ['a duplicate member', base('users: [{ username: u }]\ngroups: [{ path: g, members: [{ user: u, access_level: 10 }, { user: U, access_level: 20 }] }]'), 'test.yaml:3:70 groups[0].members[1].user: user "U" is already a member (groups[0].members[0])'],
    ['an LDAP group link below guest', base('groups: [{ path: g, ldap_group_links: [{ cn: devs, group_access: minimal_access }] }]'), 'test.yaml:2:66 groups[0].ldap_group_links[0].group_access: must be 10 (guest) or more'],
    ['an LDAP group link without cn', base('groups: [{ path: g, ldap_group_links: [{ group_access: developer }] }]'), 'test.yaml:2:40 groups[0].ldap_group_links[0].cn: is required'],
    ['an unknown LDAP group link field', base('groups: [{ path: g, ldap_group_links: [{ cn: devs, group_access: 30, access: 30 }] }]'), 'test.yaml:2:70 groups[0].ldap_group_links[0]: unknown key "access"'],
    ['now in an included file', 'version: 1\ninclude: [f.yaml]', 'f.yaml:1:6 now: is only allowed in the top-level scenario, not in an included file'],
  ])('reports %s', (_title, text, expected) => {
    const lines = typeof expected === 'string' ? [expected] : expected
    expect(problemsOf(text, { file: 'test.yaml', include: () => 'now: 2021-01-01' })).toEqual(lines)
  })
})

// Issue 6, defect 6: prototype names, parent cycles and binary files.
describe('the validator on names every object inherits, cycles and binary files', () => {
  const base = (body: string): string => `version: 1\n${body}`
  const member = (level: string): string => base(`users: [{ username: u }]\ngroups: [{ path: g, members: [{ user: u, access_level: ${level} }] }]`)

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('refuses access_level: %s at its place', (level) => {
    expect(problemsOf(member(level))).toEqual([
      `test.yaml:3:56 groups[0].members[0].access_level: must be one of 0, 5, 10, 20, 30, 40, 50 or no_access, minimal_access, guest, reporter, developer, maintainer, owner; got "${level}"`,
    ])
  })

  it('refuses access_level: constructor before anything is served (it used to crash serve with a DataCloneError)', () => {
    expect(() => createSimulator({ scenario: member('constructor') })).toThrow(ScenarioError)
  })

  it.each(['constructor', '__proto__', 'valueOf'])('refuses color: %s as a colour, at its place', (color) => {
    expect(problemsOf(base(`groups: [{ path: g, labels: [{ name: x, color: ${color} }] }]`))).toEqual([
      `test.yaml:2:48 groups[0].labels[0].color: must be a valid color code (#RGB, #RRGGBB or a CSS colour name); got "${color}"`,
    ])
  })

  it('still reads a colour keyword in any case and with spaces', () => {
    const scenario = parseScenario(base('groups: [{ path: g, labels: [{ name: x, color: " Navy " }] }]'))
    expect(load(scenario).tables.labels.all()[0]?.color).toBe('#000080')
  })

  it.each([
    ['itself', 'groups:\n  - { path: a, parent: a }', ['test.yaml:3:24 groups[0].parent: parent groups form a cycle: a -> a (a group cannot be its own ancestor)']],
    ['three groups', 'groups:\n  - { path: a, parent: c }\n  - { path: b, parent: a }\n  - { path: c, parent: b }\n  - { path: d, parent: zz }', [
      'test.yaml:3:24 groups[0].parent: parent groups form a cycle: a -> c -> b -> a (a group cannot be its own ancestor)',
      'test.yaml:4:24 groups[1].parent: parent groups form a cycle: b -> a -> c -> b (a group cannot be its own ancestor)',
      'test.yaml:5:24 groups[2].parent: parent groups form a cycle: c -> b -> a -> c (a group cannot be its own ancestor)',
      'test.yaml:6:24 groups[3].parent: unknown parent group "zz" (must be the full path of a group in the scenario)',
    ]],
  ])('reports a parent cycle through %s as a cycle, at each parent', (_title, body, expected) => {
    expect(problemsOf(base(body))).toEqual(expected)
  })

  it('reports a binary file once, without echoing its bytes', () => {
    const elf = '\u007fELF\u0002\u0001\u0001\u0000\u0000\u0000\u0000\u0003\u0000>\u0000\u0001'.repeat(40)
    expect(problemsOf(elf)).toEqual([
      'test.yaml:1:1 not a YAML text file: it contains the control character U+007F, which YAML does not allow (is it a binary file?)',
    ])
  })

  it('reports bytes that are not UTF-8 at their place', () => {
    expect(problemsOf('version: 1\nusers: [{ username: "caf\ufffd" }]')).toEqual([
      'test.yaml:2:25 not a YAML text file: it contains bytes that are not UTF-8 (is it a binary file?)',
    ])
  })

  it('reports a binary included file once, under its own name', () => {
    const include = (): string => 'users:\n  - username: a\n\u0000\u0001'
    expect(problemsOf('version: 1\ninclude: [b.bin]\n', { file: 'test.yaml', include })).toEqual([
      'b.bin:3:1 not a YAML text file: it contains the control character U+0000, which YAML does not allow (is it a binary file?)',
    ])
  })
})

describe('include', () => {
  const files: Record<string, string> = {
    'fixtures/people.yaml': 'users:\n  - { username: alice, tokens: [{ token: glpat-alice }] }\n  - { username: bob }\n',
    'fixtures/more.yaml': 'include: [people.yaml]\ngroups:\n  - { path: club, members: [{ user: bob, access_level: owner }] }\n',
    'fixtures/broken.yaml': 'users:\n  - { username: carol, state: asleep }\n  - { username: root }\n',
    'fixtures/loop.yaml': 'include: [../scenarios/main.yaml]\n',
  }
  const calls: [string, string][] = []
  const include = (path: string, from: string): string => {
    calls.push([path, from])
    const resolved = `${from.split('/').slice(0, -1).join('/')}/${path}`.split('/').reduce<string[]>((acc, s) => (s === '..' ? acc.slice(0, -1) : [...acc, s]), []).join('/')
    const text = files[resolved]
    if (text === undefined) throw new Error(`ENOENT: no such file ${resolved}`)
    return text
  }

  it('merges included entries before the file’s own, reading each file once', () => {
    calls.length = 0
    const scenario = parseScenario(
      'version: 1\ninclude: [../fixtures/more.yaml, ../fixtures/people.yaml]\nusers:\n  - { id: 1, username: root }\nprojects:\n  - { path: site, namespace: club }\n',
      { file: 'scenarios/main.yaml', include },
    )
    expect(calls).toEqual([
      ['../fixtures/more.yaml', 'scenarios/main.yaml'],
      ['people.yaml', 'fixtures/more.yaml'],
    ])
    expect(scenario.users.map((u) => u.username)).toEqual(['alice', 'bob', 'root'])
    expect(scenario.groups.map((g) => g.path)).toEqual(['club'])
    expect('include' in scenario).toBe(false)
    const db = load(scenario)
    expect(db.tables.users.all().map((u) => [u.id, u.username])).toEqual([
      [1, 'root'],
      [2, 'alice'],
      [3, 'bob'],
    ])
    expect(db.tables.projects.get(1)).toMatchObject({ namespace_type: 'group', creator_id: 3 })
  })

  it('reports problems inside an included file with that file’s name', () => {
    expect(problemsOf('version: 1\ninclude: [../fixtures/broken.yaml]\nusers: [{ username: root }]\n', { file: 'scenarios/main.yaml', include })).toEqual([
      'scenarios/main.yaml:3:21 users[0].username: duplicate username "root" (first defined by fixtures/broken.yaml users[1])',
      'fixtures/broken.yaml:2:31 users[0].state: must be one of active, blocked, ldap_blocked, blocked_pending_approval, deactivated; got "asleep"',
    ])
  })

  it.each([
    ['a missing file', 'include: [../fixtures/none.yaml]', 'scenarios/main.yaml:2:11 include[0]: cannot include "../fixtures/none.yaml": ENOENT: no such file fixtures/none.yaml'],
    ['a cycle', 'include: [../fixtures/loop.yaml]', 'fixtures/loop.yaml:1:11 include[0]: include cycle: scenarios/main.yaml -> fixtures/loop.yaml -> scenarios/main.yaml'],
  ])('reports %s', (_title, line, expected) => {
    expect(problemsOf(`version: 1\n${line}\n`, { file: 'scenarios/main.yaml', include })).toEqual([expected])
  })

  it('reports an include without a reader', () => {
    expect(problemsOf('version: 1\ninclude: [x.yaml]\n', {})).toEqual([
      '<scenario>:2:11 include[0]: cannot include "x.yaml": no include reader was given (pass options.include to parseScenario)',
    ])
  })

  it('reads fixtures/users.yaml next to a scenario', () => {
    const scenario = parseScenario('version: 1\ninclude: [../fixtures/users.yaml]\nusers: [{ id: 1, username: root, admin: true }]\n', {
      file: 'scenarios/with-fixtures.yaml',
      include: (path, from) => readFileSync(new URL(`../../${from.split('/').slice(0, -1).join('/')}/${path}`, import.meta.url), 'utf8'),
    })
    const db = load(scenario)
    expect(db.tables.users.all().map((u) => [u.id, u.username, u.state])).toEqual([
      [1, 'root', 'active'],
      [2, 'alice', 'active'],
      [3, 'bob', 'blocked'],
      [4, 'dana', 'deactivated'],
      [5, 'ada', 'active'],
    ])
  })
})

describe('validateScenarioObject', () => {
  it('accepts a plain object', () => {
    const scenario = validateScenarioObject({ version: 1, users: [{ username: 'root', admin: true }] })
    expect(scenario).toMatchObject({ version: 1, seed: 1, users: [{ username: 'root', admin: true, state: 'active', tokens: [] }] })
  })

  it('reports problems at 0:0 with their path', () => {
    expect(() => validateScenarioObject({ version: 1, users: [{ username: 'a' }, { username: 'A', state: 'x' }] }, 'mem')).toThrow(
      new ScenarioError([
        { file: 'mem', line: 0, col: 0, message: 'users[1].state: must be one of active, blocked, ldap_blocked, blocked_pending_approval, deactivated; got "x"' },
        { file: 'mem', line: 0, col: 0, message: 'users[1].username: duplicate username "A" (first defined by users[0])' },
      ]),
    )
  })

  it('ignores x- keys, which are free for YAML anchors', () => {
    const scenario = parseScenario('version: 1\nx-user: &u { admin: true }\nusers:\n  - { <<: *u, username: root }\n')
    expect(scenario.users[0]?.admin).toBe(true)
  })
})

describe('migrateScenario', () => {
  it('returns a version-1 document unchanged', () => {
    const doc = { version: 1, users: [] }
    expect(CURRENT_SCENARIO_VERSION).toBe(1)
    expect(migrateScenario(doc)).toEqual({ doc, problems: [] })
    expect(migrateScenario(doc).doc).toBe(doc)
  })

  it.each([
    [{}, 'is required; add "version: 1" at the top'],
    [{ version: '1' }, 'must be an integer; got "1"'],
    [{ version: 0 }, 'unsupported scenario version 0; this fakelab reads version 1'],
    [{ version: 3 }, 'unsupported scenario version 3; this fakelab reads version 1'],
  ])('refuses %j', (doc, message) => {
    expect(migrateScenario(doc).problems).toEqual([{ path: ['version'], message }])
  })
})

describe('applyScenario', () => {
  it('continues id and iid sequences past explicit values', () => {
    const scenario = parseScenario(
      [
        'version: 1',
        'users: [{ username: u }, { id: 9, username: v }]',
        'groups: [{ path: g, milestones: [{ title: a }, { title: b, iid: 5 }] }]',
        'projects:',
        '  - path: p',
        '    namespace: g',
        '    labels: [{ name: l }, { id: 50, name: m }]',
        '    issues: [{ state: closed, author: v }, { iid: 3, labels: [l] }, { }]',
      ].join('\n'),
    )
    const db = load(scenario)
    expect(db.tables.users.all().map((u) => [u.id, u.username])).toEqual([
      [9, 'v'],
      [10, 'u'],
    ])
    expect(db.tables.milestones.all().map((m) => [m.title, m.iid])).toEqual([
      ['a', 6],
      ['b', 5],
    ])
    expect(db.tables.labels.all().map((l) => [l.id, l.title])).toEqual([
      [50, 'm'],
      [51, 'l'],
    ])
    const issues = db.tables.issues.all()
    expect(issues.map((i) => [i.id, i.iid])).toEqual([
      [1, 4],
      [2, 3],
      [3, 5],
    ])
    // No owner or maintainer in the group chain and no user 1: the lowest user id creates the project.
    expect(db.tables.projects.get(1)?.creator_id).toBe(9)
    expect(issues[0]).toMatchObject({ state: 'closed', author_id: 9, closed_by_id: 9 })
    expect(issues[0]?.closed_at).toBe(issues[0]?.updated_at)
    expect(issues[1]).toMatchObject({ author_id: 9, label_ids: [51], closed_at: null, closed_by_id: null })
    expect(issues[2]?.title).toEqual(expect.any(String))
  })

  it('checks the references of a hand-built scenario before writing anything', () => {
    const scenario = parseScenario('version: 1\nusers: [{ username: u }]\nprojects: [{ path: p, namespace: u }]')
    scenario.projects[0]!.namespace = 'ghost'
    const db = createDb()
    expect(() => applyScenario(db, scenario, { seed: 1, referenceDate: REF })).toThrow(
      new ScenarioError([
        { file: '<scenario>', line: 0, col: 0, message: 'projects[0].namespace: unknown namespace "ghost" (neither a group full path nor a username in the scenario)' },
      ]),
    )
    expect(db.tables.users.size).toBe(0)
  })

  it('checks every reference of a scenario it did not parse or validate itself; one it did is only indexed again', () => {
    const parsed = parseScenario('version: 1\nusers: [{ username: u }]\ngroups: [{ path: g, members: [{ user: u, access_level: 30 }] }]')
    const handBuilt = structuredClone(parsed)
    handBuilt.groups[0]!.members[0]!.user = 'ghost'
    const db = createDb()
    expect(() => applyScenario(db, handBuilt, { seed: 1, referenceDate: REF })).toThrow(
      new ScenarioError([{ file: '<scenario>', line: 0, col: 0, message: 'groups[0].members[0].user: unknown user "ghost"' }]),
    )
    expect(db.tables.users.size).toBe(0)
    applyScenario(db, parsed, { seed: 1, referenceDate: REF })
    expect(db.tables.members.all().map((m) => m.user_id)).toEqual([db.tables.users.all()[0]!.id])
  })

  it('rolls back when an explicit id is taken', () => {
    const db = createDb()
    db.tables.users.insert({ ...load(parseScenario('version: 1\nusers: [{ username: x }]')).tables.users.get(1)!, id: 2 })
    const scenario = parseScenario('version: 1\nusers: [{ username: a }, { id: 2, username: b }]')
    expect(() => applyScenario(db, scenario, { seed: 1, referenceDate: REF })).toThrow('users: id 2 already exists')
    expect(db.tables.users.all().map((u) => u.username)).toEqual(['x'])
  })
})
