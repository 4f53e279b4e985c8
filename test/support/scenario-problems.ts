/**
 * The problems a scenario text is refused with, one `file:line:col message` per entry (empty when
 * it parses), for tests of the scenario format's checks.
 */
import { ScenarioError } from '../../src/scenario/index.js'
import { parseScenario } from '../../src/simulator.js'

/** Parses `text` as the file `file` and returns its problems, or [] when it parses. */
export function scenarioProblems(text: string, file = 'test.yaml'): string[] {
  try {
    parseScenario(text, { file })
  } catch (error) {
    if (error instanceof ScenarioError) return error.message.split('\n')
    throw error
  }
  return []
}
