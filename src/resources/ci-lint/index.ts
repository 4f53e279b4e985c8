/**
 * The CI lint area: `POST /ci/lint` and `GET|POST /projects/:id/ci/lint`, checking `.gitlab-ci.yml`
 * content with the pipelines' own reader (runners.public.ts `lintCiYaml`). No tables, no scenario
 * fragment. gitlab: lib/api/lint.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The CI lint area. */
export const ciLint: Area = {
  name: 'ci-lint',
  load: async () => {
    const { ciLintRoutes } = await import('./ci-lint.routes.js')
    return { api: ciLintRoutes }
  },
}
