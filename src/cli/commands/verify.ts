/**
 * `fakelab verify <cassette...>`: replays each recorded session against a fresh simulator (seeded
 * from the cassette, or from `--scenario`) and reports where the answers differ, per route key and
 * JSON path, after the normalisations and the ignore rules.
 *
 * stdout: the report (`--report text|json|html`), unless `--out` names a file. stderr: `[fakelab]`
 * messages. Exit codes: 0 nothing differs, 1 something differs, 2 bad input (an unreadable or
 * invalid cassette, a bad ignore rule, an unreadable config or scenario). Note: unlike other
 * commands, a bad input is 2 here, because 1 is CI's "fidelity differs". Source: issue 15.
 * @module
 */
import { promises as fsp } from 'node:fs'
import { Option, type Command } from 'commander'
import { parse as parseYaml } from 'yaml'
import { CassetteError, parseCassette } from '../../record/har.js'
import { loadScenarioFile } from '../../scenario-files.js'
import type { Scenario } from '../../scenario/index.js'
import { ScenarioError } from '../../scenario/index.js'
import { IgnoreSyntaxError, parseIgnoreRules } from '../../verify/paths.js'
import { formatReport, REPORT_FORMATS, type ReportFormat } from '../../verify/report.js'
import type { VerifyReport } from '../../verify/verify.js'
import { collect, errorText } from '../options.js'

const EXIT_DIFFERS = 1
const EXIT_BAD_INPUT = 2

/** Parsed options of `verify`. */
interface VerifyCliOptions {
  scenario?: string
  ignore?: string[]
  config?: string
  report: ReportFormat
  out?: string
}

/** Thrown for bad input: printed as `[fakelab] <message>`, exit 2 (`record --verify`: exit 1). */
class BadInput extends Error {
  override name = 'BadInput'
}

/**
 * The `ignore:` list of a config file (`{ ignore: [<rule>, ...] }` in YAML or JSON).
 * @throws BadInput (an Error named `BadInput`) when it cannot be read or has another shape.
 */
export async function readVerifyConfig(path: string): Promise<string[]> {
  let text: string
  try {
    text = await fsp.readFile(path, 'utf8')
  } catch (error) {
    throw new BadInput(`cannot read config ${path}: ${errorText(error)}`)
  }
  let value: unknown
  try {
    value = parseYaml(text)
  } catch (error) {
    throw new BadInput(`${path}: not YAML: ${errorText(error)}`)
  }
  if (value === null || value === undefined) return []
  if (typeof value !== 'object' || Array.isArray(value)) throw new BadInput(`${path}: expected a mapping with an ignore: list`)
  const unknown = Object.keys(value).filter((k) => k !== 'ignore')
  if (unknown.length > 0) throw new BadInput(`${path}: unknown key ${unknown.map((k) => JSON.stringify(k)).join(', ')} (only ignore: is read)`)
  const ignore = (value as { ignore?: unknown }).ignore ?? []
  if (!Array.isArray(ignore) || ignore.some((r) => typeof r !== 'string')) throw new BadInput(`${path}: ignore: must be a list of strings`)
  return ignore as string[]
}

/**
 * Loads a scenario file for verify.
 * @throws BadInput (an Error named `BadInput`) with the problems, or when the file cannot be read.
 */
export async function loadVerifyScenario(path: string): Promise<Scenario> {
  try {
    return await loadScenarioFile(path)
  } catch (error) {
    if (error instanceof ScenarioError) throw new BadInput(`${error.message}\n[fakelab] ${path} is not a valid scenario`)
    throw new BadInput(`cannot read scenario ${path}: ${errorText(error)}`)
  }
}

async function runVerify(files: string[], options: VerifyCliOptions): Promise<void> {
  const reports: VerifyReport[] = []
  try {
    const ignore = [...(options.config ? await readVerifyConfig(options.config) : []), ...(options.ignore ?? [])]
    parseIgnoreRules(ignore)
    const scenario = options.scenario ? await loadVerifyScenario(options.scenario) : undefined
    // Loaded on use, like the recorder: other commands (serve's cold start) never need it.
    const { verifyCassette } = await import('../../verify/verify-cassette.js')
    for (const file of files) {
      let text: string
      try {
        text = await fsp.readFile(file, 'utf8')
      } catch (error) {
        throw new BadInput(`cannot read ${file}: ${errorText(error)}`)
      }
      let har
      try {
        har = parseCassette(text, file)
      } catch (error) {
        if (error instanceof CassetteError) throw new BadInput(`${error.message}\n[fakelab] ${file} is not a HAR cassette`)
        throw error
      }
      reports.push(await verifyCassette(har, { source: file, ignore, ...(scenario ? { scenario } : {}) }))
    }
  } catch (error) {
    if (!(error instanceof BadInput) && !(error instanceof IgnoreSyntaxError)) throw error
    process.stderr.write(`[fakelab] ${error.message}\n`)
    process.exitCode = EXIT_BAD_INPUT
    return
  }
  const text = formatReport(reports, options.report)
  if (options.out) {
    try {
      await fsp.writeFile(options.out, text, 'utf8')
    } catch (error) {
      process.stderr.write(`[fakelab] cannot write ${options.out}: ${errorText(error)}\n`)
      process.exitCode = EXIT_BAD_INPUT
      return
    }
    process.stderr.write(`[fakelab] wrote the ${options.report} report to ${options.out}\n`)
  } else {
    process.stdout.write(text)
  }
  const clean = reports.every((r) => r.clean)
  process.exitCode = clean ? 0 : EXIT_DIFFERS
}

const EXAMPLES = `
Examples:
  $ fakelab verify cassettes/*.har.json                       # text summary per route key
  $ fakelab verify session.har.json --ignore '$[*].avatar_url' --ignore '**.web_url'
  $ fakelab verify session.har.json --config verify.yaml      # ignore: [ ... ] in YAML
  $ fakelab verify session.har.json --report html --out report.html
  $ fakelab verify session.har.json --scenario scenarios/default.yaml

Ignore rules: a path from $ (body), status or headers.<name>; * is one segment, ** any depth;
an optional route key first limits a rule to one route: 'GET /user $.last_sign_in_at'.
Exit codes: 0 nothing differs, 1 something differs, 2 bad input.
`

/**
 * Adds `verify` to the program.
 * @returns the new subcommand.
 */
export function registerVerifyCommand(program: Command): Command {
  return program
    .command('verify')
    .description('replay recorded cassettes against the simulator and report where its answers differ')
    .argument('<cassette...>', 'HAR cassettes written by fakelab record')
    .addOption(new Option('-s, --scenario <file>', 'replay against this scenario instead of one imported from each cassette'))
    .addOption(new Option('-i, --ignore <json-path>', 'ignore differences at this path (repeatable)').argParser(collect))
    .addOption(new Option('-c, --config <file>', 'YAML file with an ignore: list'))
    .addOption(new Option('-r, --report <format>', 'report format').choices(REPORT_FORMATS).default('text'))
    .addOption(new Option('-o, --out <file>', 'write the report here instead of stdout'))
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], options: VerifyCliOptions) => {
      await runVerify(files, options)
    })
}
