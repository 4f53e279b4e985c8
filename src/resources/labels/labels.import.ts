/**
 * The labels area's cassette import: project and group labels seen in label lists (with the
 * priorities and subscriptions the caller saw) become `labels:` of the scenario's projects and
 * groups. A group label belongs to the shallowest group that listed it. A label name an issue or
 * merge request shows that no list named becomes a label of its project (name only).
 * @module
 */
import { fill, isObject, list, num, pick, type AreaImporter, type ImportBuildContext, type ImportCollectContext, type ImportExchange, type Json } from '../../scenario/importer.js'

/** A label as the scenario writes it. */
function labelEntry(label: Json, subscribers: string[], priority?: unknown): Json {
  const out = pick(label, ['id', 'name', 'color', 'description'], ['description'])
  if (typeof priority === 'number') out.priority = priority
  if (subscribers.length > 0) out.subscribers = subscribers
  return out
}

/** The labels area's importer (before milestones and the issuables that refer to labels). */
export const labelImporter: AreaImporter = {
  rank: 10,
  collections: { labels: 'label' },
  counts: ['labels'],
  start() {
    const projectLabels = new Map<number, { label: Json; projectId: number }>()
    const groupLabels = new Map<number, { label: Json; groupIds: Set<number>; projectIds: Set<number> }>()
    const subscriptions = new Map<number, Set<number>>()
    /** Project id → the label names its issues and merge requests showed (answers without label details). */
    const namedOnIssuables = new Map<number, Set<string>>()
    const subscribe = (labelId: number, userId: number): void => {
      subscriptions.set(labelId, new Set([...(subscriptions.get(labelId) ?? []), userId]))
    }
    const noteGroupLabel = (ctx: ImportCollectContext, label: unknown, where: { groupId?: number; projectId?: number }): void => {
      if (!isObject(label) || num(label.id) === undefined || ctx.created('label', label.id as number)) return
      const known = groupLabels.get(label.id as number) ?? { label: {}, groupIds: new Set<number>(), projectIds: new Set<number>() }
      // Priority and is_project_label belong to the project the label was seen through.
      const { priority: _priority, is_project_label: _isProjectLabel, ...rest } = label
      fill(known.label, rest)
      if (where.groupId !== undefined) known.groupIds.add(where.groupId)
      if (where.projectId !== undefined) known.projectIds.add(where.projectId)
      groupLabels.set(label.id as number, known)
      if (label.subscribed === true && ctx.userId !== undefined) subscribe(label.id as number, ctx.userId)
    }
    return {
      collect(x: ImportExchange, ctx: ImportCollectContext): boolean {
        const t = x.template
        const { group, project, userId } = ctx
        // An issue or merge request shows its labels by name: each is a label of its project or
        // of an ancestor group, even when no label list names it.
        for (const item of list(x.body)) {
          if (!isObject(item) || num(item.iid) === undefined || num(item.project_id) === undefined || !Array.isArray(item.labels)) continue
          const names = namedOnIssuables.get(item.project_id as number) ?? new Set<string>()
          for (const label of item.labels) if (typeof label === 'string' && label !== '') names.add(label)
          namedOnIssuables.set(item.project_id as number, names)
        }
        if ((t === '/groups/:id/labels' || t === '/groups/:id/labels/:id') && group) {
          for (const label of list(x.body)) noteGroupLabel(ctx, label, { groupId: group.id as number })
          return true
        }
        if ((t === '/projects/:id/labels' || t === '/projects/:id/labels/:id') && project) {
          for (const label of list(x.body)) {
            if (isObject(label) && label.is_project_label === false) noteGroupLabel(ctx, label, { projectId: project.id as number })
            else if (isObject(label) && num(label.id) !== undefined && !ctx.created('label', label.id as number)) {
              const known = projectLabels.get(label.id as number)
              if (known) fill(known.label, label)
              else projectLabels.set(label.id as number, { label: { ...label }, projectId: project.id as number })
              if (label.subscribed === true && userId !== undefined) subscribe(label.id as number, userId)
            }
          }
          return true
        }
        return false
      },
      build(ctx: ImportBuildContext): void {
        const subscribers = (labelId: number): string[] =>
          [...(subscriptions.get(labelId) ?? [])].map((id) => ctx.username(id)).filter((u): u is string => u !== undefined)
        const groupsWithLabelList = new Set(
          ctx.exchanges
            .filter((x) => x.method === 'GET' && x.template === '/groups/:id/labels' && x.status === 200)
            .map((x) => ctx.groupPath(Number(x.segments[1])) ?? x.segments[1]!),
        )
        for (const [id, { label, projectId }] of projectLabels) {
          if (ctx.push(ctx.project(projectId), 'labels', labelEntry(label, subscribers(id), label.priority))) ctx.count('labels')
        }
        for (const [id, { label, groupIds, projectIds }] of groupLabels) {
          // Group label lists include the ancestors' labels, so a label belongs to the shallowest group
          // that listed it. Seen only through projects, it belongs to one of their ancestor groups: not
          // to one whose own recorded list lacks it, and otherwise the deepest (the least visible guess).
          const listedBy = [...groupIds].map((g) => ctx.groupPath(g)).filter((p): p is string => p !== undefined)
          const ancestors = [...projectIds].flatMap((projectId) => {
            const parts = (ctx.projectPath(projectId) ?? '').split('/').slice(0, -1)
            return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
          })
          const possible = ancestors.filter((path) => ctx.group(path) !== undefined && !groupsWithLabelList.has(path))
          const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length
          const owner = listedBy.sort(byDepth)[0] ?? possible.sort(byDepth).at(-1)
          if (owner && ctx.push(ctx.group(owner), 'labels', labelEntry(label, subscribers(id)))) ctx.count('labels')
          else ctx.note(`label ${String(label.name)} (${id}): its group is unknown; not imported`)
        }
        // Names only issuables showed: a label of the project (the least visible guess), its
        // colour and description unknown.
        for (const [projectId, names] of namedOnIssuables) {
          const path = ctx.projectPath(projectId)
          const project = ctx.project(projectId)
          if (path === undefined || project === undefined) continue
          const parts = path.split('/').slice(0, -1)
          const owners = [project, ...parts.map((_, i) => ctx.group(parts.slice(0, i + 1).join('/')))]
          const known = new Set(owners.flatMap((o) => ((o?.labels as Json[] | undefined) ?? []).map((l) => String(l.name))))
          for (const name of [...names].sort()) {
            if (known.has(name)) continue
            if (ctx.push(project, 'labels', { name })) ctx.count('labels')
            ctx.note(`label ${name} of ${path}: only seen by name on its issues and merge requests; its id, colour and description are not reproduced`)
          }
        }
      },
    }
  },
}
