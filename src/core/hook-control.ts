/**
 * The control API's face of webhook delivery (`/-/fakelab/hooks/…`): core knows no area, so the
 * hooks area registers what the control routes call when its delivery module loads. Browser-safe.
 * @module
 */
import type { Db } from '../db/db.js'

/** A logged hook delivery as the control API lists it (the hooks area's `web_hook_logs` row). */
export interface HookDeliveryView {
  readonly id: number
  readonly web_hook_id: number
  readonly hook_kind: string
  readonly trigger: string
  readonly url: string
  readonly request_headers: Readonly<Record<string, string>>
  readonly request_data: unknown
  readonly response_status: string
  readonly response_body: string
  readonly internal_error_message: string | null
  readonly created_at: string
}

/** What the control API needs of hook delivery; the hooks area registers it when it loads. */
export interface HookControl {
  paused(db: Db): boolean
  /** Pauses or resumes; resuming sends the held deliveries in order. */
  pause(db: Db, paused: boolean): void
  /** Every logged delivery, oldest first. */
  deliveries(db: Db): readonly HookDeliveryView[]
  /** Resolves once every delivery queued so far is answered or failed. */
  settled(db: Db): Promise<void>
}

let hookControl: HookControl | undefined

/** Registers hook delivery's control face (called once by the hooks area's delivery module). */
export function registerHookControl(control: HookControl): void {
  hookControl = control
}

/** The registered hook control, or undefined when no hooks area is composed in. */
export function registeredHookControl(): HookControl | undefined {
  return hookControl
}
