/**
 * The wikis area's part of the scenario format: `wiki_pages:` of projects, the pages a test may
 * start with (title, content, format, author, timestamps). A page's slug follows from its title as
 * GitLab's does (`wikis.slug.ts`).
 * Source: STYLE.md §10; gitlab: app/models/wiki_page.rb (13.12).
 * @module
 */
import { z } from 'zod'
import { items } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { idSchema, pathSchema, timestampSchema } from '../../scenario/scalars.js'
import { slugForTitle } from './wikis.slug.js'
import { WIKI_FORMATS, type WikiFormat } from './wikis.tables.js'

const pageSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  title: z.string().min(1).describe('Title; a title with `/` puts the page in a directory. The slug follows from it (spaces, < and > become -).'),
  content: z.string().default('').describe('Content. Default empty.'),
  format: z.enum(Object.keys(WIKI_FORMATS) as [WikiFormat, ...WikiFormat[]]).default('markdown').describe('markdown, rdoc, asciidoc or org. Default markdown.'),
  author: pathSchema.optional().describe('Username of the last author; default the project\'s creator.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const projectFields = { wiki_pages: z.array(pageSchema).default([]).describe('Pages of the project\'s wiki (GET /projects/:id/wikis).') }

/** The `wiki_pages` field of projects, as parsed. */
export type WikiPageFields = FieldsOutput<typeof projectFields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends WikiPageFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof projectFields> {}
}

/** The wikis fragment (see the module comment). */
export const wikiFragment: ScenarioFragment = {
  fields: { project: projectFields },
  collections: [{ table: 'wiki_pages', field: 'wiki_pages', on: ['project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      const seen = new Set<string>()
      for (const page of items(project, 'wiki_pages')) {
        const value = page.value as { title?: unknown; author?: unknown }
        if (value.author !== undefined) ctx.checkUser(at(page, 'author'), value.author)
        if (typeof value.title !== 'string') continue
        const slug = slugForTitle(value.title.trim())
        if (slug === '') ctx.report(at(page, 'title'), 'names no page: give a title with a letter or digit')
        else if (seen.has(slug)) ctx.report(at(page, 'title'), `another page of this wiki has the slug ${JSON.stringify(slug)}`)
        seen.add(slug)
      }
    }
  },
  load: {
    project(ctx, project, parent) {
      const row = ctx.row('project', parent.entry)
      project.wiki_pages.forEach((page, i) => {
        const f = ctx.fake(`wiki_page:${parent.key}:${i}`)
        ctx.stage('wiki_pages', {
          id: ctx.idOf(page),
          project_id: parent.id,
          slug: slugForTitle(page.title.trim()),
          format: page.format,
          content: page.content,
          author_id: page.author ? ctx.userId(page.author) : row.creator_id,
          ...ctx.timestamps(f, page, parent.createdAt),
        })
      })
    },
  },
}
