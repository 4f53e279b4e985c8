/**
 * What the doors and the engine answer before any handler, with exact status, body and headers on
 * both doors. Source: gitlab-behaviour.md §1.2.
 */
import { expect, it } from 'vitest'
import { contract, type ApiResponse } from '../support/contract.js'

/** Headers the transport adds (node:http) or leaves out (MSW); everything else must match exactly. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

function headersOf(res: ApiResponse): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of res.headers) if (!TRANSPORT_HEADERS.has(name)) out[name] = value
  return out
}

const REQUEST_ID = expect.stringMatching(/^01FAKELAB\d{17}$/)
/** The headers of every JSON answer from the API. */
const API_HEADERS = {
  'cache-control': 'max-age=0, private, must-revalidate',
  'content-type': 'application/json',
  vary: 'Origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'x-request-id': REQUEST_ID,
}

function answer(res: ApiResponse) {
  return { status: res.status, text: res.text, headers: headersOf(res) }
}

contract('wrong method on an existing path (issue 17, item 1)', {}, ({ api }) => {
  // gitlab-behaviour.md §1.2 "Wrong method on an existing path" (corrected 2026-11-23): Grape tries
  // GitLab's `route :any, '*path'` before its 405, so /api/v4 answers the catch-all 404, no Allow.
  it.each([['PATCH', '/projects/20/labels'], ['POST', '/projects/20/labels/110'], ['DELETE', '/user'], ['PUT', '/groups/10/milestones']])(
    '%s %s → 404 {"error":"404 Not Found"}',
    async (method, path) => {
      const res = await api.request(method, path, { as: 'root' })
      expect(answer(res)).toEqual({ status: 404, text: '{"error":"404 Not Found"}', headers: API_HEADERS })
    },
  )
})

