/**
 * What other areas (system hooks, group hooks) and tests may use of the hooks area: the delivery
 * module a hook of any kind goes through, its log, and the pause switch. A system-hooks area calls
 * `queueDelivery(db, { id, kind: 'system', url, token }, trigger, event, payload, at)` from its own
 * subscribers, and builds payloads with the presenters exported here. Nothing here imports another area.
 * @module
 */
export { hookDeliveries, hookDeliveriesSettled, hookDeliveryPaused, hookTime, pauseHookDelivery, queueDelivery } from './hooks.delivery.js'
export type { HookTarget } from './hooks.delivery.js'
export { projectHookAttrs, userHookAttrs } from './hooks.payloads.js'
export type { WebHookLogRecord } from './hooks.tables.js'
