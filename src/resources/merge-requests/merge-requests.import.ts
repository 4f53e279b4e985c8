/**
 * The merge requests area's cassette import: merge requests seen in merge request lists (also a
 * milestone's) become `merge_requests:` of the scenario's projects.
 * @module
 */
import { importIssuable } from '../../scenario/issuable.js'
import { isObject, list, noteRecord, usernameIn, type AreaImporter, type Json } from '../../scenario/importer.js'

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
          if (ctx.push(ctx.project(mr.project_id as number), 'merge_requests', out)) ctx.count('merge_requests')
        }
      },
    }
  },
}
