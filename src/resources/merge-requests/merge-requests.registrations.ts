/**
 * The merge requests area's lookup hook in the repository area, loaded by its `register` (issue 39
 * item 4) before the first request: `DELETE /projects/:id/repository/merged_branches` keeps the
 * branches open merge requests use, which the repository area asks through its hook.
 * gitlab: app/services/branches/delete_merged_service.rb (13.12).
 * @module
 */
import { registerBranchesInUse } from '../repository/repository.public.js'
import { openMergeRequestBranches } from './merge-requests.public.js'

registerBranchesInUse(openMergeRequestBranches)
