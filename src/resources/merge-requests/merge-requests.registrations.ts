/**
 * The merge requests area's lookup hooks in areas it imports, loaded by its `register` (issue 39
 * item 4) before the first request: `DELETE /projects/:id/repository/merged_branches` keeps the
 * branches open merge requests use, which the repository area asks through its hook; the issues
 * area's `merge_requests_count` asks the project of each closing merge request.
 * gitlab: app/services/branches/delete_merged_service.rb, app/models/merge_requests_closing_issues.rb (13.12).
 * @module
 */
import { registerMergeRequestProject } from '../issues/issues.public.js'
import { registerBranchesInUse } from '../repository/repository.public.js'
import { mergeRequestById, openMergeRequestBranches } from './merge-requests.public.js'

registerBranchesInUse(openMergeRequestBranches)
registerMergeRequestProject((db, id) => mergeRequestById(db, id)?.project_id)
