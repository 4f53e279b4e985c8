/**
 * The releases part of the scenario format: `releases:` of projects, each on a tag of the
 * project's `repository:` section, loaded into `releases` and `release_links`. A scenario release
 * keeps no commit sha: it presents its tag's commit, read when presented, so loading builds no
 * repository. Source: STYLE.md §10; issue 26 item 4.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { items, list } from '../../scenario/entries.js'
import { idSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import type { ReleaseLinkRecord, ReleaseRecord } from './releases.tables.js'
import { refProblem, scenarioRefNames } from '../repository/repository.public.js'

/** An asset link of a release. */
const linkSchema = z.strictObject({
  name: z.string().min(1).describe('The link\'s name, unique in the release ("Linux binary").'),
  url: z.url({ protocol: /^(https?|ftp)$/ }).describe('Where it points: an http, https or ftp URL, unique in the release.'),
  filepath: z.string().regex(/^\/[-.\w/]*[\da-zA-Z]$/).optional().describe('Path of a direct asset link ("/bin/app"): its direct_asset_url is the release\'s downloads/<filepath>.'),
  link_type: z.enum(['other', 'runbook', 'image', 'package']).default('other').describe('other (default), runbook, image or package.'),
})

/** A release on a tag of the project's repository. */
const releaseSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  tag_name: z.string().min(1).describe('The tag it is on: a tag of the project\'s repository section.'),
  name: z.string().optional().describe('Its name; the tag name when absent.'),
  description: z.string().optional().describe('Release notes (Markdown).'),
  author: pathSchema.optional().describe('Username of the user who made it; none when absent.'),
  milestones: z.array(z.string()).default([]).describe('Titles of milestones of the project or its group it belongs to.'),
  links: z.array(linkSchema).default([]).describe('Its asset links, oldest first.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  released_at: timestampSchema.optional().describe('When it was (or will be) released, ISO 8601; created_at when absent. After the clock makes it an upcoming release.'),
  evidence: z.boolean().default(true).describe('Whether it has an evidence collected at created_at, as a release made through the API with neither a past nor a future released_at does. Default true.'),
})

const fields = { releases: z.array(releaseSchema).default([]).describe('Releases of the project on tags of its repository (GET /projects/:id/releases).') }

/** The `releases` field of projects, as parsed. */
export type ReleaseFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends ReleaseFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

/** The SHA-256 (hex) of a scenario evidence's summary: what it sums up, as JSON. */
function evidenceSha(summary: unknown): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(summary))))
}

/** The releases fragment (see the module comment). */
export const releaseFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'releases', field: 'releases', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      const namespace = ctx.index.namespace(project)
      // An unknown namespace is reported already: milestone lookups would only echo it.
      const scopes = namespace ? [project, ...namespace.groups] : undefined
      const refs = scenarioRefNames(project) ?? { branches: [], tags: [] }
      const name = ctx.index.fullPath(project) ?? String(project.value.path)
      const seen = new Set<unknown>()
      for (const release of items(project, 'releases')) {
        const { tag_name, author, milestones } = release.value as { tag_name?: unknown; author?: unknown; milestones?: unknown }
        if (author !== undefined) ctx.checkUser(at(release, 'author'), author)
        for (const [milestone, j] of list(milestones)) {
          if (scopes && typeof milestone === 'string' && !ctx.index.findTitle('milestones', scopes, milestone)) {
            ctx.report(at(release, 'milestones', j), `unknown milestone "${milestone}" (not a milestone of the project or its groups)`)
          }
        }
        if (typeof tag_name !== 'string') continue
        const problem = refProblem('tag', tag_name, refs, name)
        if (problem) ctx.report(at(release, 'tag_name'), problem)
        if (seen.has(tag_name)) ctx.report(at(release, 'tag_name'), `a second release on tag ${JSON.stringify(tag_name)} (one release per tag)`)
        seen.add(tag_name)
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      let evidenceId = ctx.stagedRows('releases').reduce((max, r) => Math.max(max, ...r.evidences.map((e) => e.id)), 0)
      project.releases.forEach((release, i) => {
        const f = ctx.fake(`release:${parent.key}:${i}`)
        const { created_at, updated_at } = ctx.timestamps(f, release, parent.createdAt)
        const id = ctx.idOf(release)
        const milestoneIds = release.milestones.map((title) => ctx.titleId('milestones', parent, title))
        const record: ReleaseRecord = {
          id,
          project_id: parent.id,
          tag: release.tag_name,
          name: release.name ?? release.tag_name,
          description: release.description ?? null,
          author_id: release.author === undefined ? null : ctx.userId(release.author),
          sha: null,
          released_at: release.released_at ?? created_at,
          created_at,
          updated_at,
          milestone_ids: milestoneIds,
          evidences: release.evidence
            ? [{ id: ++evidenceId, summary_sha: evidenceSha({ id, tag_name: release.tag_name, name: release.name ?? release.tag_name, description: release.description ?? null, created_at }), collected_at: created_at }]
            : [],
        }
        ctx.stage('releases', record)
        for (const link of release.links) {
          const row: ReleaseLinkRecord = {
            id: 0,
            release_id: id,
            name: link.name,
            url: link.url,
            filepath: link.filepath ?? null,
            link_type: link.link_type,
            created_at,
            updated_at: created_at,
          }
          ctx.stage('release_links', { ...row, id: ctx.stagedRows('release_links').reduce((max, l) => Math.max(max, l.id), 0) + 1 })
        }
      })
    },
  },
}
