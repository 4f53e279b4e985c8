/**
 * The merge requests area's cassette import: merge requests seen in merge request lists (also a
 * milestone's) become `merge_requests:` of the scenario's projects, with what the answers show of
 * their diffs (reviewers, `diff_refs`, merge and squash commits, `changes_count`) and the imported
 * issues of their project that their title and description close (`closes:`).
 * @module
 */
import { importIssuable } from '../../scenario/issuable.js'
import { closingIidsOfOwnProject } from './merge-requests.closing-pattern.js'
import { isObject, list, noteRecord, usernameIn, type AreaImporter, type Json } from '../../scenario/importer.js'

/** Whether a recorded value is a full commit SHA (40 lower-case hex digits), as the scenario takes them. */
function isSha(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{40}$/.test(value)
}

/** The merge requests area's importer (after the labels and milestones they refer to). */
export const mergeRequestImporter: AreaImporter = {
  rank: 50,
  collections: { merge_requests: 'merge_request' },
  counts: ['merge_requests'],
  start() {
    const mergeRequests = new Map<number, Json>()
    return {
      collect(x, ctx) {
        const t = x.template
        if (!(/^\/(groups|projects)\/:id\/milestones\/:id\/merge_requests$/.test(t) || /^(\/projects\/:id)?\/merge_requests(\/:id)?$/.test(t))) return false
        for (const mr of list(x.body)) noteRecord(mergeRequests, ctx, 'merge_request', mr)
        return true
      },
      build(ctx) {
        for (const mr of mergeRequests.values()) {
          const out = importIssuable(ctx, mr, ['source_branch', 'target_branch', 'draft', 'sha', 'merge_status', 'merged_at'], ['merged_at'])
          if (!out) continue
          if (mr.state === 'merged' && !isObject(mr.merged_by)) delete out.merged_by
          const mergedBy = usernameIn(mr.merged_by)
          if (mergedBy) out.merged_by = mergedBy
          if (typeof out.sha !== 'string' || out.sha === '') delete out.sha
          // What the answer shows of the diff: its reviewers, diff_refs (a single merge request's
          // answer), the merge and squash commits and the number of changed files.
          const reviewers = (Array.isArray(mr.reviewers) ? mr.reviewers : []).map(usernameIn).filter((u): u is string => u !== undefined)
          if (reviewers.length > 0) out.reviewers = reviewers
          const refs = isObject(mr.diff_refs) ? mr.diff_refs : {}
          if (isSha(refs.base_sha)) out.base_sha = refs.base_sha
          if (isSha(refs.start_sha)) out.start_sha = refs.start_sha
          if (isSha(mr.merge_commit_sha)) out.merge_commit_sha = mr.merge_commit_sha
          if (isSha(mr.squash_commit_sha)) out.squash_commit_sha = mr.squash_commit_sha
          // GitLab caches the issues a merge request closes from its text; the imported issues of its
          // project that its title and description close are its `closes:`.
          const projectIssues = new Set(((ctx.project(mr.project_id as number)?.issues as Json[] | undefined) ?? []).map((i) => i.iid))
          const closes = closingIidsOfOwnProject(`${String(mr.title ?? '')}\n${String(mr.description ?? '')}`).filter((iid) => projectIssues.has(iid))
          if (closes.length > 0) out.closes = closes
          if (typeof mr.changes_count === 'string' && /^\d+$/.test(mr.changes_count)) out.changes_count = Number(mr.changes_count)
          if (ctx.push(ctx.project(mr.project_id as number), 'merge_requests', out)) ctx.count('merge_requests')
        }
      },
    }
  },
}
