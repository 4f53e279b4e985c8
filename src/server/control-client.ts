/**
 * A small typed client for fakelab's control API (`/-/fakelab/*`, see `src/core/control.ts`), for
 * tests that drive a fakelab server started elsewhere (CI service, `fakelab serve`). Uses the global
 * `fetch`. Source: issue 12 "Control API".
 * @example
 * const control = controlClient('http://127.0.0.1:3000')
 * await control.reset()
 * await control.advanceClock({ seconds: 3600 })
 * expect(await control.journal({ route: 'POST /projects/:id/labels' })).toHaveLength(1)
 * @module
 */
import type { JournalEntry } from '../core/journal.js'

/** Journal filters the server understands (a subset of `JournalQuery`: plain values only). */
export interface RemoteJournalQuery {
  route?: string
  method?: string
  status?: number
  /** A username; `''` for anonymous requests. */
  user?: string
  simulated?: boolean
}

/** What {@link controlClient} returns. Every method rejects with {@link ControlError} on a non-2xx answer. */
export interface ControlClient {
  /** `POST /-/fakelab/reset`: back to the loaded scenario. */
  reset(): Promise<void>
  /** `PUT /-/fakelab/scenario`: load scenario YAML/JSON text, a scenario object or a state export. */
  loadScenario(scenario: string | object): Promise<void>
  /** `GET /-/fakelab/state`: the state export (YAML). */
  exportState(): Promise<string>
  /** `GET /-/fakelab/clock`. */
  now(): Promise<Date>
  /** `PUT /-/fakelab/clock`. @returns the new now. */
  setClock(instant: Date | string): Promise<Date>
  /** `POST /-/fakelab/clock/advance`. @returns the new now. */
  advanceClock(by: { ms: number } | { seconds: number }): Promise<Date>
  /** `GET /-/fakelab/journal`: entries matching every given filter, oldest first. */
  journal(query?: RemoteJournalQuery): Promise<JournalEntry[]>
  /** `DELETE /-/fakelab/journal`. */
  clearJournal(): Promise<void>
}

/** A control request answered with a non-2xx status; `body` is the parsed JSON answer when there is one. */
export class ControlError extends Error {
  override name = 'ControlError'
  /** The HTTP status answered. */
  readonly status: number
  /** The parsed JSON body (or the text when it is not JSON). */
  readonly body: unknown

  constructor(status: number, body: unknown) {
    super(`fakelab control API answered ${status}: ${JSON.stringify(body)}`)
    this.status = status
    this.body = body
  }
}

/**
 * A control client for the server at `baseUrl` (`http://host:port`, with or without a trailing
 * slash). When the server selects sessions by URL prefix, pass the prefixed base.
 */
export function controlClient(baseUrl: string): ControlClient {
  const root = `${baseUrl.replace(/\/$/, '')}/-/fakelab`

  async function call(method: string, path: string, body?: string, type = 'application/json'): Promise<Response> {
    const res = await fetch(`${root}${path}`, { method, ...(body !== undefined ? { body, headers: { 'content-type': type } } : {}) })
    if (!res.ok) {
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {
        // Not JSON: keep the text.
      }
      throw new ControlError(res.status, parsed)
    }
    return res
  }
  const json = async <T>(res: Response): Promise<T> => (await res.json()) as T
  const date = async (res: Response): Promise<Date> => new Date((await json<{ now: string }>(res)).now)

  return {
    reset: async () => void (await call('POST', '/reset')),
    loadScenario: async (scenario) => {
      const text = typeof scenario === 'string' ? scenario : JSON.stringify(scenario)
      await call('PUT', '/scenario', text, typeof scenario === 'string' ? 'application/yaml' : 'application/json')
    },
    exportState: async () => (await call('GET', '/state')).text(),
    now: async () => date(await call('GET', '/clock')),
    setClock: async (instant) => date(await call('PUT', '/clock', JSON.stringify({ now: new Date(instant).toISOString() }))),
    advanceClock: async (by) => date(await call('POST', '/clock/advance', JSON.stringify(by))),
    journal: async (query = {}) => {
      const params = new URLSearchParams()
      for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value))
      const search = params.toString()
      return json<JournalEntry[]>(await call('GET', `/journal${search ? `?${search}` : ''}`))
    },
    clearJournal: async () => void (await call('DELETE', '/journal')),
  }
}
