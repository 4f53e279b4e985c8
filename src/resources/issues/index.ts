/**
 * The issues area: the issue lists (`/issues`, `/groups/:id/issues`, `/projects/:id/issues`), single
 * issues and the issue writes (create, edit, close/reopen, delete, move, subscribe), the
 * sub-resources of a project issue and its notes, the `issues` table and its companions (notes,
 * award emoji, closing and mentioning merge requests, user agent details, metric images),
 * `issues:` of scenario projects, and the web route serving uploaded metric images' bytes.
 * gitlab: lib/api/issues.rb, time_tracking_endpoints.rb, notes.rb, subscriptions.rb,
 * app/controllers/uploads_controller.rb.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { issueWriteRoutes } from './issue-writes.routes.js'
import { issueImporter } from './issues.import.js'
import { issueRoutes } from './issues.routes.js'
import { metricImageWebRoutes } from './metric-image-file.routes.js'
import { issueFragment } from './issues.scenario.js'
import { issueTables } from './issues.tables.js'
import { noteRoutes } from './notes.routes.js'

export type { IssueRecord, NoteRecord, AwardEmojiRecord, MetricImageRecord } from './issues.tables.js'
export type { IssueFields } from './issues.scenario.js'

/** The issues area. */
export const issues: Area = { name: 'issues', routes: [...issueRoutes, ...issueWriteRoutes, ...noteRoutes], webRoutes: metricImageWebRoutes, tables: issueTables, scenario: issueFragment, importer: issueImporter }
