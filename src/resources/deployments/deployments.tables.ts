/**
 * The deployments tables: a project's deployments (to one of its environments, of a commit, by a
 * user, made by a CI job or through the API) and the merge requests each one shipped.
 * gitlab: db/structure.sql (`deployments`, `deployment_merge_requests`), app/models/deployment.rb (13.12).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type Timestamp } from '../../db/schema.js'

/** A deployment's status (`Deployment.statuses`, 13.12). */
export type DeploymentStatus = 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped'

/** The statuses, in the enum's order: what `GET …/deployments?status=` accepts. */
export const DEPLOYMENT_STATUSES: readonly DeploymentStatus[] = ['created', 'running', 'success', 'failed', 'canceled', 'skipped']

/** A deployment of a project to one of its environments. */
export interface DeploymentRecord extends Row {
  /** Per project, from 1 (`has_internal_id :iid, scope: :project`). */
  iid: number
  project_id: number
  environment_id: number
  ref: string
  tag: boolean
  sha: string
  /** Who deployed: the API caller, or the user of the job; null once that user is gone. */
  user_id: number | null
  /** The CI job that deploys (`deployable`, a `Ci::Build`); null for a deployment made through the API. */
  deployable_id: number | null
  status: DeploymentStatus
  created_at: Timestamp
  updated_at: Timestamp
  /** When it reached success, failed or canceled; null before. */
  finished_at: Timestamp | null
}

/** A merge request a deployment shipped (`deployment_merge_requests`). */
export interface DeploymentMergeRequestRecord extends Row {
  deployment_id: number
  merge_request_id: number
}

declare module '../../db/schema.js' {
  interface Tables {
    deployments: DeploymentRecord
    deployment_merge_requests: DeploymentMergeRequestRecord
  }
}

/** The tables and their indexes: deployments by project, environment and job; links by deployment. */
export const deploymentTables = {
  deployments: table<DeploymentRecord>(['project_id', 'environment_id', 'deployable_id']),
  deployment_merge_requests: table<DeploymentMergeRequestRecord>(['deployment_id']),
}
