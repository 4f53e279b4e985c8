"""fakelab's fixtures for python-gitlab's own functional tests, loaded as a pytest plugin (`-p fakelab_fixtures`).

Upstream's tests/functional/conftest.py starts GitLab in Docker and creates every fixture through the
API; the run here ignores it (`--noconftest`) and uses these instead. The server is fakelab on the
default scenario (its URL in FAKELAB_URL), the admin is the scenario's root, and every fixture is
made through the API as upstream makes it: a new group, user, issue and milestone; a new, empty
project per test module (`POST /projects`); `project_file` commits README on `main`, which makes
`main` the default branch of the empty repository; `release` and `merge_request` are made from the
project's default branch.

One mapping, for one module: test_branches.py branches off `main` in an empty project. GitLab 13.x
answers that with 400 "Invalid reference name" (`Branches::CreateService` first commits README.md on
`master`, its 13.x default, so no `main` exists; GitLab 14 made `main` the default), so that module's
project gets its first commit on `main` (a README, as `project_file` makes it) before its test runs.
"""
import os
import time
import uuid

import pytest

import gitlab

# Modules whose project has its first commit on `main` before their tests (see the docstring).
MAIN_FIRST = {"test_branches"}


@pytest.fixture(scope="session")
def gl():
    instance = gitlab.Gitlab(os.environ["FAKELAB_URL"], private_token="glpat-root-fakelab")
    instance.auth()
    return instance


@pytest.fixture(scope="session")
def wait_for_sidekiq():
    # fakelab has no background jobs: everything a request starts is done when it answers.
    def _wait(timeout: int = 30, step: float = 0.5, allow_fail: bool = False) -> bool:
        return True

    return _wait


@pytest.fixture(scope="module")
def group(gl):
    _id = uuid.uuid4().hex
    return gl.groups.create({"name": f"test-group-{_id}", "path": f"group-{_id}"})


def _commit_readme(project):
    return project.files.create(
        {"file_path": "README", "branch": "main", "content": "Initial content", "commit_message": "Initial commit"}
    )


@pytest.fixture(scope="module")
def project(gl, request):
    created = gl.projects.create({"name": f"test-project-{uuid.uuid4().hex}"})
    if request.module.__name__.rsplit(".", 1)[-1] in MAIN_FIRST:
        _commit_readme(created)
    return created


@pytest.fixture(scope="module")
def project_file(project):
    return _commit_readme(project)


@pytest.fixture(scope="function")
def release(project, project_file):
    _id = uuid.uuid4().hex
    project.refresh()
    return project.releases.create(
        {
            "name": f"we_have_a_slash/test-release-{_id}",
            "tag_name": _id,
            "description": "description",
            "ref": project.default_branch,
        }
    )


@pytest.fixture(scope="function")
def merge_request(project):
    """Makes a merge request from a new branch (one commit ahead) into the default branch, as upstream's does."""
    made = []

    def make(*, source_branch: str, create_pipeline: bool = False):
        project.refresh()
        branch = project.branches.create({"branch": source_branch, "ref": project.default_branch})
        project.files.create(
            {
                "file_path": f"README.{source_branch}",
                "branch": source_branch,
                "content": "Initial content",
                "commit_message": "New commit in new branch",
            }
        )
        if create_pipeline:
            # A merge request pipeline that never finishes, so that "merge when pipeline succeeds" waits.
            project.files.create(
                {
                    "file_path": ".gitlab-ci.yml",
                    "branch": source_branch,
                    "content": "test:\n  rules:\n    - if: '$CI_PIPELINE_SOURCE == \"merge_request_event\"'\n"
                    "  script:\n    - sleep 24h\n",
                    "commit_message": "Add a simple pipeline",
                }
            )
        mr = project.mergerequests.create(
            {
                "source_branch": source_branch,
                "target_branch": project.default_branch,
                "title": "Should remove source branch",
                "remove_source_branch": True,
            }
        )
        for _ in range(20):
            mr = project.mergerequests.get(mr.iid)
            if mr.merge_status != "checking":
                break
            time.sleep(0.1)
        made.extend([mr, branch])
        return mr

    yield make

    # Upstream deletes what it made; a deleted merge request or branch is fine (merged, source removed).
    for thing in made:
        try:
            thing.delete()
        except gitlab.exceptions.GitlabDeleteError:
            pass


@pytest.fixture(scope="module")
def user(gl):
    _id = uuid.uuid4().hex
    return gl.users.create(
        email=f"user{_id}@email.com", username=f"user{_id}", name=f"User {_id}", password="fakepassword"
    )


@pytest.fixture(scope="module")
def issue(project):
    _id = uuid.uuid4().hex
    return project.issues.create({"title": f"Issue {_id}", "description": f"Issue {_id} description"})


@pytest.fixture(scope="module")
def milestone(project):
    _id = uuid.uuid4().hex
    return project.milestones.create({"title": f"milestone{_id}"})
