/**
 * The issues area: so far the `issues` table and `issues:` of scenario projects, which milestone
 * and label routes read; the issue routes (lib/api/issues.rb) are to come here.
 * @module
 */
import type { Area } from '../../scenario/area.js'
import { issueFragment } from './issues.scenario.js'
import { issueTables } from './issues.tables.js'

export type { IssueRecord } from './issues.tables.js'
export type { IssueFields } from './issues.scenario.js'

/** The issues area. */
export const issues: Area = { name: 'issues', routes: [], tables: issueTables, scenario: issueFragment }
