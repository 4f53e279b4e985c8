/** The shared `toBeGitLabError` matcher (test/support/matchers.ts) is as strict as the inline assertions it replaced. */
import { describe, expect, it } from 'vitest'
import type { ApiResponse } from '../support/contract.js'

function response(status: number, body: unknown, contentType: string | null = 'application/json'): ApiResponse {
  const text = body === undefined ? '' : JSON.stringify(body)
  const headers = new Headers(contentType === null ? {} : { 'content-type': contentType })
  return { status, headers, body, text, bytes: new TextEncoder().encode(text) }
}

describe('toBeGitLabError', () => {
  it('passes on the exact status, JSON content type and body', () => {
    expect(response(404, { message: '404 Project Not Found' })).toBeGitLabError(404, { message: '404 Project Not Found' })
    expect(response(400, { message: { name: ["can't be blank"] } })).toBeGitLabError(400, { message: { name: ["can't be blank"] } })
  })

  it.each([
    ['another status', response(403, { message: '404 Project Not Found' })],
    ['another message', response(404, { message: '404 Group Not Found' })],
    ['`error` for `message`', response(404, { error: '404 Project Not Found' })],
    ['an extra key', response(404, { message: '404 Project Not Found', extra: 1 })],
    ['an empty body', response(404, undefined)],
    ['another content type', response(404, { message: '404 Project Not Found' }, 'application/json; charset=utf-8')],
    ['no content type', response(404, { message: '404 Project Not Found' }, null)],
  ])('fails on %s', (_, res) => {
    expect(() => expect(res).toBeGitLabError(404, { message: '404 Project Not Found' })).toThrow(/GitLab's 404 error/)
    expect(res).not.toBeGitLabError(404, { message: '404 Project Not Found' })
  })
})
