/**
 * The merge request as the areas under this one see it: a noteable (the notes area, whose lookup
 * resource events share), an awardable (award emoji), a to-do target (to-dos) and a labelled
 * record (labels). Those areas name no merge request code; this module registers the merge request
 * kind with each as the merge requests area loads, as GitLab's `MergeRequest` includes the
 * `Noteable` and `Awardable` concerns, is a polymorphic `Todo#target` and a `LabelLink` target.
 * gitlab: app/models/merge_request.rb, app/policies/merge_request_policy.rb, lib/api/todos.rb (13.x).
 * @module
 */
import { AccessLevel } from '../../rules/access.js'
import { registerAwardableKind } from '../award-emoji/award-emoji.public.js'
import { registerLabelledKind } from '../labels/labels.public.js'
import { registerNoteableKind } from '../notes/notes.public.js'
import { registerTodoTargetKind } from '../todos/todos.public.js'
import { MergeRequest, mergeRequestWebUrl } from './merge-requests.entities.js'
import { canReadMergeRequest } from './merge-requests.policy.js'
import { countMergeRequestNote, countMergeRequestVote, mergeRequestById, mergeRequestByIid, mergeRequestsOfProject, relabelMergeRequests, touchMergeRequest } from './merge-requests.public.js'
import type { MergeRequestRecord } from './merge-requests.tables.js'

registerNoteableKind<MergeRequestRecord>({
  type: 'MergeRequest',
  find: (db, project, iid) => (typeof iid === 'number' ? mergeRequestByIid(db, project.id, iid) : undefined),
  canRead: canReadMergeRequest,
  // `IssuablePolicy` `locked & ~is_project_member`: project members keep `create_note`.
  lockedDiscussionLevel: AccessLevel.GUEST,
  countNote: countMergeRequestNote,
})

registerAwardableKind<MergeRequestRecord>({
  type: 'MergeRequest',
  byIid: mergeRequestByIid,
  canRead: canReadMergeRequest,
  countVote: countMergeRequestVote,
})

registerTodoTargetKind({
  type: 'MergeRequest',
  byIid: mergeRequestByIid,
  byId: mergeRequestById,
  canRead: canReadMergeRequest,
  touch: touchMergeRequest,
  webUrl: mergeRequestWebUrl,
  pageFacts: () => undefined,
  // The full `Entities::MergeRequest` without a project or user option (issue 23 item 7): no build
  // fields, no `head_pipeline`, `user.can_merge` false; `subscribed` (false) is left out in the list.
  present: (mergeRequest, ctx, _facts, inList) =>
    MergeRequest(mergeRequest, ctx, {
      from: null,
      canMerge: false,
      ...(inList ? {} : { subscribed: false }),
      withBuilds: false,
      withHeadPipeline: false,
    }),
})

registerLabelledKind<MergeRequestRecord>({
  type: 'MergeRequest',
  ofProject: mergeRequestsOfProject,
  // fakelab counts a label's open merge requests in a readable project without a further access
  // check (as it did before the kinds were registered).
  visibleIn: () => () => true,
  relabel: relabelMergeRequests,
})
