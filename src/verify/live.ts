/**
 * Live verification for `fakelab record --verify` (issue 15, part 2): beside each real answer the
 * recorder takes, what the simulator would have answered. The client only ever sees the real
 * answer; this runs after the exchange, off the client's path. Browser-safe.
 *
 * Seeding: with a scenario, one simulator for the whole session, each recorded request replayed
 * on it as it comes. Without one, the simulator is seeded again for each exchange from the
 * target's answers so far (the cassette up to and including this exchange, imported as
 * `fakelab import` does), the session's earlier writes are replayed on it (so records created
 * earlier exist and the id map knows them), then this exchange's request. That costs one import
 * and the earlier writes per exchange: fine for a recording session, and the figure of a whole
 * cassette is `fakelab verify`'s job.
 * @module
 */
import type { Entry, Har } from 'har-format'
import { cassetteMeta, type CassetteMeta } from '../record/har.js'
import { importCassette, tokenMap } from './import.js'
import type { Scenario } from '../scenario/index.js'
import { createSimulator, parseScenario, type Simulator } from '../simulator.js'
import { DEFAULT_NORMALISATIONS, type Normalisations } from './normalise.js'
import { parseIgnoreRules, type IgnoreRule } from './paths.js'
import { addImportedTokens, createSessionReplayer, summarise, type ExchangeResult, type SessionReplayer, type VerifyReport } from './verify.js'

/** Options of {@link createLiveVerifier}. */
export interface LiveVerifierOptions {
  /** Replay against this scenario; default: seeded from the target's answers so far. */
  scenario?: Scenario | string
  /** Ignore rules, as for `verifyCassette`. */
  ignore?: readonly string[]
  /** Normalisations to switch off. */
  normalise?: Partial<Normalisations>
  /** The report's source name (the cassette being written). */
  source?: string
}

/** Checks exchanges as they are recorded. */
export interface LiveVerifier {
  /**
   * Verifies the entries of `cassette` not verified yet (in order), and returns their results.
   * Calls are queued: each waits for the one before.
   */
  check(cassette: Har): Promise<ExchangeResult[]>
  /** The report over every exchange checked so far (after the queued checks finish). */
  report(): Promise<VerifyReport>
}

/** The session so far as a cassette, with the recorder's notes on its credentials (entries kept in order). */
function upToNow(entries: readonly Entry[], meta: CassetteMeta): Har {
  return { log: { version: '1.2', creator: { name: 'fakelab', version: '0' }, entries: [...entries], ...(meta.credentials ? { _fakelab: meta } : {}) } as Har['log'] }
}

/**
 * A replayer over `sim` that has replayed the writes (every request but a GET) among `entries`
 * before the last one, so that the last meets the state its recording met.
 */
async function replayerAtLast(sim: Simulator, entries: readonly Entry[], normalise: Normalisations, rules: readonly IgnoreRule[], tokens: ReadonlyMap<string, string>): Promise<SessionReplayer> {
  const replayer = createSessionReplayer(sim, normalise, rules, tokens)
  for (const [i, entry] of entries.slice(0, -1).entries()) if (entry.request.method.toUpperCase() !== 'GET') await replayer.replay(entry, i)
  return replayer
}

/**
 * Creates a live verifier.
 * @throws IgnoreSyntaxError for a bad ignore rule; ScenarioError for scenario YAML with problems.
 */
export function createLiveVerifier(options: LiveVerifierOptions = {}): LiveVerifier {
  const rules = parseIgnoreRules(options.ignore ?? [])
  const normalise = { ...DEFAULT_NORMALISATIONS, ...options.normalise }
  const given = typeof options.scenario === 'string' ? parseScenario(options.scenario) : options.scenario
  const results: ExchangeResult[] = []
  let fixed: { replayer: SessionReplayer; tokens: string } | undefined
  let lastReplayer: SessionReplayer | undefined
  let queue: Promise<unknown> = Promise.resolve()

  /** The scenario-seeded replayer, rebuilt when the session shows a token owner it did not know. */
  async function scenarioReplayer(entries: readonly Entry[], meta: CassetteMeta): Promise<SessionReplayer> {
    const imported = await importCassette(upToNow(entries, meta), { verify: false })
    const tokens = JSON.stringify((imported.scenario.users as { tokens?: unknown }[]).map((u) => u.tokens ?? []))
    if (!fixed || fixed.tokens !== tokens) {
      // A new token owner: start again from the scenario and replay the earlier writes.
      const sim = createSimulator({ scenario: given! })
      addImportedTokens(sim, imported.scenario)
      fixed = { replayer: await replayerAtLast(sim, entries, normalise, rules, tokenMap(imported.tokens)), tokens }
    }
    return fixed.replayer
  }

  async function checkOne(entries: readonly Entry[], index: number, meta: CassetteMeta): Promise<ExchangeResult> {
    const upTo = entries.slice(0, index + 1)
    if (given) {
      lastReplayer = await scenarioReplayer(upTo, meta)
      return lastReplayer.replay(entries[index]!, index)
    }
    const imported = await importCassette(upToNow(upTo, meta), { verify: false })
    lastReplayer = await replayerAtLast(createSimulator({ scenario: imported.yaml }), upTo, normalise, rules, tokenMap(imported.tokens))
    return lastReplayer.replay(entries[index]!, index)
  }

  return {
    check(cassette) {
      const run = queue.then(async () => {
        const entries = cassette.log.entries
        const fresh: ExchangeResult[] = []
        for (let index = results.length; index < entries.length; index++) {
          const result = await checkOne(entries, index, cassetteMeta(cassette))
          results.push(result)
          fresh.push(result)
        }
        return fresh
      })
      queue = run.catch(() => undefined)
      return run
    },
    async report() {
      await queue
      return summarise([...results], {
        renamedIds: lastReplayer?.renamedIds() ?? [],
        source: options.source ?? '<live>',
        seededFrom: given ? 'scenario' : 'cassette',
        rules,
        normalise,
        firstDifferences: 5,
      })
    },
  }
}
