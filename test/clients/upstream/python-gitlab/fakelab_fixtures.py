"""fakelab's fixtures for python-gitlab's own functional tests, loaded as a pytest plugin (`-p fakelab_fixtures`).

Upstream's tests/functional/conftest.py starts GitLab in Docker and creates every fixture through the
API; the run here ignores it (`--noconftest`) and uses these instead. The server is fakelab on the
default scenario (its URL in FAKELAB_URL), the admin is the scenario's root, and the fixtures are
made the way upstream makes them (a new group, user, issue and milestone through the API), with
one mapping: `project` is the default scenario's acme/website (id 20), not a new empty project,
because the merge-request tests work on an existing merge request (upstream creates those in
earlier tests of its module, which need a repository; issue 26 brings that).
"""
import os
import uuid

import pytest

import gitlab


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


@pytest.fixture(scope="module")
def project(gl):
    return gl.projects.get(20)


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
