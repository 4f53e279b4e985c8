/**
 * The to-dos and notification settings parts of the scenario format: what they load and the
 * problems they report (`file:line:col message`). Source: src/resources/todos/todos.scenario.ts,
 * src/resources/notification-settings/notification-settings.scenario.ts.
 */
import { describe, expect, it } from 'vitest'
import { ScenarioError } from '../../src/scenario/index.js'
import { applyScenario, createDb, parseScenario } from '../../src/simulator.js'

const BASE = [
  'version: 1', //                                                                      1
  'users:', //                                                                          2
  '  - username: amy', //                                                               3
  '    emails: [amy@work.test, { email: amy@old.test, confirmed: false }]', //            4
  '  - { username: bob }', //                                                           5
  'groups:', //                                                                         6
  '  - { path: acme }', //                                                              7
  'projects:', //                                                                       8
  '  - path: web', //                                                                   9
  '    namespace: acme', //                                                             10
  '    issues: [{ iid: 5, title: Five }, { title: Six }]', //                           11
  '    merge_requests: [{ title: One }]', //                                            12
]

function problemsOf(lines: string[]): string[] {
  try {
    parseScenario(lines.join('\n'), { file: 't.yaml' })
  } catch (error) {
    if (error instanceof ScenarioError) return error.message.split('\n')
    throw error
  }
  return []
}

describe('todos: of projects', () => {
  it('loads to-dos about issues (explicit and allocated iids) and merge requests, with defaults', () => {
    const scenario = parseScenario([
      ...BASE,
      '    todos:',
      '      - { user: amy, issue: 6 }',
      '      - { id: 40, user: bob, author: amy, action: mentioned, merge_request: 1, state: done, body: "@bob look" }',
    ].join('\n'))
    const db = createDb()
    applyScenario(db, scenario, { seed: 1, referenceDate: new Date('2021-04-01T12:00:00.000Z') })
    const [second, first] = db.tables.todos.all() // id order: 40, then the allocated 41
    const six = db.tables.issues.all().find((i) => i.iid === 6)!
    expect(first).toMatchObject({ user_id: 1, author_id: 1, target_type: 'Issue', target_id: six.id, action_name: 'assigned', state: 'pending', note: null })
    expect(second).toMatchObject({ id: 40, user_id: 2, author_id: 1, target_type: 'MergeRequest', action_name: 'mentioned', state: 'done', note: '@bob look' })
  })

  it('reports unknown users and targets, and a to-do with no or two targets', () => {
    expect(problemsOf([
      ...BASE,
      '    todos:', //                                                                  13
      '      - { user: zed, issue: 5 }', //                                              14
      '      - { user: amy, issue: 7 }', //                                              15
      '      - { user: amy, merge_request: 2, author: ghost }', //                       16
      '      - { user: amy }', //                                                        17
      '      - { user: amy, issue: 5, merge_request: 1 }', //                            18
    ])).toEqual([
      't.yaml:14:17 projects[0].todos[0].user: unknown user "zed"',
      't.yaml:15:29 projects[0].todos[1].issue: unknown issue #7 (not in this project)',
      't.yaml:16:37 projects[0].todos[2].merge_request: unknown merge request !2 (not in this project)',
      't.yaml:16:48 projects[0].todos[2].author: unknown user "ghost"',
      't.yaml:17:9 projects[0].todos[3]: needs exactly one target: issue: <iid> or merge_request: <iid>',
      't.yaml:18:9 projects[0].todos[4]: needs exactly one target: issue: <iid> or merge_request: <iid>',
    ])
  })
})

describe('emails: and notification_settings: of users', () => {
  it('loads secondary emails and settings of every kind', () => {
    const scenario = parseScenario([
      ...BASE.slice(0, 4),
      '    notification_settings:',
      '      - { level: watch, notification_email: amy@work.test }',
      '      - { group: acme, level: custom, events: { new_note: true, new_epic: false } }',
      '      - { project: acme/web }',
      ...BASE.slice(4),
    ].join('\n'))
    const db = createDb()
    applyScenario(db, scenario, { seed: 1, referenceDate: new Date('2021-04-01T12:00:00.000Z') })
    expect(db.tables.emails.all().map((e) => [e.email, e.confirmed_at !== null])).toEqual([['amy@work.test', true], ['amy@old.test', false]])
    const [global, group, project] = db.tables.notification_settings.all()
    expect(global).toMatchObject({ source_type: null, level: 'watch', notification_email: 'amy@work.test' })
    expect(group).toMatchObject({ source_type: 'Namespace', level: 'custom', new_note: true, new_epic: false, new_issue: null, moved_project: true })
    expect(project).toMatchObject({ source_type: 'Project', level: 'global', new_epic: null, merge_when_pipeline_succeeds: false })
  })

  it('reports unknown sources, a second setting for a source, unowned emails and misplaced fields', () => {
    expect(problemsOf([
      ...BASE.slice(0, 4),
      '    notification_settings:', //                                                   5
      '      - { level: loud, notification_email: amy@old.test }', //                    6
      '      - { level: mention }', //                                                   7
      '      - { group: nope }', //                                                      8
      '      - { project: acme/web, events: { new_epic: true } }', //                    9
      '      - { group: acme, project: acme/web }', //                                   10
      '      - { group: acme, notification_email: amy@work.test }', //                   11
      ...BASE.slice(4),
    ])).toEqual([
      't.yaml:6:18 users[0].notification_settings[0].level: must be one of disabled, participating, watch, global, mention, custom; got "loud"',
      't.yaml:6:44 users[0].notification_settings[0].notification_email: "amy@old.test" is not one of the user\'s verified emails (email or a confirmed entry of emails)',
      't.yaml:7:9 users[0].notification_settings[1]: a second notification setting for the global level (one per user and source)',
      't.yaml:8:18 users[0].notification_settings[2].group: unknown group "nope"',
      't.yaml:9:9 users[0].notification_settings[3]: new_epic is a group event only',
      't.yaml:10:9 users[0].notification_settings[4]: names both a group and a project; one setting is for one of them',
      't.yaml:11:9 users[0].notification_settings[5]: notification_email belongs to the global setting (one without group or project)',
    ])
  })
})
