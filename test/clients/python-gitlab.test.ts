/**
 * python-gitlab, unmodified, against `startServer` on the default scenario: labels by name (and
 * its deprecated label update), subscribe then 304, the milestone life cycle, freeze periods through
 * its generic HTTP methods (3.12 has no freeze period manager), Link-header page walking and sudo.
 * python-gitlab is not an npm package: the test runs where `python3 -c 'import gitlab'` works
 * (Debian's python3-gitlab) and is skipped, saying so, elsewhere.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findPython, runPython, serveDefaultScenario } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()

  it('drives labels, milestones, freeze periods, pagination and sudo', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_check.py')
    const output = await runPython(python!, script, fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'user max',
      "labels ['bug', 'docs', 'feature', 'frontend', 'good first issue', 'needs review']",
      'created 120 #008080', // labels 115-119 are the issues area's
      'renamed py-label',
      'subscribed True',
      'second subscribe -> 304',
      'deleted',
      'milestone 4 active',
      'closed closed',
      'ms issues [1, 2]',
      'milestone deleted',
      'fp 303 UTC',
      'fp tz Europe/Berlin',
      'fp deleted',
      'projects page walk [20, 21, 23, 30]', // 30: the issues area's ivy/tracker
      'sudo devon',
    ])
  })

  // [members] issue 9: project access tokens, project and group members (members_all too), billable members.
  it('drives project access tokens, members and billable members', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_members_check.py')
    const output = await runPython(python!, script, fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      "tokens [(17, 'Website deploy bot', True)]",
      "token created py-token ['read_api'] 2021-12-31 20",
      'bot user project_20_bot1 True',
      'read_api write -> 403',
      'token revoked',
      'revoked token -> 401',
      'member added oscar 30 2021-12-31',
      'member updated 40',
      "project members [('elena', 30), ('project_20_bot', 40), ('oscar', 40)]",
      "project members_all [('devon', 30), ('elena', 30), ('gina', 10), ('max', 40), ('olive', 50), ('oscar', 40), ('project_20_bot', 40), ('riley', 20)]",
      'member_all get 50',
      'member removed [9, 90]',
      'again -> 409 Member already exists',
      'group member added oscar 20',
      'group member updated 30',
      "group members ['gina', 'riley', 'devon', 'max', 'olive', 'oscar']",
      "subgroup members_all ['gina', 'riley', 'devon', 'max', 'olive', 'oscar']",
      'group member removed',
      "billable ['devon', 'elena', 'gina', 'max', 'olive', 'riley']",
      "memberships [('Acme / Website', 'Developer')]",
      "billable removed ['gina', 'riley', 'devon', 'max', 'olive']",
    ])
  })
  // [/members]
  // --- to-dos and notification settings (todos, notification-settings areas): python_gitlab_todos.py ---
  it('drives to-dos (list, mark_as_done, issue todo then 304, mark_all_as_done) and notification settings (global, group, project get/save)', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_todos.py')
    const output = await runPython(python!, script, fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      'todos [606, 603, 601]',
      'filtered [603]',
      'target Issue 1 Login button does nothing',
      'marked 601 done',
      'todo on issue True',
      'second todo -> 304',
      'after all []',
      'done [601, 602, 603, 606]',
      'global watch nadia@work.example.com',
      'changed mention nadia@example.com',
      'restored watch',
      'group custom True False True',
      'group saved watch',
      'project disabled',
      'project saved custom True True',
    ])
  })
  // --- end to-dos and notification settings ---
})
