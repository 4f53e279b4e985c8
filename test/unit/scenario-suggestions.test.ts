/**
 * Issue 38 items 2 and 6: a scenario's references into a project's repository (an open merge
 * request's branches, a pipeline's and a job's ref, a release's tag) must name what the repository
 * has, reported at `file:line:col` with the names that exist; and every unknown key, user, group,
 * project, namespace, label, milestone and enum value gets a did-you-mean, as fault rules do.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { scenarioProblems } from '../support/scenario-problems.js'

const REPOSITORY = [
  '    repository:',
  '      commits:',
  '        - { message: "init\\n", files: { a.txt: "a\\n" } }',
  '        - { branch: feature/login, message: "login\\n", files: { b.txt: "b\\n" } }',
  '      tags: [{ name: v1.0.0, ref: main }]',
].join('\n')
const head = (project: string) => `version: 1\nusers: [{ username: bob }, { username: alice }]\ngroups: [{ path: acme }]\nprojects:\n  - path: site\n    namespace: acme\n${REPOSITORY}\n${project}`

describe('references into a project\'s repository', () => {
  it.each([
    [
      'an open merge request\'s source branch',
      '    merge_requests: [{ title: Login, source_branch: feature/logn }]\n',
      ['test.yaml:12:53 projects[0].merge_requests[0].source_branch: unknown branch "feature/logn" in the repository of acme/site (did you mean "feature/login"?); its branches: main, feature/login'],
    ],
    [
      'an open merge request\'s target branch',
      '    merge_requests: [{ title: Login, source_branch: feature/login, target_branch: mian }]\n',
      ['test.yaml:12:83 projects[0].merge_requests[0].target_branch: unknown branch "mian" in the repository of acme/site (did you mean "main"?); its branches: main, feature/login'],
    ],
    [
      'a pipeline\'s ref',
      '    pipelines: [{ id: 1, ref: v1.0, status: success }]\n',
      ['test.yaml:12:31 projects[0].pipelines[0].ref: unknown branch or tag "v1.0" in the repository of acme/site (did you mean "v1.0.0"?); its branches: main, feature/login; its tags: v1.0.0'],
    ],
    [
      'a runner job\'s ref',
      '    pipelines: [{ id: 1, ref: main, status: success }]\nrunners: [{ description: r, projects: [acme/site], jobs: [{ pipeline: 1, ref: feature/logn }] }]\n',
      ['test.yaml:13:79 runners[0].jobs[0].ref: unknown branch or tag "feature/logn" in the repository of acme/site (did you mean "feature/login"?); its branches: main, feature/login; its tags: v1.0.0'],
    ],
    [
      'a release\'s tag',
      '    releases: [{ tag_name: v1.0.1 }]\n',
      ['test.yaml:12:28 projects[0].releases[0].tag_name: unknown tag "v1.0.1" in the repository of acme/site (did you mean "v1.0.0"?); its tags: v1.0.0'],
    ],
  ])('refuses %s that the repository lacks', (_what, project, problems) => {
    expect(scenarioProblems(head(project))).toEqual(problems)
  })

  it('accepts a merged merge request whose source branch is gone, and refs that exist', () => {
    const project = [
      '    merge_requests:',
      '      - { title: Old, state: merged, source_branch: removed-after-merge }',
      '      - { title: Login, source_branch: feature/login }',
      '    pipelines: [{ id: 1, ref: v1.0.0, status: success }, { id: 2, ref: feature/login, status: running }]',
      '    releases: [{ tag_name: v1.0.0 }]',
      '',
    ].join('\n')
    expect(scenarioProblems(head(project))).toEqual([])
  })

  it('checks nothing in a project without a repository: its merge requests keep made-up values', () => {
    const text = 'version: 1\nusers: [{ username: bob }]\nprojects: [{ path: p, namespace: bob, merge_requests: [{ title: T, source_branch: anything }] }]\n'
    expect(scenarioProblems(text)).toEqual([])
  })

  it('turns the typo of the issue into a refused scenario instead of a mergeable merge request without changes', () => {
    expect(() => createSimulator({ scenario: head('    merge_requests: [{ title: Login, source_branch: feature/logn }]\n') })).toThrow(/unknown branch "feature\/logn"/)
  })
})

describe('did-you-mean in scenario problems', () => {
  const base = 'version: 1\nusers: [{ username: bob }, { username: alice }]\ngroups:\n  - path: acme\n    labels: [{ name: bug, color: red }]\n    milestones: [{ title: sprint-1 }]\n'
  it.each([
    ['an unknown key', `${base}projects: [{ path: p, namespace: acme, merge_request: [] }]\n`, 'test.yaml:7:40 projects[0]: unknown key "merge_request" (did you mean "merge_requests"?)'],
    ['an unknown nested key', `${base}projects: [{ path: p, namespace: acme, labels: [{ name: x, colour: red }] }]\n`, 'test.yaml:7:60 projects[0].labels[0]: unknown key "colour" (did you mean "color"?)'],
    // Near a field of an area the file uses nowhere else (issue 39 item 4: such a file is checked
    // with every area's fragment, so the suggestion is the one the whole format gives).
    ['an unknown project key near an unused area\'s field', `${base}projects: [{ path: p, namespace: acme, freeze_period: [] }]\n`, 'test.yaml:7:40 projects[0]: unknown key "freeze_period" (did you mean "freeze_periods"?)'],
    ['an unknown key inside an otherwise unused area\'s field', `${base}projects: [{ path: p, namespace: acme, wiki_pages: [{ title: Home, formatt: markdown }] }]\n`, 'test.yaml:7:68 projects[0].wiki_pages[0]: unknown key "formatt" (did you mean "format"?)'],
    ['an unknown top-level key near an unused area\'s field', `${base}ci_variable: [{ key: K, value: v }]\n`, 'test.yaml:7:1 unknown key "ci_variable" (did you mean "ci_variables"?)'],
    ['an unknown user key near an unused area\'s field', 'version: 1\nusers: [{ username: bob, snipets: [] }]\n', 'test.yaml:2:26 users[0]: unknown key "snipets" (did you mean "snippets"?)'],
    ['an unknown group key near an unused area\'s field', 'version: 1\ngroups: [{ path: acme, deploy_token: [] }]\n', 'test.yaml:2:24 groups[0]: unknown key "deploy_token" (did you mean "deploy_tokens"?)'],
    ['an unknown user', `${base}projects: [{ path: p, namespace: acme, issues: [{ title: t, author: bobby }] }]\n`, 'test.yaml:7:69 projects[0].issues[0].author: unknown user "bobby" (did you mean "bob"?)'],
    ['an unknown namespace', `${base}projects: [{ path: p, namespace: acem }]\n`, 'test.yaml:7:34 projects[0].namespace: unknown namespace "acem" (did you mean "acme"?) (neither a group full path nor a username in the scenario)'],
    ['an unknown parent group', `${base}  - { path: web, parent: acmee }\n`, 'test.yaml:7:26 groups[1].parent: unknown parent group "acmee" (did you mean "acme"?) (must be the full path of a group in the scenario)'],
    ['an unknown project', `${base}runners: [{ description: r, projects: [acme/webiste] }]\nprojects: [{ path: website, namespace: acme }]\n`, 'test.yaml:7:40 runners[0].projects[0]: unknown project "acme/webiste" (did you mean "acme/website"?)'],
    ['an unknown group', `${base}runners: [{ description: r, groups: [amce] }]\n`, 'test.yaml:7:38 runners[0].groups[0]: unknown group "amce" (did you mean "acme"?)'],
    ['an unknown label', `${base}projects: [{ path: p, namespace: acme, issues: [{ title: t, labels: [bgu] }] }]\n`, 'test.yaml:7:70 projects[0].issues[0].labels[0]: unknown label "bgu" (did you mean "bug"?) (not a label of project "acme/p" or its groups)'],
    ['an unknown milestone', `${base}projects: [{ path: p, namespace: acme, issues: [{ title: t, milestone: sprint-2 }] }]\n`, 'test.yaml:7:72 projects[0].issues[0].milestone: unknown milestone "sprint-2" (did you mean "sprint-1"?) (not a milestone of project "acme/p" or its groups)'],
    ['an enum value', `${base}projects: [{ path: p, namespace: acme, members: [{ user: bob, access_level: maintainr }] }]\n`, 'test.yaml:7:77 projects[0].members[0].access_level: must be one of 0, 5, 10, 20, 30, 40, 50 or no_access, minimal_access, guest, reporter, developer, maintainer, owner; got "maintainr" (did you mean "maintainer"?)'],
    ['a schema enum value', `${base}projects: [{ path: p, namespace: acme, visibility: pubic }]\n`, 'test.yaml:7:52 projects[0].visibility: must be one of public, internal, private; got "pubic" (did you mean "public"?)'],
  ])('suggests for %s', (_what, text, problem) => {
    expect(scenarioProblems(text)).toEqual([problem])
  })

  it('suggests nothing when no name is close', () => {
    expect(scenarioProblems(`${base}projects: [{ path: p, namespace: acme, issues: [{ title: t, author: zed }] }]\n`)).toEqual([
      'test.yaml:7:69 projects[0].issues[0].author: unknown user "zed"',
    ])
  })
})
