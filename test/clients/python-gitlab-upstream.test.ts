/**
 * python-gitlab 3.12's own functional tests for the subjects of issue 25 (merge requests, project
 * milestones, issue discussions, resource events, issue links, groups, transfers) and issue 26
 * (repository files, tree, archives, commits, branches, tags, protected branches, releases, merge
 * requests that diff and merge), run unchanged with pytest from the python-gitlab v3.12.0 source
 * tree that `PYTHON_GITLAB_SRC` names, against fakelab on the default scenario, with fakelab's
 * fixtures (test/clients/upstream/python-gitlab/): a new project per module, as upstream makes it.
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

/**
 * The tests run, grouped by module in upstream's order (module-scoped fixtures carry state from test
 * to test: test_merge_requests makes the merge request the module's later tests read, and
 * test_issue_labels labels the issue whose label events test_issue_events reads), each marked with
 * the issue whose done-when names it. Issue 26's: every test of test_repository.py,
 * test_branches.py and test_releases.py, test_project_tags, test_project_protected_branches, and
 * test_merge_requests.py but the paid approval features and the one of a later GitLab
 * (test_merge_requests_list_approver_ids, test_project_approvals,
 * test_project_merge_request_approval_rules, test_merge_request_reset_approvals).
 */
const RUN: [issue: 25 | 26, test: string][] = [
  [26, 'test_branches.py::test_branch_name_with_period'],
  [25, 'test_groups.py::test_groups'],
  [25, 'test_groups.py::test_group_transfer'],
  [25, 'test_issues.py::test_issue_labels'],
  [25, 'test_issues.py::test_issue_links'],
  [25, 'test_issues.py::test_issue_events'],
  [25, 'test_issues.py::test_issue_milestones'],
  [25, 'test_issues.py::test_issue_discussions'],
  [25, 'test_lazy_objects.py::test_list_children_after_lazy_get_with_path'],
  [26, 'test_merge_requests.py::test_merge_requests'],
  [26, 'test_merge_requests.py::test_merge_requests_get'],
  [26, 'test_merge_requests.py::test_merge_requests_get_lazy'],
  [25, 'test_merge_requests.py::test_merge_request_discussion'],
  [25, 'test_merge_requests.py::test_merge_request_labels'],
  [25, 'test_merge_requests.py::test_merge_request_milestone_events'],
  [26, 'test_merge_requests.py::test_merge_request_basic'],
  [26, 'test_merge_requests.py::test_merge_request_rebase'],
  [26, 'test_merge_requests.py::test_cancel_merge_when_pipeline_succeeds'],
  [26, 'test_merge_requests.py::test_merge_request_merge'],
  [26, 'test_merge_requests.py::test_merge_request_should_remove_source_branch'],
  [26, 'test_merge_requests.py::test_merge_request_large_commit_message'],
  [26, 'test_merge_requests.py::test_merge_request_merge_ref'],
  [26, 'test_merge_requests.py::test_merge_request_merge_ref_should_fail'],
  [25, 'test_projects.py::test_project_milestones'],
  [25, 'test_projects.py::test_project_milestone_promotion'],
  [26, 'test_projects.py::test_project_protected_branches'],
  [26, 'test_projects.py::test_project_tags'],
  [25, 'test_projects.py::test_project_groups_list'],
  [25, 'test_projects.py::test_project_transfer'],
  [26, 'test_releases.py::test_create_project_release'],
  [26, 'test_releases.py::test_create_project_release_no_name'],
  [26, 'test_releases.py::test_update_save_project_release'],
  [26, 'test_releases.py::test_delete_project_release'],
  [26, 'test_releases.py::test_create_project_release_links'],
  [26, 'test_repository.py::test_repository_files'],
  [26, 'test_repository.py::test_repository_tree'],
  [26, 'test_repository.py::test_repository_archive'],
  ...['tbz', 'tbz2', 'tb2', 'bz2', 'tar', 'tar.gz', 'tar.bz2'].map((f) => [26, `test_repository.py::test_repository_archive_formats[${f}-is_tarfile]`] as [26, string]),
  [26, 'test_repository.py::test_repository_archive_formats[zip-is_zipfile]'],
  [26, 'test_repository.py::test_create_commit'],
  [26, 'test_repository.py::test_list_all_commits'],
  [26, 'test_repository.py::test_create_commit_status'],
  [26, 'test_repository.py::test_commit_signature'],
  [26, 'test_repository.py::test_commit_comment'],
  [26, 'test_repository.py::test_commit_discussion'],
  [26, 'test_repository.py::test_revert_commit'],
  [26, 'test_repository.py::test_repository_merge_base'],
  [25, 'test_users.py::test_user_projects_list'],
]

const TESTS = RUN.map(([, test]) => test)

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
          '-rA', '-q', '--tb=short', ...TESTS],
        {
          cwd: api,
          env: { ...process.env, FAKELAB_URL: fakelab.url, PYTHONPATH: fixtures },
          timeout: 240_000,
        },
        // pytest exits 1 when a test fails: the outcome lines below say which, so read them either way.
        (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`),
      )
    })
    const outcomes = new Map<string, string>()
    for (const match of output.matchAll(/^(PASSED|FAILED|ERROR) (\S+?)(?: - .*)?$/gm)) outcomes.set(match[2]!, match[1]!)
    const failed = TESTS.filter((test) => outcomes.get(test) !== 'PASSED')
    expect(failed, output).toEqual([])
    expect([...outcomes.keys()].sort()).toEqual([...TESTS].sort())
  }, 300_000)
})
