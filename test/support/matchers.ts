/**
 * Custom vitest matchers shared by the suite (STYLE.md §14), registered for every test file by
 * test/support/setup.ts (vitest.config.ts `setupFiles`).
 *
 * `expect(res).toBeGitLabError(status, body)`: an `ApiResponse` (test/support/contract.ts) is a
 * GitLab error answer: exactly this status, `content-type: application/json` exactly, and exactly
 * this JSON body (deep equality, as `toEqual`). One matcher, so a wording fix in `core/errors.ts`
 * is one edit per test and every error assertion checks the same three things.
 * @example
 * expect(await api.get('/runners/9999', { as: 'root' })).toBeGitLabError(404, { message: '404 Runner Not Found' })
 */
import { expect } from 'vitest'
import type { ApiResponse } from './contract.js'

/** The JSON content type GitLab (Grape) sends with every JSON error body, and the engine renders. */
const JSON_CONTENT_TYPE = 'application/json'

interface GitLabErrorMatchers<R = unknown> {
  /**
   * The response is GitLab's error answer: `status` exactly, `content-type: application/json`,
   * and a JSON body deep-equal to `body` (for example `{ message: '404 Project Not Found' }`,
   * `{ error: 'id is invalid' }` or a model-error hash `{ message: { name: ["can't be blank"] } }`).
   */
  toBeGitLabError(status: number, body: unknown): R
}

declare module 'vitest' {
  interface Matchers<T = any> extends GitLabErrorMatchers<T> {}
}

expect.extend({
  toBeGitLabError(received: ApiResponse, status: number, body: unknown) {
    const actual = { status: received.status, 'content-type': received.headers.get('content-type'), body: received.body }
    const expected = { status, 'content-type': JSON_CONTENT_TYPE, body }
    const pass = this.equals(actual, expected)
    return {
      pass,
      actual,
      expected,
      message: () => pass
        ? `expected the response not to be GitLab's ${status} error ${this.utils.printExpected(body)}`
        : `expected the response to be GitLab's ${status} error ${this.utils.printExpected(body)}\n\n${this.utils.diff(expected, actual)}`,
    }
  },
})
