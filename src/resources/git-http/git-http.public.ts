/**
 * What other areas may ask of the git-http area: the seam through which the areas that own a
 * credential (deploy tokens, users' passwords) add their check to git's HTTP Basic authentication
 * (`Gitlab::Auth.find_for_git_client`), after the token checks.
 * gitlab: lib/gitlab/auth.rb (13.12).
 * @module
 */
export { registerGitCredentialCheck } from './git-auth.js'
export type { GitAbility } from './git-auth.js'
