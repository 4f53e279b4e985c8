/**
 * The `deployment` fact the deployments area publishes on the domain-event channel
 * (`rules/events.ts`) each time a deployment's status changes (a deployment made or updated through
 * the API, or following its job), after the change is stored and within the same request: the
 * stand-in for `Deployment`'s `after_transition` callbacks (`Deployments::ExecuteHooksWorker` and
 * the like), which GitLab runs in Sidekiq. Webhooks subscribe. gitlab: app/models/deployment.rb (13.12).
 * @module
 */
import { publish, type DomainEventHeader } from '../../rules/events.js'
import type { DeploymentRecord } from './deployments.tables.js'

/** The `deployment` fact: the deployment as now stored (its new `status`) and the status it had before (null for a new one). */
export interface DeploymentFact {
  readonly deployment: DeploymentRecord
  readonly previousStatus: string | null
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    /** A deployment's status changed (see {@link DeploymentFact}). */
    deployment: DeploymentFact
  }
}

/** Publishes the `deployment` fact; nothing when the status did not change. */
export function publishDeploymentStatus(header: DomainEventHeader, db: Parameters<typeof publish>[0], deployment: DeploymentRecord, previous: string | null): void {
  if (deployment.status === previous) return
  publish(db, 'deployment', { deployment, previousStatus: previous, actorId: header.actorId, at: header.at, baseUrl: header.baseUrl })
}
