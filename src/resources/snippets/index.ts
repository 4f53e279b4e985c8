/**
 * The snippets area: personal snippets (`/snippets`) and project snippets
 * (`/projects/:id/snippets`), each with its files in a small git repository, their raw content and
 * user agent detail; project snippets as noteables and awardables of the notes and award emoji
 * areas. gitlab: lib/api/snippets.rb, lib/api/project_snippets.rb (13.12).
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { snippetFragment } from './snippets.scenario.js'
import { snippetTables } from './snippets.tables.js'
import type { Snippet as SnippetPresenter } from './snippets.entities.js'

export type { SnippetRecord, SnippetRepositoryRecord, SnippetCommitSpec } from './snippets.tables.js'
export type { SnippetFields } from './snippets.scenario.js'
export type { BasicSnippetEntity as BasicSnippet } from './snippets.entities.js'

/** GitLab's `Snippet` entity (= `PersonalSnippet` = `ProjectSnippet` in 13.12), as fakelab sends it. */
export type Snippet = ReturnType<typeof SnippetPresenter>

/** The snippets area. */
export const snippets: Area = {
  name: 'snippets',
  load: async () => {
    const { snippetRoutes } = await import('./snippets.routes.js')
    return { api: snippetRoutes }
  },
  register: async () => {
    // Registers the project snippet with the notes and award emoji areas (they may not import this one).
    await import('./snippets.kinds.js')
  },
  tables: snippetTables,
  scenario: snippetFragment,
  // A snippet's user agent detail is a row of the issues area's `user_agent_details`.
  writes: ['user_agent_details'],
}
