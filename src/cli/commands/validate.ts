/**
 * `fakelab validate <scenario...>`: parses and checks each scenario file (including its
 * `include:` files) without starting anything.
 *
 * stdout: `ok <file>` per valid file. stderr: each problem of an invalid file as
 * `file:line:col message`, and `[fakelab]` messages.
 * Exit codes: 0 every file valid, 1 some file invalid, 2 some file unreadable. Source: STYLE.md §11.
 * @module
 */
import type { Command } from 'commander'
import { loadScenarioFile } from '../../scenario-files.js'
import { ScenarioError } from '../../scenario/index.js'
import { errorText } from '../options.js'

const EXIT_INVALID = 1
const EXIT_RUNTIME = 2

type Outcome = 'ok' | 'invalid' | 'unreadable'

/** Validates one file and prints its result. */
async function validateFile(file: string): Promise<Outcome> {
  try {
    await loadScenarioFile(file)
    process.stdout.write(`ok ${file}\n`)
    return 'ok'
  } catch (error) {
    if (error instanceof ScenarioError) {
      // Its message is its problems, one `file:line:col message` a line (scenario/problems.ts).
      process.stderr.write(`${error.message}\n`)
      return 'invalid'
    }
    process.stderr.write(`[fakelab] cannot read ${file}: ${errorText(error)}\n`)
    return 'unreadable'
  }
}

const EXAMPLES = `
Examples:
  $ fakelab validate scenarios/default.yaml
  $ fakelab validate scenarios/*.yaml fixtures/*.yaml

Exit codes: 0 all valid, 1 some file has problems, 2 some file cannot be read.
`

/**
 * Adds `validate` to the program. Every file is checked (no stop at the first bad one).
 * spec-gap: an unreadable file is a runtime failure (exit 2, as for `serve`), which wins over
 * an invalid one (exit 1).
 * @returns the new subcommand.
 */
export function registerValidateCommand(program: Command): Command {
  return program
    .command('validate')
    .description('check scenario files and print every problem as file:line:col message')
    .argument('<scenario...>', 'scenario YAML files')
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[]) => {
      const outcomes: Outcome[] = []
      for (const file of files) outcomes.push(await validateFile(file))
      if (outcomes.includes('unreadable')) process.exitCode = EXIT_RUNTIME
      else if (outcomes.includes('invalid')) process.exitCode = EXIT_INVALID
      else process.exitCode = 0
    })
}
