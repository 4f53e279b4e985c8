/**
 * The templates area: the instance's `.gitlab-ci.yml`, `.gitignore`, Dockerfile and license
 * templates (`/templates/*`), a small real set shipped with fakelab, and the templates a project may
 * use (`/projects/:id/templates/:type`: those, plus its repository's issue and merge request
 * templates). No tables, no scenario fragment. gitlab: lib/api/templates.rb, project_templates.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The templates area. */
export const templates: Area = {
  name: 'templates',
  load: async () => {
    const { templateRoutes } = await import('./templates.routes.js')
    const { projectTemplateRoutes } = await import('./project-templates.routes.js')
    return { api: [...templateRoutes, ...projectTemplateRoutes] }
  },
}
