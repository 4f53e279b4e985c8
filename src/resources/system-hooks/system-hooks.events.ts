/**
 * The fact the system hooks area publishes: `system_hook_test`, a hook's test (`GET /hooks/:id`),
 * whose delivery the collaboration area makes (GitLab's `hook.execute(data, 'system_hooks')`).
 * @module
 */
import type { SystemHookRecord } from './system-hooks.tables.js'

/** A system hook test: the hook and the sample payload to deliver to it. */
interface SystemHookTestFact {
  readonly hook: SystemHookRecord
  /** The payload, as the route answers it. */
  readonly data: Readonly<Record<string, string | number>>
}

declare module '../../rules/events.js' {
  interface DomainEvents {
    system_hook_test: SystemHookTestFact
  }
}
