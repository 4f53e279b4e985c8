/**
 * The `fakelab` command line: builds the commander program and registers one command per file
 * under `commands/`. Commands only parse options and call library functions.
 *
 * Exit codes (STYLE.md §11): 0 success, 1 usage or validation error, 2 runtime failure.
 * Messages on stderr carry a `[fakelab]` prefix. Importing this module runs the CLI on
 * `process.argv` (it is the target of the `bin/fakelab` shim), so it exports nothing.
 * @module
 */
import { readFileSync } from 'node:fs'
import { Command } from 'commander'
import { registerServeCommand } from './commands/serve.js'
import { registerValidateCommand } from './commands/validate.js'
import { registerRecordCommand } from './commands/record.js'
import { registerImportCommand } from './commands/import.js'
import { registerVerifyCommand } from './commands/verify.js'
import { registerRoutesCommand } from './commands/routes.js'

/** Exit code of a runtime failure (here: an unexpected error escaping a command). */
const EXIT_RUNTIME = 2

interface PackageJson {
  version: string
  description: string
}

/**
 * package.json sits two levels above `src/cli/main.ts` and `dist/cli/main.js`, and one above the
 * bundled CLI `dist/cli.js` (scripts/build-cli.mjs).
 */
function readPackageJson(): PackageJson {
  const bundled = !/\/cli\/main\.[jt]s$/.test(import.meta.url)
  return JSON.parse(readFileSync(new URL(bundled ? '../package.json' : '../../package.json', import.meta.url), 'utf8')) as PackageJson
}

const EXAMPLES = `
Examples:
  $ fakelab serve                                  # embedded default scenario on http://127.0.0.1:3000
  $ fakelab serve --port 0 --scenario my.yaml      # any free port, your own data
  $ FAKELAB_PORT=8080 fakelab serve                # options fall back to FAKELAB_* variables
  $ fakelab validate scenarios/*.yaml              # check scenario files, exit 1 on problems
  $ fakelab verify cassettes/*.har                 # where fakelab answers unlike the recording
  $ fakelab routes                                 # GitLab 13.12's routes and fakelab's share

Exit codes: 0 success, 1 usage or validation error, 2 runtime failure.
`

/**
 * Builds the program with every command registered. Usage errors print with a `[fakelab]` prefix
 * and exit 1 (commander's default code for them); `--help` and `--version` exit 0.
 */
function buildProgram(): Command {
  const pkg = readPackageJson()
  const program = new Command('fakelab')
    .version(pkg.version, '-V, --version', 'print the version')
    .description(pkg.description)
    .helpOption('-h, --help', 'show help')
    .configureOutput({
      outputError: (text, write) => write(`[fakelab] ${text}`),
    })
    .showHelpAfterError('(run with --help for usage and examples)')
    .addHelpText('after', EXAMPLES)
  // Settings above are copied into each subcommand created by `program.command()`.
  registerServeCommand(program)
  registerValidateCommand(program)
  registerRecordCommand(program)
  registerImportCommand(program)
  registerVerifyCommand(program)
  registerRoutesCommand(program)
  return program
}

/** Runs the CLI on `argv` (the full `process.argv`). */
async function main(argv: readonly string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv])
  } catch (error) {
    // Commands report their own expected failures; anything reaching here is unexpected.
    process.stderr.write(`[fakelab] unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = EXIT_RUNTIME
  }
}

// Not awaited at top level: the bundled CLI (scripts/build-cli.mjs) is a CommonJS script, so its
// compiled code can be cached; main() reports every failure itself.
void main()
