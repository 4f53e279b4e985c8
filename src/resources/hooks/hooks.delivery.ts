/**
 * Webhook delivery: one module every kind of hook goes through (project hooks here; system and
 * group hooks plug in with their own {@link HookTarget}). A delivery is logged in `web_hook_logs`
 * inside the request that caused it (so a failed request leaves none), and POSTed after that
 * request's commit (`db.onCommit`) with `globalThis.fetch`, in the order the deliveries were made
 * (one chain per store, so a receiver sees an issue event before the note on it).
 *
 * GitLab 13.12: `WebHookService#execute` POSTs the JSON body with `Content-Type: application/json`,
 * `User-Agent: GitLab/<version>`, `X-Gitlab-Event: <Issue Hook…>` and, when the hook has a token,
 * `X-Gitlab-Token`; it logs the answer's status, headers and body (`WebHookLog`), or `internal
 * error` and the exception's message when no answer came. There is no automatic retry: the Sidekiq
 * worker (`WebHookWorker`) calls the service, which rescues every error, so a failed delivery stays
 * failed and only a new event or the UI's "Test"/"Resend" sends again; failures are not counted on
 * the hook (`recent_failures` and auto-disabling came in 14.x). gitlab: app/services/web_hook_service.rb,
 * app/workers/web_hook_worker.rb, app/models/hooks/web_hook.rb (13.12).
 *
 * Pausing ({@link pauseHookDelivery}): deliveries are logged with status `paused` and not sent, so a
 * test can assert on what would be sent; resuming sends them in order.
 * @module
 */
import type { Db } from '../../db/db.js'
import { registerHookControl } from '../../core/hook-control.js'
import { deliveryExtraHeaders } from '../../rules/webhook-transport.js'
import type { WebHookLogRecord } from './hooks.tables.js'

/** The GitLab version in the `User-Agent` of a delivery (`Gitlab::VERSION`). */
const USER_AGENT = 'GitLab/13.12.15'

/** Where a delivery goes: the hook's table row id, its kind, URL and secret token. */
export interface HookTarget {
  readonly id: number
  readonly kind: WebHookLogRecord['hook_kind']
  readonly url: string
  readonly token: string | null
}

/** The chain of one store's deliveries in flight (each POST starts when the one before is answered). */
const CHAINS = new WeakMap<Db, Promise<void>>()

/** Whether delivery is paused for the store (its `web_hook_delivery` row; a scenario's `webhook_delivery: paused`). */
function hookDeliveryPaused(db: Db): boolean {
  return db.tables.web_hook_delivery.get(1)?.paused ?? false
}

/** `2021-03-01T09:00:00.000Z` → `2021-03-01 09:00:00 UTC`: how a Time reaches a hook (Sidekiq's JSON, `Time#to_s`). */
export function hookTime(iso: string | null | undefined): string | null {
  if (iso === null || iso === undefined) return null
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/**
 * Logs one delivery of `payload` to `target` and queues its POST for after the commit (or holds it
 * while delivery is paused).
 * @param trigger GitLab's hook name (`issue_hooks`, `push_hooks`...).
 * @param event the `X-Gitlab-Event` value (`Issue Hook`, `Push Hook`...).
 * @param at the causing request's instant (ISO 8601).
 * @returns the log row.
 */
export function queueDelivery(db: Db, target: HookTarget, trigger: string, event: string, payload: unknown, at: string): WebHookLogRecord {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, 'X-Gitlab-Event': event }
  if (target.token !== null && target.token !== '') headers['X-Gitlab-Token'] = target.token
  const paused = hookDeliveryPaused(db)
  const log = db.tables.web_hook_logs.insert({
    web_hook_id: target.id,
    hook_kind: target.kind,
    trigger,
    url: target.url,
    request_headers: headers,
    request_data: payload,
    response_status: paused ? 'paused' : 'pending',
    response_headers: {},
    response_body: '',
    execution_duration: 0,
    internal_error_message: null,
    created_at: at,
    updated_at: at,
  })
  if (!paused) db.onCommit(() => send(db, log.id))
  return log
}

/** Chains the POST of log row `id` after every earlier delivery of the store. */
function send(db: Db, id: number): void {
  CHAINS.set(db, (CHAINS.get(db) ?? Promise.resolve()).then(() => post(db, id)))
}

async function post(db: Db, id: number): Promise<void> {
  const log = db.tables.web_hook_logs.get(id)
  if (!log) return // the store was reset or restored meanwhile
  const started = Date.now()
  const finish = (patch: Partial<WebHookLogRecord>) => {
    if (db.tables.web_hook_logs.get(id) !== undefined) db.tables.web_hook_logs.update(id, { ...patch, execution_duration: (Date.now() - started) / 1000 })
  }
  try {
    const response = await globalThis.fetch(log.url, {
      method: 'POST',
      headers: { ...log.request_headers, ...deliveryExtraHeaders(db) },
      body: JSON.stringify(log.request_data),
      redirect: 'manual',
    })
    const body = await response.text()
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => (headers[name] = value))
    finish({ response_status: String(response.status), response_headers: headers, response_body: body })
  } catch (error) {
    finish({ response_status: 'internal error', internal_error_message: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) })
  }
}

/**
 * Pauses (`true`) or resumes (`false`) delivery for the store: while paused, deliveries are logged
 * as `paused` and not sent; resuming sends the held ones in the order they were made.
 */
export function pauseHookDelivery(db: Db, paused: boolean): void {
  if (db.tables.web_hook_delivery.get(1)) db.tables.web_hook_delivery.update(1, { paused })
  else db.tables.web_hook_delivery.insert({ id: 1, paused })
  if (paused) return
  for (const log of db.tables.web_hook_logs.all().filter((row) => row.response_status === 'paused').sort((a, b) => a.id - b.id)) {
    db.tables.web_hook_logs.update(log.id, { response_status: 'pending' })
    send(db, log.id)
  }
}

/** Resolves once every delivery queued so far for the store has been answered or has failed. */
export function hookDeliveriesSettled(db: Db): Promise<void> {
  return CHAINS.get(db) ?? Promise.resolve()
}

/** Every logged delivery of the store, oldest first. */
export function hookDeliveries(db: Db): WebHookLogRecord[] {
  return db.tables.web_hook_logs.all().sort((a, b) => a.id - b.id)
}

// The control API's `/-/fakelab/hooks/…` calls reach this module through the rules' registry.
registerHookControl({
  paused: hookDeliveryPaused,
  pause: pauseHookDelivery,
  deliveries: (db) => hookDeliveries(db),
  settled: hookDeliveriesSettled,
})
