/**
 * The issue links and resource events parts of the scenario format: what they load and the problems
 * they report (`file:line:col message`). Source: src/resources/issue-links/issue-links.scenario.ts,
 * src/resources/resource-events/resource-events.scenario.ts.
 */
import { describe, expect, it } from 'vitest'
import { ScenarioError } from '../../src/scenario/index.js'
import { applyScenario, createDb, parseScenario } from '../../src/simulator.js'

const BASE = [
  'version: 1', //                                                                      1
  'users: [{ username: amy }, { username: bob }]', //                                   2
  'groups: [{ path: acme }]', //                                                        3
  'projects:', //                                                                       4
  '  - path: ops', //                                                                   5
  '    namespace: acme', //                                                             6
  '    issues: [{ id: 70, iid: 1, title: Other }]', //                                  7
  '  - path: web', //                                                                   8
  '    namespace: acme', //                                                             9
  '    labels: [{ name: bug, color: red }]', //                                         10
  '    milestones: [{ title: m1 }]', //                                                 11
  '    issues: [{ id: 80, iid: 1, title: One, author: bob }, { id: 81, iid: 2, title: Two }, { title: Three }]', // 12
  '    merge_requests: [{ id: 90, iid: 1, title: Fix, state: closed, source_branch: fix }]', //      13
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

function load(lines: string[]) {
  const db = createDb()
  applyScenario(db, parseScenario([...BASE, ...lines].join('\n')), { seed: 1, referenceDate: new Date('2021-04-01T12:00:00.000Z') })
  return db
}

describe('issue_links: of projects', () => {
  it('loads links in this project and to another, is_blocked_by stored as blocks the other way round', () => {
    const db = load([
      '    issue_links:',
      '      - { id: 7, issue: 1, target: 2, created_at: 2021-03-01T00:00:00Z }',
      '      - { issue: 2, target: acme/ops#1, link_type: is_blocked_by }',
    ])
    const [first, second] = db.tables.issue_links.all()
    expect(first).toEqual({ id: 7, source_id: 80, target_id: 81, link_type: 'relates_to', created_at: '2021-03-01T00:00:00.000Z', updated_at: '2021-03-01T00:00:00.000Z' })
    expect(second).toMatchObject({ id: 8, source_id: 70, target_id: 81, link_type: 'blocks' })
  })

  it('reports unwritten iids, unknown projects, self links and pairs linked twice', () => {
    expect(problemsOf([
      ...BASE,
      '    issue_links:', //                                                            14
      '      - { issue: 3, target: 1 }', //                                              15
      '      - { issue: 1, target: nope/x#1 }', //                                       16
      '      - { issue: 1, target: acme/ops#9 }', //                                     17
      '      - { issue: 1, target: 1 }', //                                              18
      '      - { issue: 1, target: 2 }', //                                              19
      '      - { issue: 2, target: 1 }', //                                              20
    ])).toEqual([
      't.yaml:15:18 projects[1].issue_links[0].issue: no issue with iid 3 written in this project (links need a written iid)',
      't.yaml:16:29 projects[1].issue_links[1].target: unknown project "nope/x"',
      't.yaml:17:29 projects[1].issue_links[2].target: no issue with iid 9 written in that project (links need a written iid)',
      't.yaml:18:29 projects[1].issue_links[3].target: an issue cannot be related to itself',
      't.yaml:20:29 projects[1].issue_links[5].target: these issues are linked already',
    ])
  })
})

describe('resource_events: of projects', () => {
  it('loads label, milestone and state events, the user defaulting to the author', () => {
    const db = load([
      '    resource_events:',
      '      - { issue: 1, label: bug, created_at: 2021-03-01T00:00:00Z }',
      '      - { issue: 3, milestone: m1, action: remove, user: amy, created_at: 2021-03-02T00:00:00Z }',
      '      - { merge_request: 1, state: closed, user: amy, created_at: 2021-03-03T00:00:00Z }',
    ])
    const bug = db.tables.labels.all().find((l) => l.title === 'bug')!
    const m1 = db.tables.milestones.all().find((m) => m.title === 'm1')!
    const three = db.tables.issues.all().find((i) => i.iid === 3)!
    expect(db.tables.resource_label_events.all()).toEqual([{ id: 1, issue_id: 80, merge_request_id: null, label_id: bug.id, user_id: 2, action: 'add', created_at: '2021-03-01T00:00:00.000Z' }])
    expect(db.tables.resource_milestone_events.all()).toEqual([{ id: 1, issue_id: three.id, merge_request_id: null, milestone_id: m1.id, user_id: 1, action: 'remove', state: 'opened', created_at: '2021-03-02T00:00:00.000Z' }])
    expect(db.tables.resource_state_events.all()).toEqual([{ id: 1, issue_id: null, merge_request_id: 90, user_id: 1, state: 'closed', created_at: '2021-03-03T00:00:00.000Z' }])
  })

  it('reports unknown issuables, labels, milestones and users, and events with no or two changes', () => {
    expect(problemsOf([
      ...BASE,
      '    resource_events:', //                                                        14
      '      - { issue: 9, label: bug }', //                                             15
      '      - { merge_request: 2, state: closed }', //                                  16
      '      - { issue: 1, label: nope, user: zed }', //                                 17
      '      - { issue: 1, milestone: m9 }', //                                          18
      '      - { issue: 1 }', //                                                         19
      '      - { issue: 1, merge_request: 1, state: merged }', //                        20
      '      - { issue: 1, label: bug, state: closed }', //                              21
    ])).toEqual([
      't.yaml:15:18 projects[1].resource_events[0].issue: unknown issue #9 (not in this project)',
      't.yaml:16:26 projects[1].resource_events[1].merge_request: unknown merge request !2 (not in this project)',
      't.yaml:17:28 projects[1].resource_events[2].label: unknown label "nope" (not a label of this project or its groups)',
      't.yaml:17:40 projects[1].resource_events[2].user: unknown user "zed"',
      't.yaml:18:32 projects[1].resource_events[3].milestone: unknown milestone "m9" (not a milestone of this project or its groups)',
      't.yaml:19:9 projects[1].resource_events[4]: needs exactly one change: label, milestone or state',
      't.yaml:20:9 projects[1].resource_events[5]: needs exactly one issuable: issue: <iid> or merge_request: <iid>',
      't.yaml:21:9 projects[1].resource_events[6]: needs exactly one change: label, milestone or state',
    ])
  })
})
