/**
 * `POST /markdown`: renders `text` as HTML (`{"html": …}`, 201), with GitLab Flavored Markdown when
 * `gfm` is true and the references resolved in `project` when given (404 `Project Not Found` for a
 * project the caller may not read). Anyone may call it in 13.12 (authentication came with 15.3's
 * `authenticate_markdown_api`). gitlab: lib/api/markdown.rb (13.12).
 * @module
 */
import { notFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { created } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { canReadProject } from '../../rules/access.js'
import { renderMarkdown } from './markdown.render.js'

/** The Markdown route. */
export const markdownRoutes: Route[] = [
  route('POST /markdown', {
    auth: 'optional',
    params: { text: p.string({ required: true }), gfm: p.boolean(), project: p.string() },
    handler(ctx) {
      const q = ctx.params
      let project = null
      if (q.project !== undefined) {
        project = ctx.db.findProjectByFullPath(q.project) ?? null
        if (!project || !canReadProject(ctx.db, ctx.currentUser, project, ctx.today)) throw notFound('Project')
      }
      return created({ html: renderMarkdown({ ...ctx, project }, q.text, q.gfm === true) })
    },
  }),
]
