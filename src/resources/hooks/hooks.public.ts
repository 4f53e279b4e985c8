/**
 * What tests and other areas may use of the hooks area: the delivery's log, the pause switch, and waiting for deliveries in flight. A system-hooks area plugs in by
 * calling `queueDelivery` (hooks.delivery.ts: a `HookTarget` of kind `system`, its trigger, event
 * name and payload) from its own subscribers; it is exported here when that area first uses it.
 * Nothing here imports another area.
 * @module
 */
export { hookDeliveries, hookDeliveriesSettled, pauseHookDelivery } from './hooks.delivery.js'
