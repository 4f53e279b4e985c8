/**
 * The deploy tokens area: `/deploy_tokens` (the instance's) and the deploy tokens of projects and
 * groups, the `deploy_tokens` table, and `deploy_tokens:` of scenario projects and groups. What
 * authentication needs of a token is in `deploy-tokens.public.ts`.
 * gitlab: lib/api/deploy_tokens.rb, app/models/deploy_token.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { deployTokenFragment } from './deploy-tokens.scenario.js'
import { deployTokenTables } from './deploy-tokens.tables.js'
import type { DeployToken as DeployTokenPresenter, DeployTokenWithToken as DeployTokenWithTokenPresenter } from './deploy-tokens.entities.js'

export type { DeployTokenRecord, DeployTokenScope } from './deploy-tokens.tables.js'
export type { DeployTokenFields } from './deploy-tokens.scenario.js'

/** GitLab's `DeployToken` entity, as fakelab sends it. */
export type DeployToken = ReturnType<typeof DeployTokenPresenter>
/** GitLab's `DeployTokenWithToken` entity, as fakelab sends it. */
export type DeployTokenWithToken = ReturnType<typeof DeployTokenWithTokenPresenter>

/** The deploy tokens area. */
export const deployTokens: Area = {
  name: 'deploy-tokens',
  load: async () => {
    const { deployTokenRoutes } = await import('./deploy-tokens.routes.js')
    return { api: deployTokenRoutes }
  },
  register: async () => {
    // A deploy token authenticates git's clones over HTTP (registered with the git-http area).
    await import('./deploy-tokens.git.js')
  },
  tables: deployTokenTables,
  scenario: deployTokenFragment,
  secrets: { headers: ['deploy-token'] },
}
