/**
 * What other areas may use of the version area: the release fakelab simulates (a job's
 * `CI_SERVER_VERSION*` and `CI_SERVER_REVISION` variables). gitlab: lib/gitlab.rb (`VERSION`, `revision`).
 * @module
 */
export { GITLAB_REVISION, GITLAB_VERSION } from './version.routes.js'
