/**
 * The `project` fact the projects area publishes on the domain-event channel (`rules/events.ts`):
 * a project was created, updated, renamed (its path changed), transferred to another namespace or
 * destroyed, inside the request's transaction. The events API writes `created` from it, system
 * hooks send `project_create`, `project_update`, `project_rename`, `project_transfer` and
 * `project_destroy`. gitlab: app/services/projects/create_service.rb (`after_create_actions`),
 * update_service.rb (`after_update`), after_rename_service.rb, transfer_service.rb,
 * destroy_service.rb, app/services/system_hooks_service.rb (13.12).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { publish } from '../../rules/events.js'

/** What happened to the project, as `SystemHooksService#execute_hooks_for(project, event)` names it. */
export type ProjectAction = 'create' | 'update' | 'rename' | 'transfer' | 'destroy'

/** The `project` fact. */
export interface ProjectFact {
  readonly action: ProjectAction
  /** The project as saved (as it was, for a destroy). */
  readonly project: ProjectRecord
  /** The full path before a rename or transfer (`old_path_with_namespace`); null otherwise. */
  readonly oldPathWithNamespace: string | null
  /** The instant the row was last saved before this write (a destroyed project's `updated_at`). */
  readonly updatedAt: string
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A project created, updated, renamed, transferred or destroyed (see {@link ProjectFact}). */
    project: ProjectFact
  }
}

/** Publishes the `project` fact of one write, acted by the request's user. */
export function publishProject(ctx: Ctx<unknown>, action: ProjectAction, project: ProjectRecord, oldPathWithNamespace: string | null = null): void {
  const updatedAt = action === 'destroy' ? project.last_activity_at : ctx.now
  publish(ctx.db, 'project', { action, project, oldPathWithNamespace, updatedAt, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
}
