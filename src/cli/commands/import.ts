/**
 * `fakelab import <cassette> [--out scenario.yaml]`: turns a recorded cassette into a scenario for
 * the stateful simulator (users, groups, projects, labels, milestones, freeze periods, issues,
 * merge requests, members), checks it by replaying the session against it, and lists what it does
 * not reproduce.
 *
 * Each recorded credential's user gets a token: `glpat-imported-<n>` for `[REDACTED-n]` (printed),
 * or the value `--token <username or placeholder>=<token>` gives (docs/record-replay.md, "Tokens").
 *
 * stdout: the scenario YAML, unless `--out` names a file (its folders are created). stderr: `[fakelab]` messages, the
 * not-reproduced notes (also a comment at the top of the YAML), and cassette problems as
 * `file:line:col message`.
 * Exit codes: 0 imported, 1 bad option or broken cassette, 2 unreadable cassette or unwritable
 * output. Source: issue 11 ("Cassette to scenario"); STYLE.md §11.
 * @module
 */
import { promises as fsp } from 'node:fs'
import { dirname } from 'node:path'
import { InvalidArgumentError, Option, type Command } from 'commander'
import { CassetteError, parseCassette } from '../../record/har.js'
import { errorText } from '../options.js'

const EXIT_INVALID = 1
const EXIT_RUNTIME = 2

interface ImportCliOptions {
  out?: string
  now?: string
  verify: boolean
  token?: Map<string, string>
}

/**
 * commander parser for `--token <who>=<value>` (repeatable; env `FAKELAB_IMPORT_TOKEN`, several
 * separated by commas): `who` is a placeholder (`[REDACTED-1]`) or the username it authenticates as.
 */
function parseToken(value: string, previous: Map<string, string> | undefined): Map<string, string> {
  const out = new Map(previous)
  for (const pair of value.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = pair.indexOf('=')
    if (eq <= 0 || eq === pair.length - 1) throw new InvalidArgumentError(`expected <username or [REDACTED-n]>=<token>, such as root=$GITLAB_TOKEN; got ${JSON.stringify(pair.replace(/=.*/, '=…'))}.`)
    out.set(pair.slice(0, eq), pair.slice(eq + 1))
  }
  return out
}

function parseNow(value: string): string {
  if (Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('expected an ISO 8601 instant such as 2021-04-01T12:00:00Z.')
  return new Date(value).toISOString()
}

async function runImport(file: string, options: ImportCliOptions): Promise<void> {
  let text: string
  try {
    text = await fsp.readFile(file, 'utf8')
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
  // Loaded here, not at start: it reads every area's cassette-import hook (issue 27, cold start).
  const { importCassette } = await import('../../verify/import.js')
  const result = await importCassette(har, { source: file, verify: options.verify, ...(options.now ? { now: options.now } : {}), ...(options.token ? { tokens: options.token } : {}) })
  const unused = [...(options.token?.keys() ?? [])].filter((who) => !result.tokens.some((t) => t.placeholder === who || t.username === who))
  if (unused.length > 0) {
    const known = result.tokens.map((t) => `${t.placeholder} (${t.username})`).join(', ') || 'none'
    process.stderr.write(`[fakelab] --token ${unused.join(', ')}: no recorded credential of that name or user; the cassette's credentials: ${known}\n`)
    process.exitCode = EXIT_INVALID
    return
  }
  if (options.out) {
    try {
      // Like `fakelab record`, the output's folders are created.
      await fsp.mkdir(dirname(options.out), { recursive: true })
      await fsp.writeFile(options.out, result.yaml, 'utf8')
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
  for (const t of result.tokens) {
    const how = t.given ? 'the token given with --token (now in the scenario: keep it out of version control)' : `${t.token} (or import with --token ${t.username}=<the token you recorded with>)`
    process.stderr.write(`[fakelab] token ${t.placeholder} is ${t.username}'s: send ${t.sentAs === 'Authorization: Bearer' ? 'Authorization: Bearer' : t.sentAs.endsWith('=') ? t.sentAs.slice(0, -1) : t.sentAs} ${how}\n`)
  }
  if (result.notReproduced.length === 0) process.stderr.write('[fakelab] every recorded GET is answered with the same body\n')
  else process.stderr.write(`[fakelab] not reproduced:\n${result.notReproduced.map((n) => `  - ${n}`).join('\n')}\n`)
  process.exitCode = 0
}

const EXAMPLES = `
Examples:
  $ fakelab import fixtures/cassettes/session.har.json --out scenarios/recorded.yaml
  $ fakelab serve --scenario scenarios/recorded.yaml            # the recording, now stateful
  $ fakelab import session.har.json --now 2021-04-01T12:00:00Z  # freeze the clock yourself
  $ fakelab import session.har.json --token root=$GITLAB_TOKEN    # your client's own token keeps working

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
    .addOption(
      new Option('--token <who=token>', "give a recorded credential's user this token (repeatable; who is a username or [REDACTED-n]), so the client re-run unchanged authenticates; default glpat-imported-<n>")
        .env('FAKELAB_IMPORT_TOKEN')
        .argParser(parseToken),
    )
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, options: ImportCliOptions) => {
      await runImport(file, options)
    })
}
