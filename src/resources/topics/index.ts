/**
 * The topics area: `/topics` routes and the `topics` table. A GitLab 14.5 API (merge: 15.4), beyond
 * the 13.12 fakelab simulates, served for python-gitlab 3.12's functional suite (see
 * `topics.routes.ts` and docs/spec-gaps.md). gitlab: lib/api/topics.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { topicTables } from './topics.tables.js'
import type { Topic as TopicPresenter } from './topics.routes.js'

export type { TopicRecord } from './topics.tables.js'

/** GitLab's `Projects::Topic` entity, as fakelab sends it. */
export type Topic = ReturnType<typeof TopicPresenter>

/** The topics area. */
export const topics: Area = {
  name: 'topics',
  load: async () => {
    const { topicRoutes } = await import('./topics.routes.js')
    return { api: topicRoutes }
  },
  tables: topicTables,
}
