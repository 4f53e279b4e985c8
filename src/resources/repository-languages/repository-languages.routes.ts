/**
 * `GET /projects/:id/languages`: the repository's languages and their shares in percent (anyone
 * who can read the project). gitlab: lib/api/projects.rb (13.12).
 * @module
 */
import { p } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { repositoryLanguages } from './repository-languages.service.js'

/** The languages route. */
export const languageRoutes: Route[] = [
  route('GET /projects/:id/languages', {
    auth: 'optional',
    params: { id: p.string({ required: true }) },
    handler(ctx) {
      return ok(repositoryLanguages(ctx.db, findProject(ctx, ctx.params.id)))
    },
  }),
]
