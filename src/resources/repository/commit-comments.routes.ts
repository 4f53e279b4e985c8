/**
 * A commit's comments (`GET`/`POST /projects/:id/repository/commits/:sha/comments`): the notes on
 * the commit (the notes area's table and services), shown as `CommitNote`s, oldest first. A comment
 * may sit on a line of the commit's diff (`path`, `line`, `line_type`: a `LegacyDiffNote`); one that
 * names no line of the diff is a plain comment. The same notes are the commit's discussions.
 * Both routes run commits.rb's `before` first: the project (404 `Project Not Found`) and
 * `download_code` (403), before the params are checked. Writing needs no more: 13.x checks no
 * `create_note` here, and an anonymous comment on a public project fails the note's validation
 * (400 `Failed to save note {:author=>["can't be blank"]}`).
 * Source: issue 26 item 2 ("comments"); gitlab: lib/api/commits.rb, lib/api/entities/commit_note.rb,
 * lib/gitlab/diff/parser.rb, lib/gitlab/diff/line.rb, lib/gitlab/git.rb (`diff_line_code`),
 * spec/requests/api/commits_spec.rb (13.x).
 * @module
 */
import { sha1 } from '@noble/hashes/legacy.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { apiMessage, notFound, ValidationMessage } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { blank } from '../../core/ruby.js'
import { created, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { ModelErrors } from '../../rules/model-errors.js'
import { CommitNote, createNote, noteableNotes, type CommitDiffLine } from '../notes/notes.public.js'
import type { ObjectId } from './git-objects.js'
import type { Repository } from './repository.build.js'
import { projectId, readable } from './repository.helpers.js'
import { asNoteable, commitNoteable } from './repository.noteable.js'
import { commitOf, diffTrees } from './repository.service.js'

/** One line of a file's diff, as `Gitlab::Diff::Parser` reads it: `new` (added), `old` (removed) or context (null). */
interface DiffLine {
  type: 'new' | 'old' | null
  oldPos: number
  newPos: number
}

/**
 * `Gitlab::Diff::Parser#parse` of a unified diff, without its `match` (hunk header) lines: each
 * line's side and its positions in the old and new file (an added line's `oldPos` is the old line
 * it follows, a removed line's `newPos` the new line it precedes).
 */
function parseDiff(diff: string): DiffLine[] {
  const out: DiffLine[] = []
  let oldPos = 0
  let newPos = 0
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line)
    if (hunk) {
      oldPos = Number(hunk[1])
      newPos = Number(hunk[2])
      continue
    }
    if (line === '' || line.startsWith('\\')) continue
    const type = line[0] === '+' ? 'new' : line[0] === '-' ? 'old' : null
    out.push({ type, oldPos, newPos })
    if (type !== 'old') newPos++
    if (type !== 'new') oldPos++
  }
  return out
}

/**
 * The diff line a comment names (commits.rb: the first file of the commit's diff whose new path is
 * `path`, and its first line with that new position and side), as a `line_code`
 * (`<sha1 of the path>_<old position>_<new position>`) and what it shows; undefined when none.
 */
function commentedLine(repo: Repository, sha: ObjectId, path: string, line: number, lineType: 'new' | 'old'): { lineCode: string; line: CommitDiffLine } | undefined {
  const commit = commitOf(repo, sha)
  const parent = commit.parents[0]
  for (const file of diffTrees(repo, parent === undefined ? null : commitOf(repo, parent).tree, commit.tree)) {
    if (file.new_path !== path) continue
    const hit = parseDiff(file.diff).find((l) => l.newPos === line && l.type === lineType)
    if (!hit) continue
    return {
      lineCode: `${bytesToHex(sha1(utf8ToBytes(file.new_path)))}_${hit.oldPos}_${hit.newPos}`,
      // `Diff::Line#line`: the new line of an added line, the old line of a removed one.
      line: { path: file.new_path, line: lineType === 'new' ? hit.newPos : hit.oldPos, line_type: lineType },
    }
  }
  return undefined
}

/** commits.rb's `before`: the readable project and `download_code` (see the module comment). */
function before(ctx: Ctx<unknown>): void {
  readable(ctx as Ctx<{ id: string }>)
}

/**
 * `user_project.commit(params[:sha])`.
 * @throws ApiError 404 `{"message":"404 Commit Not Found"}`.
 */
function findCommit(ctx: Ctx<unknown>, project: ProjectRecord, sha: string) {
  const commit = commitNoteable(ctx.db, project, sha)
  if (!commit) throw notFound('Commit')
  return asNoteable(project, commit)
}

/** The commit comment routes. */
export const commitCommentRoutes: Route[] = [
  route('GET /projects/:id/repository/commits/:sha/comments', {
    auth: 'optional',
    before,
    params: { ...projectId, sha: p.string({ required: true }), ...paginationParams },
    handler(ctx) {
      const { project } = readable(ctx)
      const commit = findCommit(ctx, project, ctx.params.sha)
      // `commit.notes.order(:created_at)`; equal times in id order.
      const notes = noteableNotes(ctx.db, commit).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id))
      return paginated(ctx, notes, (note) => CommitNote(note, ctx))
    },
  }),

  route('POST /projects/:id/repository/commits/:sha/comments', {
    auth: 'optional',
    before,
    params: {
      ...projectId,
      sha: p.string({ required: true }),
      note: p.string({ required: true }),
      path: p.string(),
      // `given :path do requires :line; requires :line_type, default: 'new' end`
      line: p.integer(),
      line_type: p.string({ values: ['new', 'old'] as const, default: 'new' }),
    },
    rules: { given: { path: ['line'] } },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const commit = findCommit(ctx, project, ctx.params.sha)
      const { path, line } = ctx.params
      const diffLine = !blank(path) && line !== undefined ? commentedLine(repo, commit.record.commit_id!, path!, line, ctx.params.line_type as 'new' | 'old') : undefined
      // `Note` validations, as `note.save` reports them: the text, then the author.
      const errors = new ModelErrors()
      if (blank(ctx.params.note)) errors.add('note', ValidationMessage.blank)
      if (!ctx.currentUser) errors.add('author', ValidationMessage.blank)
      if (errors.size > 0) throw apiMessage(400, `Failed to save note ${errors.inspect()}`)
      const { note } = createNote(ctx, commit, ctx.currentUser!, { body: ctx.params.note, ...(diffLine ? { diffLine } : {}) })
      return created(CommitNote(note!, ctx))
    },
  }),
]
