/**
 * The repository-languages area: `GET /projects/:id/languages`, from GitHub Linguist's language data,
 * which is large: its own area so that only a languages request loads it.
 * gitlab: lib/api/projects.rb, app/services/projects/repository_languages_service.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'

/** The repository-languages area. */
export const repositoryLanguages: Area = {
  name: 'repository-languages',
  load: async () => {
    const { languageRoutes } = await import('./repository-languages.routes.js')
    return { api: languageRoutes }
  },
}
