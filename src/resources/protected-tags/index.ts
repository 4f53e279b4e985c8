/**
 * The protected tags area: `/projects/:id/protected_tags` routes, the `protected_tags` table,
 * `protected_tags:` of scenario projects, and (through `protected-tags.public.ts`) the checks the
 * tags API and git pushes run: only allowed roles create a matching tag, nobody moves or deletes
 * one. gitlab: lib/api/protected_tags.rb, app/models/protected_tag.rb, lib/gitlab/checks/tag_check.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { protectedTagFragment } from './protected-tags.scenario.js'
import { protectedTagTables } from './protected-tags.tables.js'
import type { ProtectedTag as ProtectedTagPresenter } from './protected-tags.entities.js'

export type { ProtectedTagRecord, TagCreateAccessLevel } from './protected-tags.tables.js'
export type { ProtectedTagFields } from './protected-tags.scenario.js'

/** GitLab's `ProtectedTag` entity, as fakelab sends it. */
export type ProtectedTag = ReturnType<typeof ProtectedTagPresenter>

/** The protected tags area. */
export const protectedTags: Area = {
  name: 'protected-tags',
  load: async () => {
    const { protectedTagRoutes } = await import('./protected-tags.routes.js')
    return { api: protectedTagRoutes }
  },
  tables: protectedTagTables,
  scenario: protectedTagFragment,
}
