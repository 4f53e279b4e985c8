/**
 * The runners area's lookup hook in the repository area, loaded by its `register` (issue 39 item 4)
 * before the first request: a commit's `status` and `last_pipeline` (CommitDetail) come from here;
 * the repository area asks through its hook, as tags ask the releases area for their release.
 * gitlab: lib/api/entities/commit_detail.rb.
 * @module
 */
import { registerCommitPipelineLookup } from '../repository/repository.public.js'
import { commitPipelineFacts } from './pipelines.service.js'

registerCommitPipelineLookup(commitPipelineFacts)
