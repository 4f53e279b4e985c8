/**
 * What other areas may use of the projects area: the project list (`ProjectsFinder`, narrowed as
 * `GroupProjectsFinder` does), namespaces by id, and the transfer of a project
 * (`Projects::TransferService`, which `POST /groups/:id/projects/:project_id` also runs). Its public
 * module: besides `index.ts`, the only file of this folder another area imports. The forks and
 * project-export areas create projects through `createProject` (`Projects::CreateService`, which
 * `ForkService` and the import run) in a namespace `findNamespaceForCaller` resolved.
 * @module
 */
export { listProjects, PROJECT_ORDER_COLUMNS } from './projects.service.js'
export { transferProject } from './projects.transfer.js'

export { projectByRedirect } from './projects.redirects.js'
export { createProject, destroyProject } from './projects.service.js'
export type { ProjectNamespace } from './projects.service.js'
export { findNamespaceForCaller } from './projects.transfer.js'
