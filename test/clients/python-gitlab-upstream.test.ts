/**
 * python-gitlab 3.12's own functional tests for the subjects of issue 25 (merge requests, project
 * milestones, issue discussions, resource events, issue links, groups, transfers), run unchanged
 * with pytest from the python-gitlab v3.12.0 source tree that `PYTHON_GITLAB_SRC` names, against
 * fakelab on the default scenario, with fakelab's fixtures (test/clients/upstream/python-gitlab/).
 * Every selected test must pass, and pytest must report on each. Skipped, saying so, without that
 * tree, python3-gitlab or python3-pytest: fakelab does not copy python-gitlab's code.
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serveDefaultScenario } from '../support/clients.js'

/** The first Python that has both python-gitlab and pytest (Debian's, in /usr/bin). */
function findPytest(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(candidate, ['-c', 'import gitlab, pytest'], { stdio: 'ignore' })
      return candidate
    } catch {
      // try the next one
    }
  }
  return undefined
}

const SELECTED = [
  'test_groups.py::test_groups',
  'test_groups.py::test_group_transfer',
  'test_issues.py::test_issue_labels',
  'test_issues.py::test_issue_links',
  'test_issues.py::test_issue_events',
  'test_issues.py::test_issue_milestones',
  'test_issues.py::test_issue_discussions',
  'test_lazy_objects.py::test_list_children_after_lazy_get_with_path',
  'test_merge_requests.py::test_merge_request_discussion',
  'test_merge_requests.py::test_merge_request_labels',
  'test_merge_requests.py::test_merge_request_milestone_events',
  'test_projects.py::test_project_milestones',
  'test_projects.py::test_project_milestone_promotion',
  'test_projects.py::test_project_groups_list',
  'test_projects.py::test_project_transfer',
  'test_users.py::test_user_projects_list',
]

const source = process.env['PYTHON_GITLAB_SRC']
const api = source === undefined ? undefined : join(source, 'tests', 'functional', 'api')
const python = api !== undefined && existsSync(api) ? findPytest() : undefined
const fixtures = join(import.meta.dirname, 'upstream', 'python-gitlab')

describe.skipIf(python === undefined)('python-gitlab 3.12 functional tests (skipped without PYTHON_GITLAB_SRC, python3-gitlab and python3-pytest)', () => {
  const fakelab = serveDefaultScenario()

  it('passes every selected upstream test', async () => {
    const output = await new Promise<string>((resolve) => {
      execFile(
        python!,
        ['-W', 'ignore', '-m', 'pytest', '-p', 'no:cacheprovider', '--noconftest', '-p', 'fakelab_fixtures',
          '-rA', '-q', '--tb=short', ...SELECTED],
        {
          cwd: api,
          env: { ...process.env, FAKELAB_URL: fakelab.url, PYTHONPATH: fixtures },
          timeout: 120_000,
        },
        // pytest exits 1 when a test fails: the outcome lines below say which, so read them either way.
        (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`),
      )
    })
    const outcomes = new Map<string, string>()
    for (const match of output.matchAll(/^(PASSED|FAILED|ERROR) (\S+?)(?: - .*)?$/gm)) outcomes.set(match[2]!, match[1]!)
    const failed = SELECTED.filter((test) => outcomes.get(test) !== 'PASSED')
    expect(failed, output).toEqual([])
    expect([...outcomes.keys()].sort()).toEqual([...SELECTED].sort())
  }, 180_000)
})
