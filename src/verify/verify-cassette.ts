/**
 * `verifyCassette`: replays a recorded session against a fresh simulator and reports, route by
 * route and field by field, where the simulator answers differently. Browser-safe (the CLI reads
 * the files). The simulator is seeded from the cassette by the same code as `fakelab import`
 * ({@link importCassette}), or from a given scenario, into which the cassette's token placeholders
 * are then added ({@link addImportedTokens}); the exchanges are replayed by the session replayer of
 * `verify.ts`, which import's own check uses too (so this module, not that one, imports import).
 * Source: issue 15.
 * @module
 */
import type { Har } from 'har-format'
import { parseCassette } from '../record/har.js'
import { importCassette, tokenMap } from './import.js'
import { createSimulator, type Simulator } from '../simulator.js'
import { DEFAULT_NORMALISATIONS } from './normalise.js'
import { parseIgnoreRules } from './paths.js'
import { addImportedTokens, createSessionReplayer, summarise, type ExchangeResult, type VerifyOptions, type VerifyReport } from './verify.js'

async function seed(har: Har, options: VerifyOptions): Promise<{ sim: Simulator; seededFrom: VerifyReport['seededFrom']; tokens: Map<string, string> }> {
  const imported = await importCassette(har, { verify: false, source: options.source ?? '<cassette>' })
  const tokens = tokenMap(imported.tokens)
  if (options.scenario === undefined) return { sim: createSimulator({ scenario: imported.yaml }), seededFrom: 'cassette', tokens }
  const sim = createSimulator({ scenario: options.scenario })
  addImportedTokens(sim, imported.scenario)
  return { sim, seededFrom: 'scenario', tokens }
}

/**
 * Replays a cassette against a fresh simulator and compares every answer.
 * @param cassette a parsed HAR log, or its JSON text.
 * @returns the report; `report.clean` says whether anything differs beyond the ignore rules.
 * @throws CassetteError when the text is not a valid cassette.
 * @throws IgnoreSyntaxError for an ignore rule it cannot read.
 * @throws ScenarioError when `options.scenario` is YAML with problems.
 * @example
 * const report = await verifyCassette(await loadCassetteFile('cassettes/curl.har.json'), { ignore: ['**.avatar_url'] })
 * expect(report.clean).toBe(true)
 */
export async function verifyCassette(cassette: Har | string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const rules = parseIgnoreRules(options.ignore ?? [])
  const har = typeof cassette === 'string' ? parseCassette(cassette, options.source) : cassette
  const { sim, seededFrom, tokens } = await seed(har, options)
  const replayer = createSessionReplayer(sim, { ...DEFAULT_NORMALISATIONS, ...options.normalise }, rules, tokens)
  const results: ExchangeResult[] = []
  for (const [index, entry] of har.log.entries.entries()) results.push(await replayer.replay(entry, index))
  return summarise(results, {
    renamedIds: replayer.renamedIds(),
    source: options.source ?? '<cassette>',
    seededFrom,
    rules,
    normalise: { ...DEFAULT_NORMALISATIONS, ...options.normalise },
    firstDifferences: options.firstDifferences ?? 5,
  })
}
