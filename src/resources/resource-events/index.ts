/**
 * The resource events area: the label, milestone and state events of issues and merge requests
 * (list and get), the three `resource_*_events` tables, `resource_events:` of scenario projects,
 * and its subscribers to the `issue` and `merge_request` facts of the domain-event channel
 * (`resource-events.subscribers.ts`), which record the events of every saved write. gitlab: lib/api/resource_label_events.rb,
 * resource_milestone_events.rb, resource_state_events.rb, app/services/resource_events/*.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { resourceEventFragment } from './resource-events.scenario.js'
import { resourceEventTables } from './resource-events.tables.js'
import type { ResourceLabelEvent as LabelEventPresenter, ResourceMilestoneEvent as MilestoneEventPresenter, ResourceStateEvent as StateEventPresenter } from './resource-events.entities.js'

export type { ResourceLabelEventRecord, ResourceMilestoneEventRecord, ResourceStateEventRecord } from './resource-events.tables.js'
export type { ResourceEventFields } from './resource-events.scenario.js'

/** GitLab's `ResourceLabelEvent` entity, as fakelab sends it. */
export type ResourceLabelEvent = ReturnType<typeof LabelEventPresenter>
/** GitLab's `ResourceMilestoneEvent` entity, as fakelab sends it. */
export type ResourceMilestoneEvent = ReturnType<typeof MilestoneEventPresenter>
/** GitLab's `ResourceStateEvent` entity, as fakelab sends it. */
export type ResourceStateEvent = ReturnType<typeof StateEventPresenter>

/** The resource events area. */
export const resourceEvents: Area = {
  name: 'resource-events',
  load: async () => {
    const { resourceEventRoutes } = await import('./resource-events.routes.js')
    return { api: resourceEventRoutes }
  },
  register: async () => {
    // Subscribes to the issue and merge request facts (`rules/events.ts`).
    await import('./resource-events.subscribers.js')
  },
  tables: resourceEventTables,
  scenario: resourceEventFragment,
  // `label_id` and `user_id` are `on_delete: :nullify` (the issuable and milestone keys cascade by
  // their names): a deleted label leaves `label: null`, a deleted user `user: null`.
  cascade: [
    { kind: 'nullify', table: 'resource_label_events', column: 'label_id', parent: 'labels' },
    { kind: 'nullify', table: 'resource_label_events', column: 'user_id', parent: 'users' },
    { kind: 'nullify', table: 'resource_milestone_events', column: 'user_id', parent: 'users' },
    { kind: 'nullify', table: 'resource_state_events', column: 'user_id', parent: 'users' },
  ],
}
