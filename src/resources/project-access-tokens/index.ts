/**
 * The project access tokens area: `/projects/:id/access_tokens` routes. Tokens are rows of core's
 * `personal_access_tokens` table held by `project_bot` users (authentication reads that table);
 * a scenario gives one as a bot user with `tokens:` who is a Maintainer of the project.
 * gitlab: lib/api/resource_access_tokens.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import type { ResourceAccessToken as ResourceAccessTokenPresenter, ResourceAccessTokenWithToken as ResourceAccessTokenWithTokenPresenter } from './project-access-tokens.entities.js'

/** GitLab's `ResourceAccessToken` entity, as fakelab sends it. */
export type ResourceAccessToken = ReturnType<typeof ResourceAccessTokenPresenter>
/** GitLab's `ResourceAccessTokenWithToken` entity, as fakelab sends it. */
export type ResourceAccessTokenWithToken = ReturnType<typeof ResourceAccessTokenWithTokenPresenter>

/** The project access tokens area. */
export const projectAccessTokens: Area = {
  name: 'project-access-tokens',
  load: async () => {
    const { projectAccessTokenRoutes } = await import('./project-access-tokens.routes.js')
    return { api: projectAccessTokenRoutes }
  },
}
