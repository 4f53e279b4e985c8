/**
 * The forks part of the scenario format: `forked_from:` of projects (the full path of the project
 * it is a fork of), loaded into `fork_network_members`; `forked_from_project`, `forks_count` and
 * `GET /projects/:id/forks` read the link. The fork's repository is the one its own scenario entry
 * gives (a fork made through the API copies its source's). Source: STYLE.md §10; gitlab:
 * app/models/fork_network_member.rb (13.12).
 * @module
 */
import { z } from 'zod'
import { str } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { fullPathSchema } from '../../scenario/scalars.js'

const fields = {
  forked_from: fullPathSchema.optional().describe('The full path of the project this one is a fork of ("acme/website"): its fork link (forked_from_project).'),
}

/** The `forked_from` field of projects, as parsed. */
export type ForkFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends ForkFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The forks fragment (see the module comment). */
export const forkFragment: ScenarioFragment = {
  fields: { project: fields },
  check(ctx) {
    const sourceOf = new Map<string, string>()
    for (const project of ctx.model.project) {
      const from = str(project.value.forked_from)
      const own = ctx.index.fullPath(project)?.toLowerCase()
      if (from === undefined || own === undefined) continue
      if (!ctx.index.projects.has(from.toLowerCase())) ctx.report(at(project, 'forked_from'), `unknown project "${from}"`)
      else sourceOf.set(own, from.toLowerCase())
    }
    // A fork network is a tree: following the links from any project must end.
    for (const project of ctx.model.project) {
      const own = ctx.index.fullPath(project)?.toLowerCase()
      if (own === undefined || !sourceOf.has(own)) continue
      const seen = new Set([own])
      for (let next = sourceOf.get(own); next !== undefined; next = sourceOf.get(next)) {
        if (seen.has(next)) {
          ctx.report(at(project, 'forked_from'), `forks form a cycle through "${next}"`)
          break
        }
        seen.add(next)
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      if (project.forked_from === undefined) return
      const source = ctx.index.projects.get(project.forked_from.toLowerCase())!
      ctx.db.tables.fork_network_members.insert({ project_id: parent.id, forked_from_project_id: ctx.idOf(source.value), created_at: parent.createdAt })
    },
  },
}
