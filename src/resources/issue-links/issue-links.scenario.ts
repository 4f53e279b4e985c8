/**
 * The issue links part of the scenario format: `issue_links:` of projects, each a link from an issue
 * of this project (`issue: <iid>`) to `target`: an issue of the same project (`2`) or of another
 * (`group/project#2`), of a `link_type` (`relates_to` by default, `blocks`, or `is_blocked_by`,
 * stored as a `blocks` link the other way round, as GitLab stores it). Both issues need a written
 * `iid`, as merge requests' `closes:` do. `created_at` defaults to a faker instant after the
 * project's creation.
 * Source: STYLE.md §10; issue 25 item 6; gitlab: app/models/issue_link.rb.
 * @module
 */
import { z } from 'zod'
import { items, type Entry } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import type { NameIndex } from '../../scenario/names.js'
import { at } from '../../scenario/problems.js'
import { idSchema, iidSchema, timestampSchema } from '../../scenario/scalars.js'

/** A link from an issue of the enclosing project. */
const linkSchema = z.strictObject({
  id: idSchema.optional().describe('Record id (the issue_link_id); the next free one when absent.'),
  issue: iidSchema.describe('The iid of the issue of this project the link is made from (a written iid).'),
  target: z
    .union([iidSchema, z.string().regex(/^[^#\s]+#[1-9][0-9]*$/)])
    .describe('The linked issue: an iid of this project (2), or the full path of another project and an iid (group/project#2); a written iid.'),
  link_type: z.enum(['relates_to', 'blocks', 'is_blocked_by']).default('relates_to').describe('relates_to, blocks (the issue blocks the target) or is_blocked_by. Default relates_to.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const fields = { issue_links: z.array(linkSchema).default([]).describe('Links from this project\'s issues to other issues (related, blocking).') }

/** The `issue_links` field of projects, as parsed. */
export type IssueLinkFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends IssueLinkFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The project entry and iid a `target` names (its own project for a bare iid), or an error text. */
function targetOf(index: NameIndex, project: Entry, target: unknown): { project: Entry; iid: number } | string {
  if (typeof target === 'number') return { project, iid: target }
  if (typeof target !== 'string') return 'target is not an issue'
  const hash = target.lastIndexOf('#')
  const path = target.slice(0, hash)
  const other = index.projects.get(path.toLowerCase())
  return other ? { project: other, iid: Number(target.slice(hash + 1)) } : `unknown project "${path}"`
}

/** The written issue with `iid` among a project entry's issues. */
function writtenIssue(project: Entry, iid: number): Entry | undefined {
  return items(project, 'issues').find((issue) => issue.value.iid === iid)
}

/** The issue links fragment (see the module comment). */
export const issueLinkFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'issue_links', field: 'issue_links', on: ['project'] }],
  check(ctx) {
    // Issues by their parsed record (`items` wraps them afresh on every call).
    const seen = new Map<unknown, Set<unknown>>()
    for (const project of ctx.model.project) {
      for (const link of items(project, 'issue_links')) {
        const source = typeof link.value.issue === 'number' ? writtenIssue(project, link.value.issue) : undefined
        if (typeof link.value.issue === 'number' && !source) ctx.report(at(link, 'issue'), `no issue with iid ${link.value.issue} written in this project (links need a written iid)`)
        const named = targetOf(ctx.index, project, link.value.target)
        if (typeof named === 'string') {
          ctx.report(at(link, 'target'), named)
          continue
        }
        const target = writtenIssue(named.project, named.iid)
        if (!target) ctx.report(at(link, 'target'), `no issue with iid ${named.iid} written in that project (links need a written iid)`)
        if (!source || !target) continue
        const [from, to] = [source.value, target.value]
        if (from === to) ctx.report(at(link, 'target'), 'an issue cannot be related to itself')
        else if (seen.get(from)?.has(to) || seen.get(to)?.has(from)) ctx.report(at(link, 'target'), 'these issues are linked already')
        seen.set(from, (seen.get(from) ?? new Set()).add(to))
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      const row = ctx.row('project', parent.entry)
      project.issue_links.forEach((link, i) => {
        const f = ctx.fake(`issue_link:${parent.key}:${i}`)
        const named = targetOf(ctx.index, parent.entry, link.target)
        if (typeof named === 'string') throw new Error(`scenario: ${named}`)
        const source = writtenIssue(parent.entry, link.issue)
        const target = writtenIssue(named.project, named.iid)
        if (!source || !target) throw new Error(`scenario: issue link target not found in ${parent.key}`)
        const [from, to] = link.link_type === 'is_blocked_by' ? [target, source] : [source, target]
        const created_at = link.created_at ?? ctx.between(f, row.created_at)
        ctx.stage('issue_links', {
          id: ctx.idOf(link),
          source_id: ctx.idOf(from.value),
          target_id: ctx.idOf(to.value),
          link_type: link.link_type === 'relates_to' ? 'relates_to' : 'blocks',
          created_at,
          updated_at: created_at,
        })
      })
    },
  },
}
