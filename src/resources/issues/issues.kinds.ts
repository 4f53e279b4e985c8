/**
 * The issue as the areas under this one see it: a noteable (the notes area, whose lookup resource
 * events share), an awardable (award emoji), a to-do target (to-dos) and a labelled record
 * (labels). Those areas name no issue code; this module registers the issue kind with each as the
 * issues area loads, as GitLab's `Issue` includes the `Noteable` and `Awardable` concerns, is a
 * polymorphic `Todo#target` and a `LabelLink` target.
 * gitlab: app/models/issue.rb, app/policies/issue_policy.rb, lib/api/todos.rb (13.x).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { AccessLevel, canReadProject, issueVisibleTo } from '../../rules/access.js'
import { registerAwardableKind } from '../award-emoji/award-emoji.public.js'
import { registerLabelledKind } from '../labels/labels.public.js'
import { registerNoteableKind } from '../notes/notes.public.js'
import { registerTodoTargetKind } from '../todos/todos.public.js'
import { Issue, issuePageFacts, issueWebUrl } from './issue.entities.js'
import { countIssueNote, countIssueVote, issueById, issuesOfProject, relabelIssues, touchIssue } from './issues.public.js'
import { issueByIid } from './issues.service.js'
import type { IssueRecord } from './issues.tables.js'
import { interpretCommands, promoteIssue } from './quick-actions.js'

/**
 * `read_issue` on an issue of a project: the project is readable and the issue is not
 * confidential to the caller (`IssuesFinder`'s confidentiality filter).
 */
function canReadIssue(ctx: { readonly db: Db; readonly currentUser: UserRecord | null; readonly today: string }, project: ProjectRecord, issue: IssueRecord): boolean {
  return canReadProject(ctx.db, ctx.currentUser, project, ctx.today) && issueVisibleTo(ctx.db, ctx.currentUser, project, ctx.today)(issue)
}

registerNoteableKind<IssueRecord>({
  type: 'Issue',
  find: (db, project, iid) => (typeof iid === 'number' ? issueByIid(db, project.id, iid) : undefined),
  canRead: canReadIssue,
  // `IssuePolicy`: a locked discussion keeps `create_note` for those who may administer the issue.
  lockedDiscussionLevel: AccessLevel.REPORTER,
  countNote: countIssueNote,
  // `/promote` (quick-actions.ts), on the issue as stored when the note arrives.
  commands: {
    interpret: (ctx, project, id, body) => interpretCommands(ctx, project, issueById(ctx.db, id)!, body),
    execute: (ctx, id) => promoteIssue(ctx, issueById(ctx.db, id)!),
  },
})

registerAwardableKind<IssueRecord>({
  type: 'Issue',
  byIid: issueByIid,
  canRead: canReadIssue,
  countVote: countIssueVote,
})

registerTodoTargetKind({
  type: 'Issue',
  byIid: issueByIid,
  byId: issueById,
  canRead: canReadIssue,
  touch: touchIssue,
  webUrl: issueWebUrl,
  // An issue's closing merge requests, loaded once for the page (`batch_load_issuable_metadata`).
  pageFacts: issuePageFacts,
  // No `current_user` and no project in the options: `subscribed` is false, `references.relative` short.
  present: (issue, ctx, facts) => Issue(issue, ctx, facts, { from: null, subscribed: false }),
})

registerLabelledKind<IssueRecord>({
  type: 'Issue',
  ofProject: issuesOfProject,
  // `issues_count` counts through `IssuesFinder`: confidential issues only for those who see them.
  visibleIn: issueVisibleTo,
  relabel: relabelIssues,
})
