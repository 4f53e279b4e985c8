/**
 * The default scenario with every storage set to `progress: clock`: storage moves then progress by
 * the scenario clock alone (a frozen clock holds them), for the tests of the clock-driven state
 * machine. The default scenario itself moves them by API requests (issue 23 item 15).
 */
import { DEFAULT_SCENARIO_YAML } from '../../src/default-scenario.js'

const STORAGE_LINE = /^( {2}- \{ name: (?:default|storage-2|broken), [^}]*)\}$/gm

/** The default scenario's YAML with `progress: clock` on its three storages. */
export const CLOCK_DRIVEN_DEFAULT_SCENARIO = DEFAULT_SCENARIO_YAML.replace(STORAGE_LINE, '$1, progress: clock }')

if (CLOCK_DRIVEN_DEFAULT_SCENARIO.split('progress: clock }').length !== 4) {
  throw new Error('storage-scenarios.ts: the default scenario no longer has the three storage lines it rewrites')
}
