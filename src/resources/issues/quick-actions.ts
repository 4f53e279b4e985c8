/**
 * Quick actions in a new issue note, as GitLab Premium's `Notes::QuickActionsService` runs them.
 * Only `/promote` (promote the issue to an epic, a higher-tier command the spec names) is
 * interpreted; any other `/command` stays in the note as text. GitLab removes an executed command's
 * line from the stored body, reports what it changed in `commands_changes` and, when nothing but
 * commands was sent, stores no note and answers 202 `{commands_changes, summary}`.
 * Source: api-spec.md "Issues" (`POST …/notes`: `/promote` at the start of a new line);
 * gitlab-behaviour.md §4.3, §14 item 24; issue 23 item 10; gitlab: lib/gitlab/quick_actions/extractor.rb,
 * app/services/notes/create_service.rb, ee/lib/ee/gitlab/quick_actions/issue_actions.rb (`promote`),
 * ee/app/services/epics/issue_promote_service.rb, lib/api/entities/note.rb (`NoteCommands`).
 * @module
 */
import { AccessLevel, hasGroupAccess } from '../../rules/access.js'
import type { ProjectRecord } from '../../db/schema.js'
import { publishIssue } from './issues.events.js'
import { canAdminIssue, type ServiceCtx } from './issues.service.js'
import type { IssueRecord } from './issues.tables.js'

/** The message GitLab gives for an executed `/promote` (`@execution_message[:promote]`). */
const PROMOTED_MESSAGE = 'Promoted issue to an epic.'

/** What {@link interpretCommands} found: the note's text without executed commands, and their effects. */
export interface InterpretedNote {
  /** The body with each executed command's line removed, stripped as GitLab strips it. */
  content: string
  /** `commands_changes`: `{promote_to_epic: true}` when `/promote` ran, else `{}`. */
  changes: Record<string, unknown>
  /** Execution messages, one per executed command (the 202 answer's `summary`). */
  messages: string[]
}

/**
 * `/promote`'s condition (EE `IssueActions`): the issue was not promoted yet, the caller may
 * administer it (`admin_issue`: Reporter+) and may create epics in the project's group
 * (`create_epic`: Reporter+ there; a project outside a group has no epics). fakelab keeps no epics,
 * so "not promoted yet" is "still open" (GitLab closes the issue it promotes).
 */
function canPromote(ctx: ServiceCtx, project: ProjectRecord, issue: IssueRecord): boolean {
  const group = ctx.db.projectGroup(project)
  if (!group || issue.state !== 'opened') return false
  return canAdminIssue(ctx, project) && hasGroupAccess(ctx.db, ctx.currentUser, group, AccessLevel.REPORTER, ctx.today)
}

/**
 * `Gitlab::QuickActions::Extractor#extract_commands` for the available commands: a command is a
 * line that starts with `/promote` (optionally followed by a space and text, which `/promote`
 * ignores), outside fenced code blocks and `>>>` quotes; its line, with the line break after it,
 * is removed and the rest is stripped. An unavailable command is left as text.
 */
export function interpretCommands(ctx: ServiceCtx, project: ProjectRecord, issue: IssueRecord, body: string): InterpretedNote {
  if (!/^\/promote(?: |$)/m.test(body) || !canPromote(ctx, project, issue)) return { content: body, changes: {}, messages: [] }
  const kept: string[] = []
  let fence: '```' | '>>>' | null = null
  let found = false
  for (const line of body.replace(/\r/g, '').split('\n')) {
    const marker = line.startsWith('```') ? '```' : line.startsWith('>>>') ? '>>>' : null
    if (marker && (fence === null || fence === marker)) fence = fence === null ? marker : null
    else if (fence === null && /^\/promote(?: |$)/.test(line)) {
      found = true
      continue
    }
    kept.push(line)
  }
  if (!found) return { content: body, changes: {}, messages: [] }
  return { content: kept.join('\n').trim(), changes: { promote_to_epic: true }, messages: [PROMOTED_MESSAGE] }
}

/**
 * `Epics::IssuePromoteService` as far as fakelab keeps its data: the promoted issue is closed by
 * the caller (`Issues::CloseService`, no system note); no epic is created, since fakelab has none.
 */
export function promoteIssue(ctx: ServiceCtx, issue: IssueRecord): void {
  const closed = ctx.db.tables.issues.update(issue.id, { state: 'closed', closed_at: ctx.now, closed_by_id: ctx.currentUser!.id, updated_at: ctx.now })
  publishIssue(ctx, issue, closed, ctx.currentUser!.id)
}
