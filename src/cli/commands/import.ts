/**
 * `fakelab import <cassette> [--out scenario.yaml]`: turns a recorded cassette into a scenario for
 * the stateful simulator (users, groups, projects, labels, milestones, freeze periods, issues,
 * merge requests, members), checks it by replaying the session against it, and lists what it does
 * not reproduce.
 *
 * stdout: the scenario YAML, unless `--out` names a file. stderr: `[fakelab]` messages, the
 * not-reproduced notes (also a comment at the top of the YAML), and cassette problems as
 * `file:line:col message`.
 * Exit codes: 0 imported, 1 bad option or broken cassette, 2 unreadable cassette or unwritable
 * output. Source: issue 11 ("Cassette to scenario"); STYLE.md §11.
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises'
import { InvalidArgumentError, Option, type Command } from 'commander'
import { CassetteError, parseCassette } from '../../record/har.js'
import { importCassette } from '../../record/import.js'

const EXIT_INVALID = 1
const EXIT_RUNTIME = 2

interface ImportCliOptions {
  out?: string
  now?: string
  verify: boolean
}

function parseNow(value: string): string {
  if (Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('expected an ISO 8601 instant such as 2021-04-01T12:00:00Z.')
  return new Date(value).toISOString()
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function runImport(file: string, options: ImportCliOptions): Promise<void> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    process.stderr.write(`[fakelab] cannot read ${file}: ${errorText(error)}\n`)
    process.exitCode = EXIT_RUNTIME
    return
  }
  let har
  try {
    har = parseCassette(text, file)
  } catch (error) {
    if (!(error instanceof CassetteError)) throw error
    process.stderr.write(`${error.message}\n[fakelab] ${file} is not a valid cassette; nothing imported.\n`)
    process.exitCode = EXIT_INVALID
    return
  }
  const result = await importCassette(har, { source: file, verify: options.verify, ...(options.now ? { now: options.now } : {}) })
  if (options.out) {
    try {
      await writeFile(options.out, result.yaml, 'utf8')
    } catch (error) {
      process.stderr.write(`[fakelab] cannot write ${options.out}: ${errorText(error)}\n`)
      process.exitCode = EXIT_RUNTIME
      return
    }
  } else {
    process.stdout.write(result.yaml)
  }
  const counts = Object.entries(result.counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind.replace(/_/g, ' ')}`)
    .join(', ')
  process.stderr.write(`[fakelab] imported ${counts || 'nothing'}${options.out ? ` into ${options.out}` : ''}\n`)
  if (result.notReproduced.length === 0) process.stderr.write('[fakelab] every recorded GET is answered with the same body\n')
  else process.stderr.write(`[fakelab] not reproduced:\n${result.notReproduced.map((n) => `  - ${n}`).join('\n')}\n`)
  process.exitCode = 0
}

const EXAMPLES = `
Examples:
  $ fakelab import fixtures/cassettes/session.har.json --out scenarios/recorded.yaml
  $ fakelab serve --scenario scenarios/recorded.yaml            # the recording, now stateful
  $ fakelab import session.har.json --now 2021-04-01T12:00:00Z  # freeze the clock yourself

Exit codes: 0 imported, 1 bad option or broken cassette, 2 unreadable cassette or unwritable output.
`

/**
 * Adds `import` to the program. Options fall back to `FAKELAB_IMPORT_OUT` and `FAKELAB_NOW`.
 * @returns the new subcommand.
 */
export function registerImportCommand(program: Command): Command {
  return program
    .command('import')
    .description('turn a recorded cassette into a scenario YAML and list what it does not reproduce')
    .argument('<cassette>', 'HAR cassette written by fakelab record')
    .addOption(new Option('-o, --out <scenario>', 'write the scenario here instead of stdout').env('FAKELAB_IMPORT_OUT'))
    .addOption(new Option('--now <instant>', "the scenario's frozen clock (default: the recording's first Date header)").env('FAKELAB_NOW').argParser(parseNow))
    .addOption(new Option('--no-verify', 'skip replaying the session against the imported scenario'))
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, options: ImportCliOptions) => {
      await runImport(file, options)
    })
}
