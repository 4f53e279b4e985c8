/**
 * The issues area's cassette import: issues seen in issue lists (also a milestone's) become
 * `issues:` of the scenario's projects, with their time tracking totals.
 * @module
 */
import { importIssuable } from '../../scenario/issuable.js'
import { isObject, list, noteRecord, num, type AreaImporter, type Json } from '../../scenario/importer.js'

/** The issues area's importer (after the labels and milestones its issues refer to). */
export const issueImporter: AreaImporter = {
  rank: 40,
  collections: { issues: 'issue' },
  counts: ['issues'],
  start() {
    const issues = new Map<number, Json>()
    return {
      collect(x, ctx) {
        const t = x.template
        if (!(/^\/(groups|projects)\/:id\/milestones\/:id\/issues$/.test(t) || /^(\/projects\/:id)?\/issues(\/:id)?$/.test(t))) return false
        for (const issue of list(x.body)) noteRecord(issues, ctx, 'issue', issue)
        return true
      },
      build(ctx) {
        for (const issue of issues.values()) {
          const out = importIssuable(ctx, issue, ['confidential', 'discussion_locked', 'due_date', 'issue_type'], ['discussion_locked', 'due_date'])
          if (out && isObject(issue.time_stats)) {
            if (num(issue.time_stats.time_estimate) !== undefined) out.time_estimate = issue.time_stats.time_estimate
            if (num(issue.time_stats.total_time_spent) !== undefined) out.total_time_spent = issue.time_stats.total_time_spent
          }
          if (out && ctx.push(ctx.project(issue.project_id as number), 'issues', out)) ctx.count('issues')
        }
      },
    }
  },
}
