/**
 * The git-http area: git's smart HTTP protocol (clone, fetch and push) on every project's in-memory
 * repository, at GitLab's web URLs (`/<namespace>/<project>.git/info/refs`, `git-upload-pack`,
 * `git-receive-pack`). It owns no table: it reads repositories and writes pushes through the
 * repository area's public module, authenticates as `Gitlab::Auth` does for git clients, and its
 * pushes publish the same `push` fact the API's commits do. Issue 35.
 * gitlab: app/controllers/repositories/git_http_controller.rb, lib/gitlab/auth.rb, lib/gitlab/git_access.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'

export type { GitActor, GitCredentialCheck } from './git-auth.js'

/** The git-http area. */
export const gitHttp: Area = {
  name: 'git-http',
  load: async () => {
    const { gitHttpWebRoutes } = await import('./git-http.routes.js')
    return { api: [], web: gitHttpWebRoutes }
  },
}
