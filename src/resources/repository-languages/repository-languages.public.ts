/**
 * What other areas may use of the repository languages area: a project's detected languages
 * (`project.repository_languages`, largest share first), which a job's
 * `CI_PROJECT_REPOSITORY_LANGUAGES` lists. gitlab (13.12): app/models/project.rb.
 * @module
 */
export { repositoryLanguages } from './repository-languages.service.js'
