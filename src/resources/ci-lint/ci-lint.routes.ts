/**
 * CI lint (13.12): `POST /ci/lint` checks given content for anyone (13.12 refuses anonymous
 * callers only when sign-up is disabled or limited; fakelab's instance has sign-up enabled);
 * `GET /projects/:id/ci/lint` checks the project's `.gitlab-ci.yml` on its default branch
 * (`download_code`: a readable project's Guest of a private one 403); `POST /projects/:id/ci/lint`
 * checks given content (`create_pipeline`: Developer+). `dry_run` is accepted and the check stays
 * static (spec-gap: no pipeline simulation).
 * gitlab: lib/api/lint.rb (13.12), spec/requests/api/lint_spec.rb.
 * @module
 */
import { forbidden } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { canDownloadCode, commitIdOf, fileTextAt } from '../repository/repository.public.js'
import { canCreatePipeline, CI_CONFIG_PATH, lintCiYaml } from '../runners/runners.public.js'
import { InstanceLint, LintResult } from './ci-lint.entities.js'

/** The CI lint routes. */
export const ciLintRoutes: Route[] = [
  route('POST /ci/lint', {
    auth: 'optional',
    params: { content: p.string({ required: true }), include_merged_yaml: p.boolean(), include_jobs: p.boolean() },
    handler(ctx) {
      return ok(InstanceLint(lintCiYaml(ctx.params.content), ctx.params.include_merged_yaml === true))
    },
  }),

  route('GET /projects/:id/ci/lint', {
    auth: 'optional',
    params: { id: p.string({ required: true }), dry_run: p.boolean({ default: false }) },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canDownloadCode(ctx, project)) throw forbidden()
      const sha = commitIdOf(ctx, project, project.default_branch)
      // spec-gap: 13.12 answers 500 for an empty repository (`user_project.commit.id` on nil); fakelab
      // lints no content there.
      const text = sha === undefined ? undefined : fileTextAt(ctx, project, sha, CI_CONFIG_PATH)
      return ok(LintResult(lintCiYaml(text)))
    },
  }),

  route('POST /projects/:id/ci/lint', {
    auth: 'optional',
    params: { id: p.string({ required: true }), content: p.string({ required: true }), dry_run: p.boolean({ default: false }), include_jobs: p.boolean(), ref: p.string() },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      if (!canCreatePipeline(ctx, project)) throw forbidden()
      return ok(LintResult(lintCiYaml(ctx.params.content)))
    },
  }),
]
