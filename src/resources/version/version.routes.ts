/**
 * `GET /version`: the instance's version and revision, to any signed-in user. Among the first calls
 * clients make (python-gitlab `gl.version()`, gitbeaker `Metadata`/`version`).
 * GitLab 13.x has no `GET /metadata` (added in 15.2): fakelab answers it with the catch-all 404,
 * as 13.x does, so no route is registered for it.
 * gitlab: lib/api/version.rb (13.x: `before { authenticate! }`, no extra scope, body
 * `{version, revision}` from the GraphQL `metadata` query or its `Gitlab::VERSION` fallback).
 * @module
 */
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'

/**
 * The GitLab release fakelab simulates (gitlab-behaviour.md "Target version": 13.10–13.12).
 * spec-gap: the spec names no version string; this is the last 13.x release.
 */
export const GITLAB_VERSION = '13.12.15'
/** spec-gap: a fixed short commit-like revision (GitLab answers the 11-hex `Gitlab.revision`). */
export const GITLAB_REVISION = 'f4d1fa3b1d6'

/** The version route. */
export const versionRoutes: Route[] = [
  route('GET /version', {
    handler() {
      // Field order as lib/api/version.rb's query: version, revision.
      return ok({ version: GITLAB_VERSION, revision: GITLAB_REVISION })
    },
  }),
]
