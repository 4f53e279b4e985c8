/**
 * The issues area: the issue lists (`/issues`, `/groups/:id/issues`, `/projects/:id/issues`), single
 * issues and the issue writes (create, edit, close/reopen, delete, move, subscribe), the
 * sub-resources of a project issue, the `issues` table and its companions (closing and
 * mentioning merge requests, user agent details, metric images),
 * `issues:` of scenario projects, and the web route serving uploaded metric images' bytes.
 * Notes on issues are the notes area's. gitlab: lib/api/issues.rb, time_tracking_endpoints.rb, subscriptions.rb,
 * app/controllers/uploads_controller.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { issueImporter } from './issues.import.js'
import { issueFragment } from './issues.scenario.js'
import { issueTables } from './issues.tables.js'
import type { IssueBasic as IssueBasicPresenter, Issue as IssuePresenter } from './issue.entities.js'
import type { UserAgentDetail as UserAgentDetailPresenter, MetricImage as MetricImagePresenter } from './issues.entities.js'

export type { IssueRecord, MetricImageRecord } from './issues.tables.js'
export type { IssueFields } from './issues.scenario.js'
export type { IssueAction, IssueFact } from './issues.events.js'

/** GitLab's `IssueBasic` entity, as fakelab sends it. */
export type IssueBasic = ReturnType<typeof IssueBasicPresenter>
/** GitLab's `Issue` entity, as fakelab sends it. */
export type Issue = ReturnType<typeof IssuePresenter>
/** GitLab's `UserAgentDetail` entity, as fakelab sends it. */
export type UserAgentDetail = ReturnType<typeof UserAgentDetailPresenter>
/** GitLab's `MetricImage` entity, as fakelab sends it. */
export type MetricImage = ReturnType<typeof MetricImagePresenter>

/** The issues area. */
export const issues: Area = {
  name: 'issues',
  load: async () => {
    const [{ issueRoutes }, { issueWriteRoutes }, { metricImageWebRoutes }] = await Promise.all([import('./issues.routes.js'), import('./issue-writes.routes.js'), import('./metric-image-file.routes.js')])
    return { api: [...issueRoutes, ...issueWriteRoutes], web: metricImageWebRoutes }
  },
  register: async () => {
    // Registers the kind with the notes, award emoji and to-dos areas (they may not import this one).
    await import('./issues.kinds.js')
    await import('./issues.subscribers.js')
  },
  tables: issueTables,
  // A scenario issue's `award_emoji:` and a moved issue's copies; subscribing to an issue.
  writes: ['award_emoji', 'subscriptions'],
  scenario: issueFragment,
  importer: issueImporter,
}
