#!/bin/sh
# The `docker` command upstream's conftest calls, for python-gitlab's functional suite against
# fakelab (fakelab_upstream.py): the container's log says it is reconfigured, and
# `docker exec ... gitlab-rails runner <set_token.rb>` prints the token set_token.rb makes.
case "$1" in
  logs) echo "gitlab Reconfigured!" ;;
  exec) case "$*" in *gitlab-rails*) echo "python-gitlab-token" ;; *) echo "docker stand-in: $*" >&2; exit 1 ;; esac ;;
  *) echo "docker stand-in: $*" >&2; exit 1 ;;
esac
