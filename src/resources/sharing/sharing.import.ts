/**
 * The sharing area's cassette import: the `shared_with_groups` a group or project answer shows
 * become `shared_with_groups:` of the scenario's groups and projects (first sight wins), when the
 * group they name is in the scenario too.
 * @module
 */
import { isObject, list, num, str, type AreaImporter, type Json } from '../../scenario/importer.js'

/** A recorded `SharedGroupWithGroup` / `SharedGroupWithProject` as a scenario share, or undefined. */
function share(value: unknown): Json | undefined {
  if (!isObject(value) || !str(value.group_full_path) || num(value.group_access_level) === undefined) return undefined
  return {
    group: value.group_full_path as string,
    group_access: value.group_access_level as number,
    ...(typeof value.expires_at === 'string' ? { expires_at: value.expires_at } : {}),
  }
}

/** The sharing area's importer (after groups and projects exist). */
export const sharingImporter: AreaImporter = {
  rank: 70,
  start() {
    /** `project:<id>` / `group:<id>` → the shares first seen on it. */
    const seen = new Map<string, Json[]>()
    const note = (source: string, shares: unknown): void => {
      if (seen.has(source) || !Array.isArray(shares)) return
      seen.set(source, shares.flatMap((s): Json[] => { const v = share(s); return v ? [v] : [] }))
    }
    return {
      collect(x) {
        const t = x.template
        if (t === '/groups/:id' && isObject(x.body)) {
          if (num(x.body.id) !== undefined) note(`group:${x.body.id as number}`, x.body.shared_with_groups)
          for (const p of Array.isArray(x.body.projects) ? x.body.projects : []) if (isObject(p)) note(`project:${p.id as number}`, p.shared_with_groups)
        } else if (t === '/projects' || t === '/projects/:id') {
          for (const p of list(x.body)) if (isObject(p) && num(p.id) !== undefined) note(`project:${p.id as number}`, p.shared_with_groups)
        }
        // Other areas read these answers too.
        return false
      },
      build(ctx) {
        for (const [source, shares] of seen) {
          const [kind, id] = source.split(':') as ['project' | 'group', string]
          const owner = kind === 'project' ? ctx.project(Number(id)) : ctx.group(ctx.groupPath(Number(id)) ?? '')
          for (const s of shares) {
            if (ctx.group(s.group as string)) ctx.push(owner, 'shared_with_groups', s)
            else ctx.note(`${source.replace(':', ' ')}: shared with ${s.group as string}, a group the session never showed`)
          }
        }
      },
    }
  },
}
