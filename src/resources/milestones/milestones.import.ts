/**
 * The milestones' cassette import: group and project milestones seen in milestone lists become
 * `milestones:` of the scenario's groups and projects, as do the milestones issues and merge
 * requests show.
 * @module
 */
import { isObject, list, noteRecord, num, pick, type AreaImporter, type Json } from '../../scenario/importer.js'

/** A milestone as the scenario writes it. */
function milestoneEntry(milestone: Json): Json {
  return pick(milestone, ['id', 'iid', 'title', 'description', 'state', 'due_date', 'start_date', 'created_at', 'updated_at'], ['due_date', 'start_date'])
}

/** The milestones' importer (after labels, before the issuables that refer to milestones). */
export const milestoneImporter: AreaImporter = {
  rank: 20,
  collections: { milestones: 'milestone' },
  counts: ['milestones'],
  start() {
    const milestones = new Map<number, Json>()
    return {
      collect(x, ctx) {
        if (!/^\/(groups|projects)\/:id\/milestones(\/:id)?$/.test(x.template)) {
          // An issue or merge request shows its whole milestone: a milestone of the scenario too.
          for (const item of list(x.body)) if (isObject(item) && num(item.iid) !== undefined && isObject(item.milestone) && num(item.milestone.id) !== undefined) noteRecord(milestones, ctx, 'milestone', item.milestone)
          return false
        }
        for (const milestone of list(x.body)) noteRecord(milestones, ctx, 'milestone', milestone)
        return true
      },
      build(ctx) {
        for (const milestone of milestones.values()) {
          const owner = num(milestone.group_id) !== undefined ? ctx.group(ctx.groupPath(milestone.group_id as number) ?? '') : ctx.project(milestone.project_id as number)
          if (ctx.push(owner, 'milestones', milestoneEntry(milestone))) ctx.count('milestones')
        }
      },
    }
  },
}
