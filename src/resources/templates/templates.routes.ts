/**
 * The instance's templates: `GET /templates/{gitignores,gitlab_ci_ymls,dockerfiles}` (TemplatesList,
 * paginated) and `/:name` (Template), `GET /templates/licenses` (License, `popular` filter,
 * paginated) and `/:name` with `project` and `fullname` filled into the text (`fullname` defaults
 * to the caller's name). Anyone may read them, anonymous callers too.
 * gitlab: lib/api/templates.rb (13.12), doc/api/templates/*.md.
 * @module
 */
import { notFound, routeNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { ok, paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { License, Template, TemplatesList } from './templates.entities.js'
import { LICENSES, resolveLicense, TEMPLATES, type TemplateKind } from './templates.catalog.js'

/** `requirements: { name: /[\w\.-]+/ }`: other names match no route. */
function checkName(name: string): void {
  if (!/^[\w.-]+$/.test(name)) throw routeNotFound()
}

/** The list and show routes of one kind of named template. */
function namedRoutes(kind: TemplateKind): Route[] {
  const singular = kind.slice(0, -1)
  return [
    route(`GET /templates/${kind}`, {
      auth: 'optional',
      params: { ...paginationParams },
      handler: (ctx) => paginated(ctx, [...TEMPLATES[kind]], TemplatesList),
    }),
    route(`GET /templates/${kind}/:name`, {
      auth: 'optional',
      params: { name: p.string({ required: true }) },
      handler(ctx) {
        checkName(ctx.params.name)
        const template = TEMPLATES[kind].find((t) => t.name === ctx.params.name)
        // `not_found!(template_type.to_s.singularize)`.
        if (!template) throw notFound(singular)
        return ok(Template(template))
      },
    }),
  ]
}

/** Every templates route. */
export const templateRoutes: Route[] = [
  ...namedRoutes('gitignores'),
  ...namedRoutes('gitlab_ci_ymls'),
  ...namedRoutes('dockerfiles'),

  route('GET /templates/licenses', {
    auth: 'optional',
    params: { popular: p.boolean(), ...paginationParams },
    handler(ctx) {
      const year = String(new Date(ctx.now).getUTCFullYear())
      // `popular=true`: only the featured ones (`LicenseTemplateFinder#popular_only?`); otherwise all.
      const list = ctx.params.popular === true ? LICENSES.filter((l) => l.popular) : LICENSES
      return paginated(ctx, [...list], (l) => License(l, resolveLicense(l.content, { year })))
    },
  }),

  route('GET /templates/licenses/:name', {
    auth: 'optional',
    params: { name: p.string({ required: true }), project: p.string(), fullname: p.string() },
    handler(ctx) {
      checkName(ctx.params.name)
      const license = LICENSES.find((l) => l.key === ctx.params.name)
      if (!license) throw notFound('License')
      const content = resolveLicense(license.content, {
        year: String(new Date(ctx.now).getUTCFullYear()),
        project: ctx.params.project,
        fullname: ctx.params.fullname || ctx.currentUser?.name,
      })
      return ok(License(license, content))
    },
  }),
]
