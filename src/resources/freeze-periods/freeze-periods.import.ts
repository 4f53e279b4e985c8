/**
 * The freeze periods area's cassette import: freeze periods seen in a project's list become
 * `freeze_periods:` of the scenario's project.
 * @module
 */
import { fill, isObject, list, num, pick, type AreaImporter, type Json } from '../../scenario/importer.js'

/** The freeze periods area's importer. */
export const freezePeriodImporter: AreaImporter = {
  rank: 30,
  collections: { freeze_periods: 'freeze_period' },
  counts: ['freeze_periods'],
  start() {
    const periods = new Map<number, { period: Json; projectId: number }>()
    return {
      collect(x, ctx) {
        const t = x.template
        const project = ctx.project
        if (!((t === '/projects/:id/freeze_periods' || t === '/projects/:id/freeze_periods/:id') && project)) return false
        for (const period of list(x.body)) {
          if (!isObject(period) || num(period.id) === undefined || ctx.created('freeze_period', period.id as number)) continue
          const known = periods.get(period.id as number)
          if (known) fill(known.period, period)
          else periods.set(period.id as number, { period: { ...period }, projectId: project.id as number })
        }
        return true
      },
      build(ctx) {
        for (const { period, projectId } of periods.values()) {
          if (ctx.push(ctx.project(projectId), 'freeze_periods', pick(period, ['id', 'freeze_start', 'freeze_end', 'cron_timezone', 'created_at', 'updated_at']))) ctx.count('freeze_periods')
        }
      },
    }
  },
}
