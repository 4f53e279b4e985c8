/**
 * The snippets area's part of the scenario format: `snippets:` of users (personal snippets) and of
 * projects (project snippets, with an `author`), each with its files (`files:` or the single
 * `file_name` + `content`), which become its repository's first commit (`Initial commit` by the
 * author at `created_at`). Where each snippet's repository lives (`repository_storage`) is checked
 * against the configured storages by the repository storage moves area.
 * Source: STYLE.md §10; gitlab: app/models/snippet.rb, app/services/snippets/create_service.rb.
 * @module
 */
import { z } from 'zod'
import { list } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { at } from '../../scenario/problems.js'
import { idSchema, pathSchema, timestampSchema, visibilitySchema } from '../../scenario/scalars.js'
import { items } from '../../scenario/entries.js'
import type { UserRecord } from '../../db/schema.js'
import type { SnippetRecord } from './snippets.tables.js'

const fileSchema = z.strictObject({
  file_path: z.string().min(1).describe('The file\'s path in the snippet\'s repository (no `..` segment, not absolute).'),
  content: z.string().min(1).describe('Its text (not empty).'),
})

const snippetSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  title: z.string().min(1).describe('Title.'),
  description: z.string().default('').describe('Description. Default empty.'),
  visibility: visibilitySchema.default('private').describe('private, internal or public. Default private.'),
  file_name: z.string().min(1).default('snippet.txt').describe('File name of a one-file snippet (without `files`). Default snippet.txt.'),
  content: z.string().min(1).optional().describe('Text of a one-file snippet (without `files`); GitLab keeps no empty snippet. Faker when absent.'),
  files: z.array(fileSchema).min(1).optional().describe('The files of the snippet (13.x multiple files), in order; instead of file_name and content.'),
  /** Project snippets only: the author's username; default the project's creator. */
  author: pathSchema.optional().describe('Project snippets only: the author\'s username; default the project\'s creator.'),
  repository_storage: z.string().min(1).default('default').describe('Name of the repository storage holding it. Default default.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); created_at when absent.'),
})

const snippetFields = { snippets: z.array(snippetSchema).default([]).describe('Snippets (personal for a user, project snippets for a project), each with its files in a small git repository.') }

/** The `snippets` field of users and projects, as parsed. */
export type SnippetFields = FieldsOutput<typeof snippetFields>

declare module '../../scenario/records.js' {
  interface ScenarioUser extends SnippetFields {}
  interface ScenarioUserInput extends FieldsInput<typeof snippetFields> {}
  interface ScenarioProject extends SnippetFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof snippetFields> {}
}

type ScenarioSnippet = SnippetFields['snippets'][number]

/** The built user row of the user with that id. */
function userRow(ctx: LoadContext, id: number): UserRecord | undefined {
  for (const entry of ctx.index.users.values()) if (ctx.idOf(entry.value) === id) return ctx.row('user', entry)
  return undefined
}

function stageSnippets(ctx: LoadContext, key: string, createdAfter: string, snippets: readonly ScenarioSnippet[], owner: { author_id: number; project_id: number | null }): void {
  snippets.forEach((snippet, i) => {
    const f = ctx.fake(`snippet:${key}:${i}`)
    const timestamps = ctx.timestamps(f, snippet, createdAfter)
    // Drawn after the timestamps, so a scenario's snippet dates do not depend on its content.
    const files: [string, string][] = snippet.files ? snippet.files.map((file) => [file.file_path, file.content]) : [[snippet.file_name, snippet.content ?? `${f.lorem.sentence()}\n`]]
    const authorId = snippet.author ? ctx.userId(snippet.author) : owner.author_id
    const record: SnippetRecord = {
      id: ctx.idOf(snippet),
      title: snippet.title,
      description: snippet.description,
      visibility: snippet.visibility,
      author_id: authorId,
      project_id: owner.project_id,
      file_name: files[0]![0],
      repository_storage: snippet.repository_storage,
      ...timestamps,
    }
    ctx.stage('snippets', record)
    const author = userRow(ctx, authorId)
    ctx.stage('snippet_repositories', {
      id: record.id,
      snippet_id: record.id,
      commits: [{ files, message: 'Initial commit', author_name: author?.name ?? '', author_email: author?.email ?? '', at: record.created_at }],
    })
  })
}

/** The snippets fragment (see the module comment). */
export const snippetFragment: ScenarioFragment = {
  fields: { user: snippetFields, project: snippetFields },
  collections: [{ table: 'snippets', field: 'snippets', on: ['user', 'project'] }],
  check(ctx) {
    for (const project of ctx.model.project) {
      for (const snippet of items(project, 'snippets')) {
        const author = (snippet.value as { author?: unknown }).author
        if (author !== undefined) ctx.checkUser(at(snippet, 'author'), author)
      }
    }
    for (const user of ctx.model.user) {
      for (const [snippet, j] of list((user.value as { snippets?: unknown }).snippets)) {
        if (snippet && typeof snippet === 'object' && 'author' in snippet) {
          ctx.report(at(user, 'snippets', j, 'author'), 'personal snippets belong to their user: leave out author')
        }
      }
    }
    for (const owner of [...ctx.model.user, ...ctx.model.project]) {
      for (const snippet of items(owner, 'snippets')) {
        const value = snippet.value as { files?: unknown; file_name?: unknown; content?: unknown }
        if (value.files !== undefined && (value.file_name !== undefined || value.content !== undefined)) {
          ctx.report(at(snippet, 'files'), 'give either files or file_name and content, not both')
        }
        if (Array.isArray(value.files)) {
          const paths = value.files.map((file: unknown) => (file as { file_path?: unknown } | null)?.file_path)
          paths.forEach((path, k) => {
            if (typeof path !== 'string') return
            if (path.startsWith('/') || path.split('/').includes('..')) ctx.report(at(snippet, 'files', k, 'file_path'), 'must be a relative path without ..')
            else if (paths.indexOf(path) !== k) ctx.report(at(snippet, 'files', k, 'file_path'), `duplicate path ${JSON.stringify(path)}`)
          })
        }
      }
    }
  },
  load: {
    user(ctx, user, row) {
      stageSnippets(ctx, `user:${row.username.toLowerCase()}`, row.created_at, user.snippets, { author_id: row.id, project_id: null })
    },
    project(ctx, project, parent) {
      const row = ctx.row('project', parent.entry)
      stageSnippets(ctx, parent.key, parent.createdAt, project.snippets, { author_id: row.creator_id, project_id: parent.id })
    },
  },
}
