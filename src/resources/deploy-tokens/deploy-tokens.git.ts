/**
 * Deploy tokens on git over HTTP (`Gitlab::Auth#deploy_token_check`, 13.12): HTTP Basic with the
 * token's username and its secret as the password names the token when it is active (neither
 * revoked nor expired), the login is its username, and it has access to the project (its own, or
 * for a group token a project of the group or its descendants); its scopes give its abilities
 * (`read_repository`: `download_code`; the registry scopes nothing git reads). A deploy token never
 * pushes: 13.12's deploy tokens have no `write_repository` scope (`DeployToken::AVAILABLE_SCOPES`),
 * so a push is "You are not allowed to upload code.". Anything else names no token, and the next
 * check runs (in the end git's 401 challenge).
 * gitlab: lib/gitlab/auth.rb (`deploy_token_check`, `abilities_for_scopes`), lib/gitlab/git_access.rb.
 * @module
 */
import { registerGitCredentialCheck, type GitAbility } from '../git-http/git-http.public.js'
import { deployTokenActive, deployTokenHasAccessTo } from './deploy-tokens.service.js'
import { deployTokenUsername } from './deploy-tokens.entities.js'

registerGitCredentialCheck((db, login, password, project, now) => {
  if (password === '') return undefined
  const token = db.tables.deploy_tokens.where('token', password)[0]
  if (!token || !deployTokenActive(token, now.toISOString()) || login !== deployTokenUsername(token)) return undefined
  if (project && !deployTokenHasAccessTo(db, token, project)) return undefined
  const abilities = new Set<GitAbility>(token.scopes.includes('read_repository') ? ['download_code'] : [])
  return { user: null, type: 'deploy_token', abilities, deployAccess: { read: true, write: false } }
})
