/**
 * Deploy token routes: the instance list (administrators), and list, get, create and delete on a
 * project and on a group (one definition for both). Tokens are presented without their secret,
 * except in the create answer.
 * gitlab: lib/api/deploy_tokens.rb (13.12; the single-token GET is 14.9's, served because
 * python-gitlab's suite reads tokens back with it).
 * @module
 */
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { findGroup, findProject } from '../../rules/finders.js'
import { DeployToken, DeployTokenWithToken } from './deploy-tokens.entities.js'
import {
  allDeployTokens,
  authorizeDeployTokens,
  createDeployToken,
  findHolderDeployToken,
  holderDeployTokens,
  type DeployTokenHolder,
} from './deploy-tokens.service.js'
import { DEPLOY_TOKEN_SCOPES } from './deploy-tokens.tables.js'

const id = p.string({ required: true })
const tokenId = p.integer({ required: true })

/** The holder kinds: `/projects/:id` (`user_project`, 404 Project) and `/groups/:id` (`find_group!`, 404 Group). */
const HOLDERS: { prefix: string; find: (ctx: Ctx<{ id: string }>) => DeployTokenHolder }[] = [
  { prefix: '/projects/:id', find: (ctx) => ({ kind: 'project', project: findProject(ctx, ctx.params.id) }) },
  { prefix: '/groups/:id', find: (ctx) => ({ kind: 'group', group: findGroup(ctx, ctx.params.id) }) },
]

const createParams = {
  id,
  name: p.string({ required: true }),
  scopes: p.strings({ required: true, values: DEPLOY_TOKEN_SCOPES }),
  expires_at: p.datetime(),
  username: p.string(),
}

/** The deploy token routes. */
export const deployTokenRoutes: Route[] = [
  route('GET /deploy_tokens', {
    auth: 'admin',
    params: { ...paginationParams },
    handler(ctx) {
      return paginated(ctx, allDeployTokens(ctx.db), DeployToken)
    },
  }),

  ...HOLDERS.flatMap(({ prefix, find }) => [
    route(`GET ${prefix}/deploy_tokens`, {
      params: { id, ...paginationParams },
      handler(ctx) {
        const holder = find(ctx)
        authorizeDeployTokens(ctx, holder, 'read')
        return paginated(ctx, holderDeployTokens(ctx.db, holder), DeployToken)
      },
    }),

    route(`POST ${prefix}/deploy_tokens`, {
      params: createParams,
      handler(ctx) {
        const holder = find(ctx)
        authorizeDeployTokens(ctx, holder, 'create')
        const { name, scopes, expires_at, username } = ctx.params
        return created(DeployTokenWithToken(createDeployToken(ctx, holder, { name, scopes, expires_at, username })))
      },
    }),

    // spec-gap: GitLab 14.9's route (13.12 has no single-token GET); python-gitlab reads tokens back with it.
    route(`GET ${prefix}/deploy_tokens/:token_id`, {
      params: { id, token_id: tokenId },
      handler(ctx) {
        const holder = find(ctx)
        authorizeDeployTokens(ctx, holder, 'read')
        return ok(DeployToken(findHolderDeployToken(ctx.db, holder, ctx.params.token_id)))
      },
    }),

    route(`DELETE ${prefix}/deploy_tokens/:token_id`, {
      params: { id, token_id: tokenId },
      handler(ctx) {
        const holder = find(ctx)
        authorizeDeployTokens(ctx, holder, 'destroy')
        const token = findHolderDeployToken(ctx.db, holder, ctx.params.token_id)
        // spec-gap: 13.12 destroys the holder's join row and keeps the token in the instance list;
        // later GitLab (and python-gitlab's suite) destroys the token itself, as fakelab does.
        ctx.db.tables.deploy_tokens.delete(token.id)
        return noContent()
      },
    }),
  ]),
]
