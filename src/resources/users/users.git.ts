/**
 * A user's password on git over HTTP (`Gitlab::Auth#user_with_password_for_git`, 13.12): HTTP
 * Basic with a username (any case) or primary e-mail and the account's password (the scenario's
 * `password:`, or the one `POST`/`PUT /users` set) names that user, with every ability
 * (`full_authentication_abilities`: clone and push as the user's role allows). An account that is
 * not active, or whose password fakelab does not know, names none (git's 401 challenge follows).
 * spec-gap: GitLab refuses a password for a user with two-factor authentication ("HTTP Basic: Access
 * denied. You must use a personal access token…"); fakelab models no two-factor authentication.
 * gitlab: lib/gitlab/auth.rb (`find_with_user_password`, `user_with_password_for_git`),
 * lib/gitlab/auth/database/authentication.rb, app/models/user.rb (`by_login`).
 * @module
 */
import type { UserRecord } from '../../db/schema.js'
import { registerGitCredentialCheck } from '../git-http/git-http.public.js'

registerGitCredentialCheck((db, login, password) => {
  if (login === '' || password === '') return undefined
  const lower = login.toLowerCase()
  const byLogin = (u: UserRecord) => (lower.includes('@') ? u.email.toLowerCase() === lower : u.username.toLowerCase() === lower)
  const user = db.tables.users.find(byLogin)
  if (!user || user.state !== 'active' || user.password === undefined || user.password !== password) return undefined
  return { user, type: 'gitlab_or_ldap', abilities: new Set(['download_code', 'push_code']) }
})
