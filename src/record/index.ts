/**
 * The browser-safe record-and-replay API (issue 11): cassettes, redaction, matching and replay.
 * Re-exported by `fakelab/msw` (next to `createReplayHandlers`) and `fakelab/node` (next to
 * `createRecorder`). Nothing here imports `node:*`. Cassette → scenario import checks itself by a
 * verify run, so it lives in src/verify/ (`importCassette`, re-exported by both entries too).
 * @module
 */
export { CassetteError, cassetteSchema, createCassette, formatCassetteProblem, parseCassette, serializeCassette } from './har.js'
export type { CassetteCreator, CassetteProblem, Entry as HarEntry, Har } from './har.js'
export { createRedactor, DEFAULT_REDACTION, isRedacted } from './redact.js'
export type { RedactionRules, Redactor } from './redact.js'
export type { Difference, MatchOptions } from './match.js'
export { createReplayDoor, createReplayer, entryResponse, isMiss, missResponse, REPLAY_MODES } from './replay.js'
export type { NearMiss, ReplayDoor, ReplayDoorOptions, ReplayMiss, ReplayMode, Replayer, ReplayerOptions, RequestHandlerLike } from './replay.js'
