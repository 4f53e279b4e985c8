/**
 * `/projects/:id/access_tokens`: list, create, revoke. GitLab declares these for each resource type
 * in resource_access_tokens.rb; 13.x has only projects, so the loop has one source type here.
 * Source: api-spec.md "### Project access tokens"; gitlab-behaviour.md §3, §13, §14 item 9;
 * gitlab: lib/api/resource_access_tokens.rb.
 * @module
 */
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { SOURCES } from '../../rules/source.js'
import { ResourceAccessToken, ResourceAccessTokenWithToken } from './project-access-tokens.entities.js'
import { createProjectToken, listProjectTokens, revokeProjectToken } from './project-access-tokens.service.js'

const id = p.string({ required: true })
const source = SOURCES.project
const tokens = `${source.prefix}/access_tokens`

/** The project access token routes. */
export const projectAccessTokenRoutes: Route[] = [
  route(`GET ${tokens}`, {
    params: { id, ...paginationParams },
    handler(ctx) {
      const { project } = source.find(ctx, ctx.params.id)
      return paginated(ctx, listProjectTokens(ctx, project), (token) => ResourceAccessToken(token, ctx))
    },
  }),

  route(`POST ${tokens}`, {
    params: { id, name: p.string({ required: true }), scopes: p.strings({ required: true }), expires_at: p.date() },
    handler(ctx) {
      const { project } = source.find(ctx, ctx.params.id)
      return created(ResourceAccessTokenWithToken(createProjectToken(ctx, project, ctx.params), ctx))
    },
  }),

  // spec-gap: the spec types token_id "integer or string"; a string that is no id finds no token (404).
  route(`DELETE ${tokens}/:token_id`, {
    params: { id, token_id: p.integerOrString({ required: true }) },
    handler(ctx) {
      const { project } = source.find(ctx, ctx.params.id)
      revokeProjectToken(ctx, project, ctx.params.token_id)
      return noContent()
    },
  }),
]
