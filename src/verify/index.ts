/**
 * `fakelab verify` as a library (issue 15): replay a cassette against the simulator and get a
 * typed report of every difference; and cassette → scenario import (issue 11), which checks
 * itself by such a replay. Browser-safe; re-exported by `fakelab/node`, and the import alone by
 * `fakelab/msw` (straight from `./import.js`, so the MSW entry loads no more than it needs).
 * @module
 */
export { createSessionReplayer, SIMULATOR_ORIGIN } from './verify.js'
export { importCassette } from './import.js'
export type { ImportOptions, ImportResult } from './import.js'
export { verifyCassette } from './verify-cassette.js'
export type { AreaSummary, ExchangeResult, RouteSummary, SessionReplayer, VerifyOptions, VerifyReport } from './verify.js'
export type { DifferenceKind, VerifyDifference } from './compare.js'
export { createLiveVerifier } from './live.js'
export type { LiveVerifier, LiveVerifierOptions } from './live.js'
export { DEFAULT_NORMALISATIONS } from './normalise.js'
export type { Normalisations } from './normalise.js'
export { IgnoreSyntaxError, parseIgnoreRule } from './paths.js'
export type { IgnoreRule } from './paths.js'
export { formatHtmlReport, formatJsonReport, formatReport, formatTextReport, REPORT_FORMATS } from './report.js'
export type { ReportFormat } from './report.js'
