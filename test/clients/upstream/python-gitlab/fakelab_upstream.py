"""pytest plugin: python-gitlab 3.12's functional suite, with upstream's own conftest, against fakelab.

Upstream's conftest.py starts GitLab with pytest-docker and reaches into the container with the
`docker` command. This plugin stands in for what that needs, and nothing else:

- `docker_ip` and `docker_services` (pytest-docker's fixtures): the fakelab server that
  scripts/python-gitlab-suite.mjs started, from FAKELAB_URL;
- `script_runner` (pytest-console-scripts' fixture, subprocess mode as upstream's tox runs the CLI
  tests): runs the console script and returns its exit code and output;
- the `docker` command itself is a stand-in on PATH (docker-stand-in.sh beside this file): `docker logs`
  says the container is reconfigured, `docker exec ... gitlab-rails runner` prints the token that
  set_token.rb makes.

Upstream's conftest, fixtures and tests run unchanged.
"""
import os
import subprocess
from urllib.parse import urlparse

import pytest


class _Services:
    """pytest-docker's `Services`, answering for the one service: fakelab."""

    def __init__(self, url):
        self._port = urlparse(url).port

    def port_for(self, service, container_port):
        return self._port

    def wait_until_responsive(self, check, timeout, pause, clock=None):
        if not check():
            raise RuntimeError("fakelab did not answer its health checks")


@pytest.fixture(scope="session")
def docker_ip():
    return urlparse(os.environ["FAKELAB_URL"]).hostname


@pytest.fixture(scope="session")
def docker_services():
    return _Services(os.environ["FAKELAB_URL"])


class _RunResult:
    """pytest-console-scripts' `RunResult`: the fields upstream's CLI tests read."""

    def __init__(self, completed):
        self.returncode = completed.returncode
        self.success = completed.returncode == 0
        self.stdout = completed.stdout
        self.stderr = completed.stderr


class _ScriptRunner:
    """pytest-console-scripts' `ScriptRunner` in subprocess mode."""

    def run(self, *command, **options):
        if len(command) == 1 and isinstance(command[0], (list, tuple)):
            command = tuple(command[0])
        completed = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=120)
        return _RunResult(completed)


@pytest.fixture
def script_runner():
    return _ScriptRunner()
