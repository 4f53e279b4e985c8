/**
 * The templates a project may use (`project_templates.rb`): `GET /projects/:id/templates/:type`
 * (TemplatesList, paginated) and `…/:type/:name` (Template, or License with `project` and
 * `fullname` filled in; `fullname` defaults to the caller's name). Types: the instance's
 * `dockerfiles`, `gitignores`, `gitlab_ci_ymls`, `licenses`, and the project's own issue and merge
 * request templates, read from its repository's default branch (`.gitlab/issue_templates/*.md`,
 * `.gitlab/merge_request_templates/*.md`). Anonymous callers may read a public project's
 * (`authenticate_non_get!`); an unreadable project is 404.
 * gitlab: lib/api/project_templates.rb, app/finders/template_finder.rb,
 * lib/gitlab/template/issue_template.rb, merge_request_template.rb,
 * lib/gitlab/template/finders/repo_template_finder.rb (13.12).
 * @module
 */
import { notFound, routeNotFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { commitIdOf, fileTextAt, flatFiles, repositoryOf } from '../repository/repository.public.js'
import { findProject } from '../../rules/finders.js'
import { License, Template, TemplatesList } from './templates.entities.js'
import { LICENSES, resolveLicense, TEMPLATES, type NamedTemplate } from './templates.catalog.js'

/**
 * The types fakelab answers. spec-gap: 13.12 also lists `metrics_dashboard_ymls` (its one vendored
 * dashboard, `Default`), which fakelab does not ship: that type answers 400 like an unknown one
 * (docs/spec-gaps.md).
 */
const TYPES = ['dockerfiles', 'gitignores', 'gitlab_ci_ymls', 'licenses', 'issues', 'merge_requests'] as const
type TemplateType = (typeof TYPES)[number]

/** Where a project keeps its description templates of each kind. */
const REPO_FOLDERS = { issues: '.gitlab/issue_templates', merge_requests: '.gitlab/merge_request_templates' } as const

/**
 * A project's description templates of one kind: the `.md` files directly in the folder on the
 * default branch (`RepoTemplateFinder#list_files_for`), sorted by name, each named by its file name
 * without `.md`. None when the repository is empty.
 */
function repoTemplates(ctx: Ctx<unknown>, project: ProjectRecord, kind: keyof typeof REPO_FOLDERS): NamedTemplate[] {
  const sha = commitIdOf(ctx, project, project.default_branch)
  if (sha === undefined) return []
  const repo = repositoryOf(ctx.db, project)
  const commit = repo.objects.commit(sha)
  if (!commit) return []
  const prefix = `${REPO_FOLDERS[kind]}/`
  const names = [...flatFiles(repo, commit.tree).keys()]
    .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/') && path.endsWith('.md'))
    .map((path) => path.slice(prefix.length, -'.md'.length))
    .sort()
  return names.map((name) => ({ name, content: fileTextAt(ctx, project, sha, `${prefix}${name}.md`) ?? '' }))
}

/** Every template of a non-license type the project may use, in list order. */
function namedTemplates(ctx: Ctx<unknown>, project: ProjectRecord, type: Exclude<TemplateType, 'licenses'>): readonly NamedTemplate[] {
  return type === 'issues' || type === 'merge_requests' ? repoTemplates(ctx, project, type) : TEMPLATES[type]
}

const params = { id: p.string({ required: true }), type: p.string({ required: true, values: TYPES }) }

/** The project templates routes. */
export const projectTemplateRoutes: Route[] = [
  route('GET /projects/:id/templates/:type', {
    auth: 'optional',
    params: { ...params, ...paginationParams },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const type = ctx.params.type
      if (type === 'licenses') return paginated(ctx, [...LICENSES], (l) => ({ key: l.key, name: l.name }))
      return paginated(ctx, [...namedTemplates(ctx, project, type)], TemplatesList)
    },
  }),

  route('GET /projects/:id/templates/:type/:name', {
    auth: 'optional',
    params: { ...params, name: p.string({ required: true }), project: p.string(), fullname: p.string() },
    handler(ctx) {
      // `requirements: { name: /[\w%.+-]+/ }`: other names match no route.
      if (!/^[\w%.+-]+$/.test(ctx.params.name)) throw routeNotFound()
      const project = findProject(ctx, ctx.params.id)
      const type = ctx.params.type
      if (type === 'licenses') {
        const license = LICENSES.find((l) => l.key === ctx.params.name)
        if (!license) throw notFound('Template')
        const content = resolveLicense(license.content, {
          year: String(new Date(ctx.now).getUTCFullYear()),
          project: ctx.params.project || undefined,
          fullname: ctx.params.fullname || ctx.currentUser?.name,
        })
        return ok(License(license, content))
      }
      const template = namedTemplates(ctx, project, type).find((t) => t.name === ctx.params.name)
      if (!template) throw notFound('Template')
      return ok(Template(template))
    },
  }),
]
